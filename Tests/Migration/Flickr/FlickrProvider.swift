import Networking
import PhotoFeed
import Reactive

/// Sends the app's key with every request.
struct APIKeyPlugin: PluginType {
    let key: String

    func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
        var request = request
        request.setValue(key, forHTTPHeaderField: "X-Api-Key")
        return request
    }
}

/// The app's provider: its key, a logger, a 10-second timeout, stubs in tests.
typealias FlickrProvider = NetworkProvider<Flickr>

extension NetworkProvider where Target == Flickr {
    convenience init(stubClosure: @escaping StubClosure = NetworkProvider.neverStub,
                     endpointClosure: @escaping EndpointClosure = NetworkProvider.defaultEndpointMapping,
                     plugins: [PluginType] = [NetworkLoggerPlugin()],
                     scheduler: SchedulerType = ImmediateScheduler.instance) {
        self.init(endpointClosure: endpointClosure,
                  stubClosure: stubClosure,
                  plugins: [APIKeyPlugin(key: "demo-key")] + plugins,
                  scheduler: scheduler,
                  requestTimeout: .seconds(10))
    }

    func photos(tags: String) -> Single<Photo> {
        rx.request(.publicPhotos(tags: tags))
            .filterSuccessfulStatusCodes()
            .classifyErrors()
            .map { try Photo.decode(feed: $0.data) }
    }
}
