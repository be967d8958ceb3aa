import Foundation
import Reactive

/// A target that knows its provider, so a request reads `Feed.recent.request()`:
/// `provider.rx.classifiedRequest(_:)` (the rx request, then `filterSuccessfulStatusCodes()`,
/// `classifyErrors()`), and logging of
/// `REQUEST`, `SUCCESS (status)` and `FAILURE (status) key: message` with the call site.
///
/// ```swift
/// enum Feed: Requestable { case recent; static let provider = NetworkProvider<Feed>() ... }
/// Feed.recent.request().map([Photo].self)
/// ```
public protocol Requestable: TargetType {
    /// The provider that sends this target's requests.
    static var provider: NetworkProvider<Self> { get }
    /// Where the request log lines go; `RequestLog.standard` prints them.
    static var requestLog: RequestLog { get }
}

extension Requestable {
    /// Prints the log lines.
    public static var requestLog: RequestLog { .standard }

    /// This target's request through the classified, logged pipeline.
    public func request(
        file: StaticString = #fileID, function: StaticString = #function, line: UInt = #line
    ) -> Single<Response> {
        let log = Self.requestLog
        let site = "\(file):\(line) \(function)"
        let name = "\(method.rawValue) \(path)"
        return Self.provider.rx.classifiedRequest(self)
            .do(
                onSuccess: { log.write("SUCCESS (\($0.statusCode)) \(name) at \(site)") },
                onError: { log.write("\(RequestLog.failureLine(for: $0)) \(name) at \(site)") },
                onSubscribe: { log.write("REQUEST \(name) at \(site)") }
            )
    }
}

/// Where `Requestable` writes its log lines.
///
/// ```swift
/// static var requestLog: RequestLog { RequestLog { line in logger.info(line) } }
/// ```
public struct RequestLog: Sendable {
    /// Receives each line, from whichever thread subscribes or answers.
    public let write: @Sendable (String) -> Void

    /// A log that hands each line to `write`.
    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Prints each line to standard output.
    public static let standard = RequestLog { print($0) }

    /// Drops every line.
    public static let silent = RequestLog { _ in }

    /// `FAILURE (status) key: message` for a classified (or any) error; `-` when there is no status.
    public static func failureLine(for error: any Error) -> String {
        let api = error as? APIError
        let status = api?.statusCode.map(String.init) ?? "-"
        let key = api?.errorCodes.first ?? api.map(caseName) ?? String(describing: type(of: error))
        let message = api?.errorDescription ?? error.localizedDescription
        return "FAILURE (\(status)) \(key): \(message)"
    }

    private static func caseName(_ error: APIError) -> String {
        switch error {
        case .empty: return "empty"
        case .requestTimeout: return "requestTimeout"
        case .internetConnection: return "internetConnection"
        case .restError: return "restError"
        }
    }
}
