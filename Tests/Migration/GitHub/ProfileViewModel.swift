import Foundation
import Networking
import Reactive

final class ProfileViewModel {
    let title = BehaviorRelay<String>(value: "")
    let repos = BehaviorRelay<[Repo]>(value: [])
    let isLoading = BehaviorRelay<Bool>(value: false)
    let error = PublishRelay<String>()

    private let provider: NetworkProvider<GitHub>
    private let scheduler: SchedulerType
    private let disposeBag = DisposeBag()

    init(provider: NetworkProvider<GitHub> = NetworkProvider<GitHub>(),
         scheduler: SchedulerType = MainScheduler.instance) {
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
            .subscribe(onSuccess: { [weak self] user, repos in
                self?.title.accept(user.name ?? user.login)
                self?.repos.accept(repos.sorted { $0.stargazersCount > $1.stargazersCount })
                self?.isLoading.accept(false)
            }, onFailure: { [weak self] error in
                self?.error.accept(error.localizedDescription)
                self?.isLoading.accept(false)
            })
            .disposed(by: disposeBag)
    }
}
