/// An HTTP request method; the raw value is the token sent on the wire.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    /// `GET`
    case get = "GET"
    /// `POST`
    case post = "POST"
    /// `PUT`
    case put = "PUT"
    /// `PATCH`
    case patch = "PATCH"
    /// `DELETE`
    case delete = "DELETE"
    /// `HEAD`
    case head = "HEAD"
    /// `OPTIONS`
    case options = "OPTIONS"
    /// `TRACE`
    case trace = "TRACE"
    /// `CONNECT`
    case connect = "CONNECT"

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
    public var isIdempotent: Bool {
        switch self {
        case .get, .head, .put, .delete, .options, .trace: return true
        case .post, .patch, .connect: return false
        }
    }

    /// Whether a multipart body may go with this method (Moya: `POST`, `PUT`, `PATCH`, `CONNECT`).
    public var supportsMultipart: Bool {
        switch self {
        case .post, .put, .patch, .connect: return true
        case .get, .delete, .head, .options, .trace: return false
        }
    }
}
