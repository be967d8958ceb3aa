import Networking
import Reactive

final class AccountViewModel {
    let name = BehaviorRelay<String>(value: "")
    let failure = PublishRelay<String>()

    private let provider: APIProvider<Accounts>
    private let disposeBag = DisposeBag()

    init(provider: APIProvider<Accounts>) {
        self.provider = provider
    }

    func load(id: Int) {
        provider.rx.request(.profile(id: id))
            .filterSuccessfulStatusCodes()
            .map(Profile.self)
            .map { $0.name }
            .catch { [weak self] error in self?.handleREST(error) ?? .just("") }
            .asObservable()
            .bind(onNext: { [weak self] name in self?.update(name) })
            .disposed(by: disposeBag)
    }

    private func handleREST(_ error: Error) -> Single<String> {
        let status = (error as? ProviderError)?.response?.statusCode
        failure.accept(status.map { "The server answered \($0)." } ?? "No answer.")
        return .just("")
    }

    private func update(_ name: String) {
        self.name.accept(name)
    }
}
