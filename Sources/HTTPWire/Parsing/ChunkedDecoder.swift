/// An incremental decoder for `Transfer-Encoding: chunked` bodies (RFC 9112 section 7.1).
///
/// Chunk extensions are skipped; trailer fields are collected into `trailers`. Bare LF line
/// endings are tolerated.
public struct ChunkedDecoder: Sendable {
    private enum State: Sendable {
        case size(value: Int, digits: Int)
        case sizeWhitespace
        case chunkExtension
        case sizeLineFeed
        case data(remaining: Int)
        case dataCarriageReturn
        case dataLineFeed
        case trailerLine
        case done
    }

    /// The largest chunk-size line (extensions included) and the largest trailer section, in bytes.
    public let maxLineBytes: Int
    /// The largest decoded body, in bytes.
    public let maxBodyBytes: Int
    /// Trailer fields received after the last chunk.
    public private(set) var trailers = HTTPHeaders()
    /// Decoded body bytes so far.
    public private(set) var decodedCount = 0
    /// Framing bytes and data consumed so far.
    public private(set) var consumedCount = 0

    private var state: State = .size(value: 0, digits: 0)
    private var lineBytes = 0
    private var trailerLine: [UInt8] = []
    private var trailerBytes = 0

    /// Creates a decoder with limits on line length and total body size.
    public init(maxLineBytes: Int = 16_384, maxBodyBytes: Int = Int.max) {
        self.maxLineBytes = maxLineBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// Whether the last chunk and the trailer section have been read.
    public var isComplete: Bool {
        if case .done = state { true } else { false }
    }

    /// Decodes `input`, appending body bytes to `body`; returns how many input bytes were used
    /// (fewer than `input.count` only once the body is complete).
    @discardableResult
    public mutating func decode(_ input: ArraySlice<UInt8>, into body: inout [UInt8]) throws(HTTPWireError) -> Int {
        var index = input.startIndex
        while index < input.endIndex {
            let offset = consumedCount
            switch state {
            case .done:
                return index - input.startIndex
            case .data(let remaining):
                let take = min(remaining, input.endIndex - index)
                body.append(contentsOf: input[index..<(index + take)])
                index += take
                consumedCount += take
                decodedCount += take
                state = remaining == take ? .dataCarriageReturn : .data(remaining: remaining - take)
                continue
            default:
                break
            }
            let byte = input[index]
            index += 1
            consumedCount += 1
            try step(byte, offset: offset)
        }
        return index - input.startIndex
    }

    private mutating func step(_ byte: UInt8, offset: Int) throws(HTTPWireError) {
        switch state {
        case .size(let value, let digits):
            lineBytes += 1
            if lineBytes > maxLineBytes { throw .malformedChunk(offset: offset) }
            if let digit = ASCII.hexValue(byte) {
                // At most 15 significant hex digits (under 2^60, far from overflow); leading
                // zeros, however many, leave the value as it is (RFC 9112 §7.1: `1*HEXDIG`).
                guard value < Self.largestSizeBeforeDigit else { throw .malformedChunk(offset: offset) }
                state = .size(value: value * 16 + digit, digits: digits + 1)
                return
            }
            guard digits > 0 else { throw .malformedChunk(offset: offset) }
            switch byte {
            case ASCII.space, ASCII.tab: state = .sizeWhitespace
            case ASCII.semicolon: state = .chunkExtension
            case ASCII.cr: state = .sizeLineFeed
            case ASCII.lf: try endSizeLine(value, offset: offset)
            default: throw .malformedChunk(offset: offset)
            }
            pendingSize = value
        case .sizeWhitespace:
            lineBytes += 1
            if lineBytes > maxLineBytes { throw .malformedChunk(offset: offset) }
            switch byte {
            case ASCII.space, ASCII.tab: break
            case ASCII.semicolon: state = .chunkExtension
            case ASCII.cr: state = .sizeLineFeed
            case ASCII.lf: try endSizeLine(pendingSize, offset: offset)
            default: throw .malformedChunk(offset: offset)
            }
        case .chunkExtension:
            lineBytes += 1
            if lineBytes > maxLineBytes { throw .malformedChunk(offset: offset) }
            switch byte {
            case ASCII.cr: state = .sizeLineFeed
            case ASCII.lf: try endSizeLine(pendingSize, offset: offset)
            case ASCII.tab: break
            default: if byte < 0x20 || byte == 0x7F { throw .malformedChunk(offset: offset) }
            }
        case .sizeLineFeed:
            guard byte == ASCII.lf else { throw .malformedChunk(offset: offset) }
            try endSizeLine(pendingSize, offset: offset)
        case .dataCarriageReturn:
            switch byte {
            case ASCII.cr: state = .dataLineFeed
            case ASCII.lf: state = .size(value: 0, digits: 0)
            default: throw .malformedChunk(offset: offset)
            }
        case .dataLineFeed:
            guard byte == ASCII.lf else { throw .malformedChunk(offset: offset) }
            state = .size(value: 0, digits: 0)
        case .trailerLine:
            trailerBytes += 1
            if trailerBytes > maxLineBytes { throw .malformedChunk(offset: offset) }
            guard byte == ASCII.lf else {
                trailerLine.append(byte)
                return
            }
            if trailerLine.last == ASCII.cr { trailerLine.removeLast() }
            if trailerLine.isEmpty {
                state = .done
                return
            }
            do {
                trailers.add(try HTTPHeadParser.parseField(trailerLine[...], offset: 0))
            } catch {
                throw .malformedChunk(offset: offset)
            }
            trailerLine.removeAll(keepingCapacity: true)
        case .data, .done:
            break
        }
    }

    private var pendingSize = 0

    /// The bound below which a chunk-size may take another hex digit (16^14): a size keeps at
    /// most 15 significant digits.
    private static var largestSizeBeforeDigit: Int { 1 << 56 }

    private mutating func endSizeLine(_ size: Int, offset: Int) throws(HTTPWireError) {
        lineBytes = 0
        if size == 0 {
            state = .trailerLine
            return
        }
        guard decodedCount <= maxBodyBytes - size else { throw .bodyTooLarge(limit: maxBodyBytes) }
        state = .data(remaining: size)
    }
}
