import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Logs requests (on `willSend`) and responses (on `didReceive`) through an output closure,
/// hiding the values of sensitive headers, query items and JSON/form body keys.
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

    /// The lines logged for `request`.
    public func requestLines(_ request: any RequestType, target: any TargetType) -> [String] {
        let formatter = configuration.formatter
        let options = configuration.logOptions
        let redactor = configuration.redactor
        guard let urlRequest = request.request else {
            return [formatter.entry("Request", "(invalid request)", target)]
        }
        if options.contains(.formatRequestAscURL) {
            return [formatter.entry("Request", curl(urlRequest, sessionHeaders: request.sessionHeaders), target)]
        }
        var lines = [formatter.entry("Request", redactor.url(urlRequest.url?.absoluteString ?? "(invalid request)"), target)]
        if options.contains(.requestHeaders) {
            let headers = redactor.headers(allHeaders(urlRequest, sessionHeaders: request.sessionHeaders))
            let text = "[" + headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
            lines.append(formatter.entry("Request Headers", text, target))
        }
        if options.contains(.requestBody), let body = urlRequest.httpBody {
            let text = formatter.requestData(redactor.body(body, contentType: urlRequest.value(forHTTPHeaderField: "Content-Type")))
            lines.append(formatter.entry("Request Body", text, target))
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
            let url = target.path.isEmpty ? target.baseURL : target.baseURL.appendingPathComponent(target.path)
            let called = "\(target.method.rawValue) \(configuration.redactor.url(url.absoluteString))"
            return [configuration.formatter.entry("Error", "Error calling \(called): \(error.localizedDescription)", target)]
        }
    }

    private func lines(for response: Response, isError: Bool, target: any TargetType) -> [String] {
        let formatter = configuration.formatter
        let options = configuration.logOptions
        let redactor = configuration.redactor
        var summary = "Status Code: \(response.statusCode), Data Length: \(response.data.count)"
        if let url = response.response?.url ?? response.request?.url {
            summary = "\(redactor.url(url.absoluteString)) " + summary
        }
        var lines = [formatter.entry("Response", summary, target)]
        if options.contains(.responseHeaders), let http = response.response {
            var fields: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                fields[String(describing: key)] = String(describing: value)
            }
            let text = "[" + redactor.headers(fields).map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
            lines.append(formatter.entry("Response Headers", text, target))
        }
        let wantsBody = isError ? options.contains(.errorResponseBody) : options.contains(.successResponseBody)
        if wantsBody {
            let text = formatter.responseData(redactor.body(response.data, contentType: response.headerValue("Content-Type")))
            lines.append(formatter.entry("Response Body", text, target))
        }
        return lines
    }

    private func allHeaders(_ request: URLRequest, sessionHeaders: [String: String]) -> [String: String] {
        var headers = sessionHeaders
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            headers[name] = value
        }
        return headers
    }

    /// The request as a `curl` command line, redacted.
    public func curl(_ request: URLRequest, sessionHeaders: [String: String] = [:]) -> String {
        let redactor = configuration.redactor
        var parts = ["curl -v"]
        if let method = request.httpMethod, method != "GET" {
            parts.append("-X \(method)")
        }
        for header in redactor.headers(allHeaders(request, sessionHeaders: sessionHeaders)) {
            parts.append("-H " + Self.shellQuoted("\(header.name): \(header.value)"))
        }
        if let body = request.httpBody, !body.isEmpty {
            parts.append("-d " + Self.shellQuoted(redactor.body(body, contentType: request.value(forHTTPHeaderField: "Content-Type"))))
        }
        parts.append(Self.shellQuoted(redactor.url(request.url?.absoluteString ?? "")))
        return parts.joined(separator: " \\\n\t")
    }

    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
