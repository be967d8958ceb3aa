/// How a message body is delimited on the wire.
public enum HTTPBodyFraming: Sendable, Equatable {
    /// No body.
    case none
    /// Exactly this many bytes.
    case contentLength(Int)
    /// `Transfer-Encoding: chunked`.
    case chunked
    /// Everything until the peer closes (responses only).
    case untilClose

    static func fromTransferEncoding(_ headers: HTTPHeaders) throws(HTTPWireError) -> HTTPBodyFraming? {
        // Most messages have none: found without making an array.
        guard headers.fields.contains(where: { $0.name.caseInsensitiveEquals("Transfer-Encoding") }) else { return nil }
        let values = headers.values(for: "Transfer-Encoding")
        let codings = values.flatMap { $0.split(separator: ",") }.map { String($0).trimmingHTTPWhitespace() }
        // Only a lone `chunked` is supported: other codings (gzip, ...) would need decoding first.
        guard codings.count == 1, codings[0].caseInsensitiveEquals("chunked") else {
            throw .unsupportedTransferEncoding(values.joined(separator: ", "))
        }
        return .chunked
    }

    static func contentLength(_ headers: HTTPHeaders) throws(HTTPWireError) -> Int? {
        // The common case, one field of plain digits, needs no splitting, trimming or array.
        var count = 0
        var only = ""
        for field in headers.fields where field.name.caseInsensitiveEquals("Content-Length") {
            count += 1
            only = field.value
        }
        guard count > 0 else { return nil }
        if count == 1, (1...18).contains(only.utf8.count), only.utf8.allSatisfy(ASCII.isDigit), let value = Int(only) {
            return value
        }
        let fields = headers.values(for: "Content-Length")
        let values = fields.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        var result: Int?
        for raw in values {
            let text = String(raw).trimmingHTTPWhitespace()
            guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy(ASCII.isDigit), let value = Int(text) else {
                throw .invalidContentLength(headers.values(for: "Content-Length").joined(separator: ", "))
            }
            if let result, result != value {
                throw .invalidContentLength(headers.values(for: "Content-Length").joined(separator: ", "))
            }
            result = value
        }
        return result
    }
}
