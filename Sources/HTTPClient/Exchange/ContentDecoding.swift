import Foundation
import HTTPWire

/// Undoes `Content-Encoding: gzip` / `deflate` on a response body, as URLSession does: the body
/// handed to the caller is decoded, and the response keeps the headers as received, so its
/// `Content-Encoding` names the coding that was removed (and `Content-Length` is the size on
/// the wire). Other codings (and `identity`) are left alone.
enum ContentDecoding {
    /// `body` decoded per the `Content-Encoding` of `headers` (codings undone last-applied first);
    /// `.responseTooLarge` when the decoded size passes `limit`, `.badResponse` when malformed.
    static func decode(_ body: [UInt8], headers: HTTPHeaders, limit: Int) -> Result<[UInt8], HTTPClientError> {
        let codings = headers.values(for: "Content-Encoding")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && $0.lowercased() != "identity" }
        guard !codings.isEmpty, !body.isEmpty else { return .success(body) }
        let known = codings.compactMap(Inflater.Coding.init(name:))
        guard known.count == codings.count else { return .success(body) }
        var current = body
        for coding in known.reversed() {
            do throws(HTTPWireError) {
                current = try Inflater.decode(current, coding: coding, limit: limit)
            } catch {
                if case .bodyTooLarge(let limit) = error { return .failure(.responseTooLarge(limit: limit)) }
                if case .invalidContentCoding = error { return .failure(.badResponse(error)) }
                return .failure(.badResponse(.invalidContentCoding(offset: current.count)))
            }
        }
        return .success(current)
    }
}
