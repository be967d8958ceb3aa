import Foundation
import Networking
import Reactive

/// A decoded model that is a plain (non-Sendable) class.
final class Profile: Decodable {
    var login = ""
    var name: String?
}

func profile(_ name: String, provider: NetworkProvider<GitHub>) -> Single<Profile> {
    provider.rx.request(.user(name))
        .filterSuccessfulStatusCodes()
        .map(Profile.self)
}
