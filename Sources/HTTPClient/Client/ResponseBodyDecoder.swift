import HTTPWire

/// Undoes a streamed response's `Content-Encoding` (`gzip`, `deflate`, last-applied first) as its
/// body arrives, a bounded step at a time, within the request's decompression limit: its ratio
/// is to the compressed bytes received so far, as AsyncHTTPClient counts it.
struct ResponseBodyDecoder {
    /// The most decoded bytes one step hands out.
    static let step = 64 * 1024

    /// One inflater a coding, the first undoing the coding applied last.
    private var stages: [InflateStream]
    private let limit: HTTPClientRequest.Decompression.Limit
    /// Compressed bytes received.
    private var compressed = 0

    /// A decoder for a body with `headers` under `policy` (nil: enabled, unlimited); nil when
    /// the body is handed over as received (decoding disabled, no coding, or one it cannot undo).
    init?(headers: HTTPHeaders, policy: HTTPClientRequest.Decompression?) {
        switch policy {
        case .disabled: return nil
        case .enabled(let limit): self.limit = limit
        case nil: self.limit = .none
        }
        guard let codings = ContentDecoding.codings(headers) else { return nil }
        stages = codings.reversed().map { InflateStream(coding: $0, limit: .max) }
    }

    /// Whether the input ended (`finishInput()`).
    var inputEnded: Bool { stages[0].inputEnded }

    /// More of the body as received.
    mutating func feed(_ bytes: [UInt8]) {
        compressed += bytes.count
        stages[0].feed(bytes)
        let bound = limit.bytes(forCompressed: compressed) ?? .max
        for index in stages.indices { stages[index].limit = bound }
    }

    /// The body ended.
    mutating func finishInput() {
        stages[0].finishInput()
    }

    /// The next decoded bytes, nil when it needs more input or the body ended; throws
    /// `.decompressionLimitExceeded` past the limit, `.badResponse` for malformed or cut data.
    mutating func next() throws(HTTPClientError) -> [UInt8]? {
        // An empty body (a HEAD's, a 304's) is not a cut one.
        if compressed == 0, inputEnded { return nil }
        do throws(HTTPWireError) {
            let chunk = try pull(stages.count - 1)
            return chunk.isEmpty ? nil : chunk
        } catch {
            switch error {
            case .bodyTooLarge(let bound): throw .decompressionLimitExceeded(limit: bound, compressedBytes: compressed)
            case .invalidContentCoding: throw .badResponse(error)
            default: throw .badResponse(.invalidContentCoding(offset: compressed))
            }
        }
    }

    /// The next bytes out of stage `index`, feeding it from the stage before as it needs.
    private mutating func pull(_ index: Int) throws(HTTPWireError) -> [UInt8] {
        while true {
            let chunk = try stages[index].next(maximum: Self.step)
            if !chunk.isEmpty || stages[index].isFinished || index == 0 { return chunk }
            let upstream = try pull(index - 1)
            if !upstream.isEmpty {
                stages[index].feed(upstream)
            } else if stages[index - 1].isFinished, !stages[index].inputEnded {
                stages[index].finishInput()
            } else {
                return []
            }
        }
    }
}
