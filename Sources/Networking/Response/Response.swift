import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient
import HTTPWire
import Locking

/// An HTTP response: status code and body, with the request and `HTTPURLResponse` when there was one.
public struct Response: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The status the server sent, whether or not it was accepted; filters and `validationType` judge it.
    @inlinable public var statusCode: Int { storage.statusCode }
    /// The body as received (decompressed by the transport); empty for a download (see `fileURL`).
    @inlinable public var data: Data { storage.data }
    /// The request that produced this response, if known.
    public var request: URLRequest? { storage.request }
    /// The transport's response, if there was one (stubs built from a status code have none).
    /// Over `SocketTransport` it is built on first read, and every read gives the same instance.
    public var response: HTTPURLResponse? { storage.response }
    /// The URL of `response`, without building one kept as its head.
    var responseURL: URL? { storage.responseURL }
    /// The fields of `response`, read from the head when it is kept as one (without building it).
    var headerFields: [String: String] { storage.headerFields }
    /// Where a download's body was written (`data` is then empty); `nil` for other requests.
    public var fileURL: URL? { storage.fileURL }
    /// When each step of the request happened and the bytes it moved, from `SocketTransport`
    /// (nil from other transports and stubs); not compared by `==`.
    public var timings: HTTPClientTimings? { storage.timings }

    /// The fields, in one immutable object: a response is handed through results, events and
    /// operators by value, and each copy is then one retain instead of one per field. A head
    /// read off the wire (`Source.head`) is kept here too, with the `HTTPURLResponse` built from
    /// it on first read: one object a response rather than two.
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let statusCode: Int
        @usableFromInline let data: Data
        let request: URLRequest?
        let source: Source
        let fileURL: URL?
        let timings: HTTPClientTimings?
        /// `source`'s `HTTPURLResponse` once built, for `.head` (Foundation's initializer runs
        /// under the lock; it calls no code of a caller).
        private let built = Lock<HTTPURLResponse??>(nil)

        init(statusCode: Int, data: Data, request: URLRequest?, source: Source, fileURL: URL?, timings: HTTPClientTimings? = nil) {
            self.statusCode = statusCode
            self.data = data
            self.request = request
            self.source = source
            self.fileURL = fileURL
            self.timings = timings
        }

        var response: HTTPURLResponse? {
            switch source {
            case .given(let response): response
            case .sharing(let other): other.response
            case .head(let url, let version, let headers):
                built.withLock { built in
                    if let response = built { return response }
                    let response = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: version.description,
                                                   headerFields: headers.joinedByName)
                    built = .some(response)
                    return response
                }
            }
        }

        var responseURL: URL? {
            switch source {
            case .given(let response): response?.url
            case .sharing(let other): other.responseURL
            case .head(let url, _, _): url
            }
        }

        var headerFields: [String: String] {
            switch source {
            case .head(_, _, let headers):
                return headers.joinedByName
            case .sharing(let other):
                return other.headerFields
            case .given(let response):
                var fields: [String: String] = [:]
                for (name, value) in response?.allHeaderFields ?? [:] {
                    if let name = name as? String { fields[name] = value as? String ?? String(describing: value) }
                }
                return fields
            }
        }
    }

    enum Source: Sendable {
        case given(HTTPURLResponse?)
        /// The head `SocketTransport` read: the `HTTPURLResponse` is built from it when first read.
        case head(url: URL, version: HTTPVersion, headers: HTTPHeaders)
        /// Another response's (a cached answer given again): the same `HTTPURLResponse` instance.
        case sharing(Storage)
    }

    @usableFromInline let storage: Storage

    /// A response as given; `filterSuccessfulStatusCodes()` and the mappers read only
    /// `statusCode` and `data`, so a stub needs nothing else.
    public init(statusCode: Int, data: Data, request: URLRequest? = nil, response: HTTPURLResponse? = nil,
                fileURL: URL? = nil) {
        storage = Storage(statusCode: statusCode, data: data, request: request, source: .given(response), fileURL: fileURL)
    }

    /// A response to `request` from `url` whose `HTTPURLResponse` is built from the head's
    /// `version` and `headers` when first read.
    init(statusCode: Int, data: Data, request: URLRequest?, url: URL, version: HTTPVersion, headers: HTTPHeaders, fileURL: URL?,
         timings: HTTPClientTimings?) {
        storage = Storage(statusCode: statusCode, data: data, request: request, source: .head(url: url, version: version, headers: headers),
                          fileURL: fileURL, timings: timings)
    }

    /// This response given again to `request` (a cached answer): the same body and
    /// `HTTPURLResponse`, no file.
    func answering(_ request: URLRequest) -> Response {
        let source: Source = switch storage.source {
        case .head: .sharing(storage)
        case let other: other
        }
        return Response(storage: Storage(statusCode: storage.statusCode, data: storage.data, request: request, source: source, fileURL: nil))
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// A one-line summary: status code and body size.
    public var description: String {
        "Status Code: \(statusCode), Data Length: \(data.count)"
    }

    /// `description`, so debugger output and string interpolation agree.
    public var debugDescription: String { description }

    /// Equal status code, body, request, response and file.
    public static func == (lhs: Response, rhs: Response) -> Bool {
        lhs.statusCode == rhs.statusCode
            && lhs.data == rhs.data
            && lhs.request == rhs.request
            && lhs.response == rhs.response
            && lhs.fileURL == rhs.fileURL
    }

    /// The value of a response header, matched case-insensitively.
    public func headerValue(_ name: String) -> String? {
        guard let fields = response?.allHeaderFields else { return nil }
        for (key, value) in fields {
            if let key = key as? String, key.caseInsensitiveCompare(name) == .orderedSame {
                return value as? String ?? String(describing: value)
            }
        }
        return nil
    }
}
