import Foundation
import HTTPWire

/// Undoes `Content-Encoding: gzip` / `deflate` on a response body, as URLSession does: the body
/// handed to the caller is decoded, and the response keeps the headers as received, so its
/// `Content-Encoding` names the coding that was removed (and `Content-Length` is the size on
/// the wire). Other codings (and `identity`) are left alone, and so is a body under more than
/// `maximumStack` codings and every body of a request whose `decompression` is `.disabled`.
enum ContentDecoding {
    /// `body` decoded per the `Content-Encoding` of `headers` (codings undone last-applied first)
    /// as `policy` says (nil: enabled, unlimited but for `limit`); `.responseTooLarge` when the
    /// decoded size passes `limit`, `.decompressionLimitExceeded` when it passes the policy's
    /// limit first, `.badResponse` when malformed.
    static func decode(_ body: [UInt8], headers: HTTPHeaders, limit: Int,
                       policy: HTTPClientRequest.Decompression? = nil) -> Result<[UInt8], HTTPClientError> {
        let ownLimit: HTTPClientRequest.Decompression.Limit
        switch policy {
        case .disabled: return .success(body)
        case .enabled(let given): ownLimit = given
        case nil: ownLimit = .none
        }
        guard !body.isEmpty, let known = codings(headers) else { return .success(body) }
        // The policy's bound is set by the body as received, whatever the codings in between.
        let bound = ownLimit.bytes(forCompressed: body.count)
        let policyFirst = bound.map { $0 < limit } ?? false
        let effective = policyFirst ? bound ?? limit : limit
        var current = body
        for coding in known.reversed() {
            do throws(HTTPWireError) {
                current = try Inflater.decode(current, coding: coding, limit: effective)
            } catch {
                if case .bodyTooLarge(let limit) = error {
                    return .failure(policyFirst ? .decompressionLimitExceeded(limit: limit, compressedBytes: body.count)
                                                : .responseTooLarge(limit: limit))
                }
                if case .invalidContentCoding = error { return .failure(.badResponse(error)) }
                return .failure(.badResponse(.invalidContentCoding(offset: current.count)))
            }
        }
        return .success(current)
    }

    /// The most codings undone on one body, as urllib3 allows (curl four, since CVE-2022-32206):
    /// a head listing thousands gets no inflater each.
    static let maximumStack = 5

    /// The codings `headers`' `Content-Encoding` names, in the order applied; nil when there are
    /// none (or only `identity`), one is not `gzip` or `deflate`, or there are more than
    /// `maximumStack` (the body is left as it is).
    static func codings(_ headers: HTTPHeaders) -> [Inflater.Coding]? {
        var known: [Inflater.Coding] = []
        for value in headers.values(for: "Content-Encoding") {
            for name in value.split(separator: ",") {
                let name = name.trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, name.lowercased() != "identity" else { continue }
                guard known.count < maximumStack, let coding = Inflater.Coding(name: name) else { return nil }
                known.append(coding)
            }
        }
        return known.isEmpty ? nil : known
    }
}
