import Foundation

/// Builds a `multipart/form-data` body (RFC 7578) from parts.
///
/// Layout per part: `--boundary CRLF`, `Content-Disposition: form-data; name="n"[; filename="f"] CRLF`,
/// optional `Content-Type: t CRLF`, `CRLF`, bytes, `CRLF`; then `--boundary-- CRLF`.
/// A `.file` part without a `fileName` announces the file's last path component.
public struct MultipartFormData: Sendable {
    /// The parts, in order.
    public let parts: [MultipartFormBodyPart]
    /// The boundary between parts.
    public let boundary: String

    /// Creates a builder; the default boundary is random.
    public init(parts: [MultipartFormBodyPart], boundary: String = MultipartFormData.randomBoundary()) {
        self.parts = parts
        self.boundary = boundary
    }

    /// The value for the request's `Content-Type` header.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// A fresh random boundary.
    public static func randomBoundary() -> String {
        let hex = (0..<16).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
        return "networking.boundary.\(hex)"
    }

    /// The encoded body; reading a `.file` part may throw.
    public func encode() throws -> Data {
        let crlf = "\r\n"
        var body = Data()
        for part in parts {
            let bytes: Data
            var fileName = part.fileName
            switch part.provider {
            case .data(let data):
                bytes = data
            case .file(let url):
                bytes = try Data(contentsOf: url)
                if fileName == nil { fileName = url.lastPathComponent }
            }
            var head = "--\(boundary)\(crlf)"
            head += "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let fileName { head += "; filename=\"\(Self.quoted(fileName))\"" }
            head += crlf
            if let mimeType = part.mimeType { head += "Content-Type: \(mimeType)\(crlf)" }
            head += crlf
            body.append(Data(head.utf8))
            body.append(bytes)
            body.append(Data(crlf.utf8))
        }
        body.append(Data("--\(boundary)--\(crlf)".utf8))
        return body
    }

    private static func quoted(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
