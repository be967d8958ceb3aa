import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient

/// Logs requests (on `willSend`) and responses (on `didReceive`) through an output closure, in
/// Moya 15's `NetworkLoggerPlugin` format, hiding the values of sensitive headers, query items
/// and JSON/form body keys.
///
/// The entries, each through `formatter.entry` (by default `Networking: [date] <identifier>: <message>`):
/// - `Request: <URL>`, `Request Headers: ["Name": "value", ...]` (session headers merged in, names
///   sorted), `Request Body Stream: <stream>`, `Request Body: <text>`, `HTTP Request Method: <method>`,
///   each as `logOptions` says; with `.formatRequestAscURL` one `Request` entry holding the cURL
///   command as Alamofire writes it (`$ curl -v`, `-X METHOD`, `-H "Name: value"`, `-d "body"`, `"URL"`);
/// - `Response: { URL: <URL> } { Status Code: <code>, Headers { ... } }`, Apple's
///   `HTTPURLResponse.description` layout on every platform (`ResponseDescription`), or `Received
///   empty network response for <target>.` when there is no `HTTPURLResponse`, then
///   `Response Body: <text>` when asked for;
/// - `Error: Error calling <target> : <error>` for a failure that carries no response.
///
/// ```swift
/// NetworkLoggerPlugin(configuration: .init(output: { _, lines in lines.forEach { log($0) } }, logOptions: .verbose))
/// ```
public struct NetworkLoggerPlugin: PluginType {
    /// What to log, how, and where.
    public let configuration: Configuration

    /// Creates a logger; the default configuration prints method and headers, redacted.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Logs the request.
    public func willSend(_ request: any RequestType, target: any TargetType) {
        configuration.output(target, requestLines(request, target: target))
    }

    /// Logs the response or the error.
    public func didReceive(_ result: Result<Response, ProviderError>, target: any TargetType) {
        configuration.output(target, responseLines(result, target: target))
    }

    /// Logs the timings, when `logOptions` has `.timings`.
    public func didMeasure(_ timings: HTTPClientTimings, target: any TargetType) {
        guard configuration.logOptions.contains(.timings) else { return }
        configuration.output(target, [configuration.formatter.entry("Timings", TimingsDescription.line(timings), target)])
    }

    /// The lines logged for `request`.
    public func requestLines(_ request: any RequestType, target: any TargetType) -> [String] {
        let formatter = configuration.formatter
        let options = configuration.logOptions
        let redactor = configuration.redactor
        if options.contains(.formatRequestAscURL) {
            let command = request.request.map { curl($0, sessionHeaders: request.sessionHeaders) }
            return [formatter.entry("Request", command ?? "$ curl command could not be created", target)]
        }
        guard let urlRequest = request.request else {
            return [formatter.entry("Request", "(invalid request)", target)]
        }
        var lines = [formatter.entry("Request", redactor.url(urlRequest.url?.absoluteString ?? "url: nil"), target)]
        if options.contains(.requestHeaders) {
            let headers = redactor.headers(allHeaders(urlRequest, sessionHeaders: request.sessionHeaders))
            lines.append(formatter.entry("Request Headers", Self.dictionaryDescription(headers), target))
        }
        if options.contains(.requestBody) {
            if let stream = urlRequest.httpBodyStream {
                lines.append(formatter.entry("Request Body Stream", stream.description, target))
            }
            if let body = urlRequest.httpBody {
                let text = formatter.requestData(redactor.body(body, contentType: urlRequest.value(forHTTPHeaderField: "Content-Type")))
                lines.append(formatter.entry("Request Body", text, target))
            }
        }
        if options.contains(.requestMethod), let method = urlRequest.httpMethod {
            lines.append(formatter.entry("HTTP Request Method", method, target))
        }
        return lines
    }

    /// The lines logged for `result`.
    public func responseLines(_ result: Result<Response, ProviderError>, target: any TargetType) -> [String] {
        switch result {
        case .success(let response):
            return lines(for: response, isError: false, target: target)
        case .failure(let error):
            if let response = error.response {
                return lines(for: response, isError: true, target: target)
            }
            let text = configuration.redactor.text("Error calling \(target) : \(error)")
            return [configuration.formatter.entry("Error", text, target)]
        }
    }

    private func lines(for response: Response, isError: Bool, target: any TargetType) -> [String] {
        let formatter = configuration.formatter
        let options = configuration.logOptions
        let redactor = configuration.redactor
        var lines: [String] = []
        if let http = response.response {
            lines.append(formatter.entry("Response", description(of: http), target))
            if options.contains(.responseHeaders) {
                lines.append(formatter.entry("Response Headers", Self.dictionaryDescription(redactor.headers(Self.fields(of: http))), target))
            }
        } else {
            // The target's description may hold secrets (its headers), masked as in the error line.
            lines.append(formatter.entry("Response", redactor.text("Received empty network response for \(target)."), target))
        }
        // As Moya: `.successResponseBody` logs the body of every response, `.errorResponseBody` of failures only.
        if (isError && options.contains(.errorResponseBody)) || options.contains(.successResponseBody) {
            let text = formatter.responseData(redactor.body(response.data, contentType: response.headerValue("Content-Type")))
            lines.append(formatter.entry("Response Body", text, target))
        }
        return lines
    }

    /// The response's line in Apple's `HTTPURLResponse.description` layout on every platform
    /// (`ResponseDescription`), with hidden header values and query items masked.
    private func description(of http: HTTPURLResponse) -> String {
        let redactor = configuration.redactor
        return ResponseDescription.text(url: http.url.map { redactor.url($0.absoluteString) }, statusCode: http.statusCode,
                                        headers: redactor.headers(Self.fields(of: http)))
    }

    private static func fields(of http: HTTPURLResponse) -> [String: String] {
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            fields[String(describing: key)] = String(describing: value)
        }
        return fields
    }

    /// `[String: String]`'s description (`["Name": "value"]`, `[:]` when empty), in the given order.
    static func dictionaryDescription(_ pairs: [(name: String, value: String)]) -> String {
        guard !pairs.isEmpty else { return "[:]" }
        return "[" + pairs.map { "\($0.name.debugDescription): \($0.value.debugDescription)" }.joined(separator: ", ") + "]"
    }

    private func allHeaders(_ request: URLRequest, sessionHeaders: [String: String]) -> [String: String] {
        CURLCommand.headers(request, sessionHeaders: sessionHeaders)
    }

    /// The request as Alamofire's `cURLDescription()` writes it (`CURLCommand`), redacted.
    public func curl(_ request: URLRequest, sessionHeaders: [String: String] = [:]) -> String {
        CURLCommand.text(request, sessionHeaders: sessionHeaders, redactor: configuration.redactor)
    }
}
