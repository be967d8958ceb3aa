import Foundation
import Networking
import Reactive

final class ProfileViewModel: Sendable {
    let title = BehaviorRelay<String>(value: "")
    let repos = BehaviorRelay<[Repo]>(value: [])
    let isLoading = BehaviorRelay<Bool>(value: false)
    let error = PublishRelay<String>()

    private let provider: NetworkProvider<GitHub>
    private let scheduler: any SchedulerType
    private let disposeBag = DisposeBag()

    init(provider: NetworkProvider<GitHub> = NetworkProvider<GitHub>(),
         scheduler: any SchedulerType = MainScheduler.instance) {
        self.provider = provider
        self.scheduler = scheduler
    }

    func load(user name: String) {
        isLoading.accept(true)
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase

        let user = provider.rx.request(.user(name))
            .filterSuccessfulStatusCodes()
            .map(User.self)
        let repos = provider.rx.request(.repos(name))
            .filterSuccessfulStatusCodes()
            .map([Repo].self, using: decoder)

        Single.zip(user, repos)
            .observe(on: scheduler)
            .subscribe(with: self, onSuccess: { owner, result in
                let (user, repos) = result
                owner.title.accept(user.name ?? user.login)
                owner.repos.accept(repos.sorted { $0.stargazersCount > $1.stargazersCount })
                owner.isLoading.accept(false)
            }, onFailure: { owner, error in
                owner.error.accept(error.localizedDescription)
                owner.isLoading.accept(false)
            })
            .disposed(by: disposeBag)
    }
}
