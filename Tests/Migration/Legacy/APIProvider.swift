import Networking
import Reactive

/// The app's provider for any of its targets (before: `final class APIProvider<T: TargetType>: MoyaProvider<T>`).
typealias APIProvider<T: TargetType> = NetworkProvider<T>

extension NetworkProvider {
    /// Alamofire 4's `Manager(configuration:)` with a 20-second timeout becomes a transport.
    static func appTransport() -> HTTPTransport {
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = 20
        return URLSessionTransport(configuration: configuration)
    }

    /// What the subclass's `init` passed to `super.init` (`manager:` is `transport:`).
    convenience init(stubbed: Bool,
                     endpointClosure: @escaping EndpointClosure = NetworkProvider.defaultEndpointMapping,
                     transport: HTTPTransport = NetworkProvider.appTransport(),
                     plugins: [PluginType] = []) {
        self.init(endpointClosure: endpointClosure,
                  stubClosure: stubbed ? NetworkProvider.immediatelyStub : NetworkProvider.neverStub,
                  transport: transport,
                  plugins: plugins)
    }
}

extension NetworkProvider where Target == Accounts {
    /// RxSwift 5 code around the completion API: `single(.error(e))` is `single(.failure(e))`.
    func profile(id: Int) -> Single<Profile> {
        Single.create { single in
            let request = self.request(.profile(id: id)) { result in
                if let response = result.value {
                    do {
                        single(.success(try response.filterSuccessfulStatusCodes().map(Profile.self)))
                    } catch {
                        single(.failure(error))
                    }
                } else if let error = result.error {
                    single(.failure(error))
                }
            }
            return Disposables.create { request.cancel() }
        }
    }

    /// `Observable.create` with its observer typed `AnyObserver`, as RxSwift 5 code writes it.
    func avatarProgress(id: Int) -> Observable<Double> {
        Observable.create { (observer: AnyObserver<Double>) in
            let request = self.request(.avatar(id: id), progress: { observer.onNext($0.progress) }) { result in
                if let error = result.error {
                    observer.onError(error)
                } else {
                    observer.onCompleted()
                }
            }
            return Disposables.create { request.cancel() }
        }
    }
}
