import Foundation

/// Repairs Flickr's feed bytes into JSON that `JSONDecoder` accepts.
///
/// One pass over the UTF-8 bytes:
/// - every valid JSON escape (`\" \\ \/ \b \f \n \r \t \uXXXX`, surrogate pairs included) is kept
///   byte for byte; only the backslash of an invalid escape is dropped (`\'` becomes `'`);
/// - escapes are interpreted only inside strings; bytes outside strings are copied as they are;
/// - a JSONP wrapper `jsonFlickrFeed( ... )`, with optional whitespace and a trailing `;`, is removed;
/// - the bytes are checked to be well-formed UTF-8.
///
/// A `\u` that is not followed by four hexadecimal digits is an invalid escape like any other:
/// its backslash is dropped and the rest is kept (`"\u\38dd"` becomes `"u38dd"`). Throwing
/// there instead would lose a whole feed over one damaged title, which the contract forbids.
public enum FeedSanitizer {
    /// Returns `data` repaired; valid JSON without a wrapper comes back unchanged (the same bytes).
    public static func sanitize(_ data: Data) throws(FeedSanitizerError) -> Data {
        let outcome: Result<Data?, FeedSanitizerError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return .failure(.empty) }
            return scan(base, count: bytes.count)
        }
        switch outcome {
        case .success(let repaired):
            return repaired ?? data
        case .failure(let error):
            throw error
        }
    }

    /// The repaired bytes, or `nil` when the input is already the answer.
    private static func scan(_ p: UnsafePointer<UInt8>, count: Int) -> Result<Data?, FeedSanitizerError> {
        var start = 0
        while start < count, isWhitespace(p[start]) { start += 1 }
        guard start < count else { return .failure(.empty) }

        var bodyStart = 0
        var bodyEnd = count
        var wrapped = false
        if let afterName = matchWrapperName(p, from: start, count: count) {
            var open = afterName
            while open < count, isWhitespace(p[open]) { open += 1 }
            if open < count, p[open] == Byte.openParen {
                wrapped = true
                bodyStart = open + 1
                var close = count
                while close > bodyStart, isWhitespace(p[close - 1]) { close -= 1 }
                if close > bodyStart, p[close - 1] == Byte.semicolon {
                    close -= 1
                    while close > bodyStart, isWhitespace(p[close - 1]) { close -= 1 }
                }
                guard close > bodyStart, p[close - 1] == Byte.closeParen else {
                    return .failure(.unterminatedWrapper(offset: close))
                }
                bodyEnd = close - 1
                var firstContent = bodyStart
                while firstContent < bodyEnd, isWhitespace(p[firstContent]) { firstContent += 1 }
                guard firstContent < bodyEnd else { return .failure(.empty) }
            }
        }

        var output = RepairBuffer()
        let outcome = repairBody(p, from: bodyStart, to: bodyEnd, into: &output)
        switch outcome {
        case .failure(let error):
            output.release()
            return .failure(error)
        case .success where output.isAllocated:
            return .success(output.finish())
        case .success where wrapped:
            return .success(Data(bytes: p + bodyStart, count: bodyEnd - bodyStart))
        case .success:
            return .success(nil)
        }
    }

    /// Scans `p[bodyStart..<bodyEnd]`; copies into `output` only once an invalid escape shows up.
    private static func repairBody(
        _ p: UnsafePointer<UInt8>, from bodyStart: Int, to bodyEnd: Int, into output: inout RepairBuffer
    ) -> Result<Void, FeedSanitizerError> {
        var segmentStart = bodyStart
        var inString = false
        var stringStart = 0
        var i = bodyStart
        while i < bodyEnd {
            let byte = p[i]
            if byte >= 0x80 {
                let length = utf8SequenceLength(p, at: i, end: bodyEnd)
                guard length > 0 else { return .failure(.invalidUTF8(offset: i)) }
                i += length
            } else if !inString {
                if byte == Byte.quote {
                    inString = true
                    stringStart = i
                }
                i += 1
            } else if byte == Byte.quote {
                inString = false
                i += 1
            } else if byte == Byte.backslash {
                guard i + 1 < bodyEnd else { return .failure(.trailingBackslash(offset: i)) }
                switch p[i + 1] {
                case Byte.quote, Byte.backslash, Byte.slash,
                    Byte.b, Byte.f, Byte.n, Byte.r, Byte.t:
                    i += 2
                case Byte.u where i + 5 < bodyEnd
                    && isHexDigit(p[i + 2]) && isHexDigit(p[i + 3])
                    && isHexDigit(p[i + 4]) && isHexDigit(p[i + 5]):
                    i += 6
                default:
                    output.append(p + segmentStart, count: i - segmentStart, capacity: bodyEnd - bodyStart)
                    segmentStart = i + 1
                    i += 1
                }
            } else {
                i += 1
            }
        }
        if inString { return .failure(.unterminatedString(offset: stringStart)) }
        if output.isAllocated {
            output.append(p + segmentStart, count: bodyEnd - segmentStart, capacity: bodyEnd - bodyStart)
        }
        return .success(())
    }

    /// The offset just after `jsonFlickrFeed` when the bytes at `from` spell it.
    private static func matchWrapperName(_ p: UnsafePointer<UInt8>, from: Int, count: Int) -> Int? {
        let name = Byte.wrapperName
        guard count - from >= name.count else { return nil }
        for (index, expected) in name.enumerated() where p[from + index] != expected {
            return nil
        }
        return from + name.count
    }

    /// The length of the well-formed UTF-8 sequence that starts at `i`, or 0 if it is malformed.
    private static func utf8SequenceLength(_ p: UnsafePointer<UInt8>, at i: Int, end: Int) -> Int {
        let lead = p[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF:
            length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF:
            length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3:
            length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default:
            return 0
        }
        guard end - i >= length else { return 0 }
        let second = p[i + 1]
        guard second >= low, second <= high else { return 0 }
        var k = 2
        while k < length {
            guard p[i + k] & 0xC0 == 0x80 else { return 0 }
            k += 1
        }
        return length
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x46, 0x61...0x66: return true
        default: return false
        }
    }

    private enum Byte {
        static let quote = UInt8(ascii: "\"")
        static let backslash = UInt8(ascii: "\\")
        static let slash = UInt8(ascii: "/")
        static let b = UInt8(ascii: "b")
        static let f = UInt8(ascii: "f")
        static let n = UInt8(ascii: "n")
        static let r = UInt8(ascii: "r")
        static let t = UInt8(ascii: "t")
        static let u = UInt8(ascii: "u")
        static let openParen = UInt8(ascii: "(")
        static let closeParen = UInt8(ascii: ")")
        static let semicolon = UInt8(ascii: ";")
        static let wrapperName: [UInt8] = Array("jsonFlickrFeed".utf8)
    }
}
