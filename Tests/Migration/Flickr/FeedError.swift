import Networking

/// What the screen says when a load fails.
enum FeedError: Error, Equatable {
    case offline
    case timeout
    case server(status: Int)
    case other(String)

    /// The kind of `error`, which `photos(tags:)` classified as an `APIError`.
    init(_ error: Error) {
        switch error as? APIError {
        case .internetConnection?:
            self = .offline
        case .requestTimeout?:
            self = .timeout
        case .restError(_, statusCode: let status?, errorCode: _)?:
            self = .server(status: status)
        default:
            self = .other(error.localizedDescription)
        }
    }
}
