import Foundation

extension NetworkLoggerPlugin {
    /// The logger's settings.
    public struct Configuration: Sendable {
        /// Receives a target and the lines logged for it.
        public typealias OutputType = @Sendable (_ target: any TargetType, _ items: [String]) -> Void

        /// Headers hidden by default: `Authorization`, `Cookie`, `Set-Cookie`, `Proxy-Authorization`.
        public static let defaultRedactedHeaders: Set<String> = ["Authorization", "Cookie", "Set-Cookie", "Proxy-Authorization"]

        /// Turns pieces into text.
        public let formatter: Formatter
        /// Where lines go (default: `print`, one line each).
        public let output: OutputType
        /// What is logged.
        public let logOptions: LogOptions
        /// Header names whose values are masked.
        public let redactedHeaders: Set<String>
        /// Extra names masked everywhere: headers, query items, JSON and form body keys.
        public let redactedKeys: Set<String>

        /// Creates a configuration; pass `redactedHeaders: []` to turn the default redaction off.
        public init(formatter: Formatter = Formatter(),
                    output: @escaping OutputType = Configuration.defaultOutput,
                    logOptions: LogOptions = .default,
                    redactedHeaders: Set<String> = Configuration.defaultRedactedHeaders,
                    redactedKeys: Set<String> = []) {
            self.formatter = formatter
            self.output = output
            self.logOptions = logOptions
            self.redactedHeaders = redactedHeaders
            self.redactedKeys = redactedKeys
        }

        /// The redactor built from `redactedHeaders` and `redactedKeys`.
        public var redactor: Redactor { Redactor(names: redactedHeaders.union(redactedKeys)) }

        /// Prints each line.
        public static let defaultOutput: OutputType = { _, items in
            for item in items { print(item) }
        }
    }
}

extension NetworkLoggerPlugin.Configuration {
    /// Turns log pieces into text.
    public struct Formatter: Sendable {
        /// Builds one line from an identifier, a message and the target.
        public let entry: @Sendable (_ identifier: String, _ message: String, _ target: any TargetType) -> String
        /// Formats a (redacted) request body.
        public let requestData: @Sendable (String) -> String
        /// Formats a (redacted) response body.
        public let responseData: @Sendable (String) -> String

        /// Creates a formatter; the default entry is Moya's with this module's name,
        /// `Networking: [<short date and time>] <identifier>: <message>`.
        public init(entry: @escaping @Sendable (String, String, any TargetType) -> String = Formatter.defaultEntry,
                    requestData: @escaping @Sendable (String) -> String = { $0 },
                    responseData: @escaping @Sendable (String) -> String = { $0 }) {
            self.entry = entry
            self.requestData = requestData
            self.responseData = responseData
        }

        /// `Networking: [<short date and time>] <identifier>: <message>`, as Moya's `Moya_Logger: [...]` entries.
        public static let defaultEntry: @Sendable (String, String, any TargetType) -> String = { identifier, message, _ in
            let formatter = DateFormatter()
            formatter.dateStyle = .short
            formatter.timeStyle = .short
            return "Networking: [\(formatter.string(from: Date()))] \(identifier): \(message)"
        }
    }

    /// What the logger prints.
    public struct LogOptions: OptionSet, Sendable {
        /// The option bits.
        public let rawValue: Int
        /// Creates options from raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The HTTP method.
        public static let requestMethod = LogOptions(rawValue: 1 << 0)
        /// The request body.
        public static let requestBody = LogOptions(rawValue: 1 << 1)
        /// The request headers.
        public static let requestHeaders = LogOptions(rawValue: 1 << 2)
        /// The request as a `curl` command instead of the other request lines.
        public static let formatRequestAscURL = LogOptions(rawValue: 1 << 3)
        /// The body of successful responses.
        public static let successResponseBody = LogOptions(rawValue: 1 << 4)
        /// The body of failed responses.
        public static let errorResponseBody = LogOptions(rawValue: 1 << 5)
        /// The response headers.
        public static let responseHeaders = LogOptions(rawValue: 1 << 6)

        /// A line with the request's timings (`SocketTransport` measures them): from its queueing,
        /// each step's moment, the bytes both ways, whether the connection was reused and, over
        /// TLS, the version, cipher and ALPN its handshake agreed on.
        public static let timings = LogOptions(rawValue: 1 << 7)

        /// Method and headers.
        public static let `default`: LogOptions = [.requestMethod, .requestHeaders]
        /// Everything except the curl form.
        public static let verbose: LogOptions = [.requestMethod, .requestHeaders, .requestBody, .successResponseBody,
                                                 .errorResponseBody, .responseHeaders]
    }
}
