/// Builds `Transfer-Encoding: chunked` framing.
public enum ChunkedEncoder {
    /// One chunk holding `data`, with an optional extension such as `name=value` (empty data gives no bytes,
    /// since an empty chunk would end the body).
    public static func chunk<Bytes: Collection<UInt8>>(_ data: Bytes, extension chunkExtension: String? = nil) -> [UInt8] {
        guard !data.isEmpty else { return [] }
        var bytes = Array(String(data.count, radix: 16).utf8)
        if let chunkExtension { bytes.append(contentsOf: ";\(chunkExtension)".utf8) }
        bytes.append(contentsOf: "\r\n".utf8)
        bytes.append(contentsOf: data)
        bytes.append(contentsOf: "\r\n".utf8)
        return bytes
    }

    /// The last chunk followed by optional trailer fields and the final empty line.
    public static func end(trailers: HTTPHeaders = HTTPHeaders()) -> [UInt8] {
        var bytes = Array("0\r\n".utf8)
        trailers.serialize(into: &bytes)
        bytes.append(contentsOf: "\r\n".utf8)
        return bytes
    }

    /// A whole body encoded as chunks of at most `chunkSize` bytes, then the last chunk and trailers.
    public static func encode(_ body: [UInt8], chunkSize: Int = 8_192, trailers: HTTPHeaders = HTTPHeaders()) -> [UInt8] {
        var bytes: [UInt8] = []
        var start = 0
        let size = max(1, chunkSize)
        while start < body.count {
            let end = min(start + size, body.count)
            bytes.append(contentsOf: chunk(body[start..<end]))
            start = end
        }
        bytes.append(contentsOf: end(trailers: trailers))
        return bytes
    }
}
