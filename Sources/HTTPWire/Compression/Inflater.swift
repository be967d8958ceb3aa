/// A DEFLATE decoder (RFC 1951) for the `gzip` (RFC 1952) and `deflate` (zlib, RFC 1950)
/// content codings, with a hard limit on the output so that a small compressed body cannot
/// expand into gigabytes (a decompression bomb). `InflateStream` decodes a body as it arrives.
///
/// ```swift
/// let body = try Inflater.decode(compressed, coding: .gzip, limit: 50 << 20)
/// ```
public enum Inflater {
    /// A content coding the inflater reads.
    public enum Coding: Sendable, Equatable {
        /// gzip members (header, DEFLATE data, CRC-32 and size checked); several in a row are joined.
        case gzip
        /// `deflate` as RFC 9110 defines it (zlib: header, DEFLATE data, Adler-32 checked); raw
        /// DEFLATE data without the zlib header, which some servers send, is accepted too.
        case deflate

        /// The coding named by a `Content-Encoding` value (`gzip`, `x-gzip`, `deflate`), nil for others.
        public init?(name: String) {
            switch name.lowercased() {
            case "gzip", "x-gzip": self = .gzip
            case "deflate": self = .deflate
            default: return nil
            }
        }
    }

    /// Decodes `input` in `coding`. Throws `HTTPWireError.bodyTooLarge(limit:)` as soon as the
    /// output would pass `limit` bytes, and `invalidContentCoding(offset:)` for malformed data.
    /// The decoder is `InflateStream`'s, given the whole input at once.
    public static func decode(_ input: [UInt8], coding: Coding, limit: Int) throws(HTTPWireError) -> [UInt8] {
        var stream = InflateStream(coding: coding, limit: limit)
        stream.feed(input)
        stream.finishInput()
        var output = try stream.next(maximum: Int.max)
        while !stream.isFinished {
            let more = try stream.next(maximum: Int.max)
            guard !more.isEmpty else { break }
            output += more
        }
        return output
    }
}
