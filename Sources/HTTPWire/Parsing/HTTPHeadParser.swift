/// An incremental parser for message heads: feed bytes as they arrive and ask for a request
/// or response head; it answers nil until the empty line that ends the head has arrived.
///
/// Bytes after the head stay buffered (`buffered`) for the body decoder or the next message.
public struct HTTPHeadParser: Sendable {
    /// The largest head accepted, in bytes, terminating empty line included.
    public let maxHeaderBytes: Int
    /// Whether every line of the head must end in CRLF: a bare LF is then malformed (RFC 9112
    /// section 2.2 lets a recipient accept it, but a server that does can be fooled into reading
    /// a second, smuggled request that a stricter proxy in front of it never saw).
    public let requiresCRLF: Bool
    /// Bytes received and not yet consumed by a parsed head.
    public private(set) var buffered: [UInt8] = []
    private var scanned = 0
    private var lineStart = 0
    private var headStart = 0

    /// Creates a parser that rejects heads longer than `maxHeaderBytes` and, when `requiresCRLF`,
    /// any line ended by a bare LF.
    public init(maxHeaderBytes: Int = 16_384, requiresCRLF: Bool = false) {
        self.maxHeaderBytes = maxHeaderBytes
        self.requiresCRLF = requiresCRLF
    }

    /// Appends received bytes.
    public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        buffered.append(contentsOf: bytes)
    }

    /// Removes and returns the buffered bytes (those after the last parsed head).
    public mutating func takeBuffered() -> [UInt8] {
        defer { reset(keeping: []) }
        return buffered
    }

    /// Whether nothing is buffered.
    public var isEmpty: Bool { buffered.isEmpty }

    /// Parses a request head if a complete one is buffered; leading empty lines are skipped.
    public mutating func nextRequestHead() throws(HTTPWireError) -> HTTPRequestHead? {
        guard let head = try nextHead() else { return nil }
        // Parsed from a slice of the buffer, released before the buffer drops the head in place.
        defer { consume(through: head.upperBound) }
        return try Self.parseRequest(HeadLines(buffered[head]))
    }

    /// Parses a response head if a complete one is buffered.
    public mutating func nextResponseHead() throws(HTTPWireError) -> HTTPResponseHead? {
        guard let head = try nextHead() else { return nil }
        defer { consume(through: head.upperBound) }
        return try Self.parseResponse(HeadLines(buffered[head]))
    }

    private mutating func reset(keeping rest: [UInt8]) {
        buffered = rest
        scanned = 0
        lineStart = 0
        headStart = 0
    }

    /// Drops the bytes of a parsed head (those before `end`), in place: the rest stays in the
    /// same buffer, which is never copied for the head or what follows it.
    private mutating func consume(through end: Int) {
        buffered.removeSubrange(..<end)
        scanned = 0
        lineStart = 0
        headStart = 0
    }

    /// Where the next complete head lies in `buffered` (start line to the empty line that ends
    /// it, without leading empty lines); nil when incomplete.
    private mutating func nextHead() throws(HTTPWireError) -> Range<Int>? {
        while scanned < buffered.count {
            let byte = buffered[scanned]
            scanned += 1
            if scanned - headStart > maxHeaderBytes { throw .headersTooLarge(limit: maxHeaderBytes) }
            guard byte == ASCII.lf else { continue }
            var lineEnd = scanned - 1
            if lineEnd > lineStart, buffered[lineEnd - 1] == ASCII.cr {
                lineEnd -= 1
            } else if requiresCRLF {
                let offset = lineEnd - headStart
                throw lineStart == headStart ? .malformedStartLine(offset: offset) : .malformedHeader(offset: offset)
            }
            if lineEnd == lineStart {
                if lineStart == headStart {
                    // RFC 9112 section 2.2: ignore empty lines before the start line.
                    headStart = scanned
                    lineStart = scanned
                    continue
                }
                return headStart..<scanned
            }
            lineStart = scanned
        }
        if headStart > 0 {
            buffered.removeFirst(headStart)
            scanned -= headStart
            lineStart -= headStart
            headStart = 0
        }
        return nil
    }

    /// The non-empty lines of a head, without CR/LF, each with its offset in the head: read in
    /// place, with no array of lines made.
    struct HeadLines: Sequence, IteratorProtocol {
        private let head: ArraySlice<UInt8>
        private var start: Int
        /// The number of lines left at most (line feeds not yet passed): a capacity for the fields.
        private(set) var remaining: Int

        init(_ head: ArraySlice<UInt8>) {
            self.head = head
            self.start = head.startIndex
            self.remaining = head.reduce(0) { $0 + ($1 == ASCII.lf ? 1 : 0) }
        }

        mutating func next() -> (ArraySlice<UInt8>, Int)? {
            while let end = head[start...].firstIndex(of: ASCII.lf) {
                remaining -= 1
                var lineEnd = end
                if lineEnd > start, head[lineEnd - 1] == ASCII.cr { lineEnd -= 1 }
                let line = head[start..<lineEnd]
                let offset = start - head.startIndex
                start = end + 1
                if !line.isEmpty { return (line, offset) }
            }
            return nil
        }
    }

    /// `line` cut at its first `maxSplits` spaces, as `split(separator: " ", maxSplits:
    /// omittingEmptySubsequences: false)` cuts it, without an array.
    private static func startLineParts(_ line: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>?, ArraySlice<UInt8>?) {
        guard let firstSpace = line.firstIndex(of: ASCII.space) else { return (line, nil, nil) }
        let rest = line[(firstSpace + 1)...]
        guard let secondSpace = rest.firstIndex(of: ASCII.space) else { return (line[..<firstSpace], rest, nil) }
        return (line[..<firstSpace], rest[..<secondSpace], rest[(secondSpace + 1)...])
    }

    private static func parseRequest(_ lines: HeadLines) throws(HTTPWireError) -> HTTPRequestHead {
        var lines = lines
        guard let (line, _) = lines.next() else { throw .malformedStartLine(offset: 0) }
        let base = line.startIndex
        guard case (let method, let target?, let version?) = startLineParts(line) else { throw .malformedStartLine(offset: line.count) }
        if let bad = method.firstIndex(where: { !ASCII.isTokenCharacter($0) }) { throw .malformedStartLine(offset: bad - base) }
        if method.isEmpty { throw .malformedStartLine(offset: 0) }
        if target.isEmpty { throw .malformedStartLine(offset: target.startIndex - base) }
        if let bad = target.firstIndex(where: { !ASCII.isTargetCharacter($0) }) { throw .malformedStartLine(offset: bad - base) }
        guard let parsedVersion = HTTPVersion.parse(version) else {
            if version.starts(with: "HTTP/".utf8) { throw .unsupportedVersion(offset: version.startIndex - base) }
            throw .malformedStartLine(offset: version.startIndex - base)
        }
        return HTTPRequestHead(
            method: String(decoding: method, as: UTF8.self),
            target: String(decoding: target, as: UTF8.self),
            version: parsedVersion,
            headers: try parseFields(lines)
        )
    }

    private static func parseResponse(_ lines: HeadLines) throws(HTTPWireError) -> HTTPResponseHead {
        var lines = lines
        guard let (line, _) = lines.next() else { throw .malformedStartLine(offset: 0) }
        let base = line.startIndex
        let (versionPart, codePart, phrase) = startLineParts(line)
        guard let version = HTTPVersion.parse(versionPart) else {
            if versionPart.starts(with: "HTTP/".utf8) { throw .unsupportedVersion(offset: 0) }
            throw .malformedStartLine(offset: 0)
        }
        guard let code = codePart else { throw .malformedStartLine(offset: line.count) }
        guard code.count == 3, code.allSatisfy(ASCII.isDigit) else { throw .malformedStartLine(offset: code.startIndex - base) }
        let status = code.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard status >= 100 else { throw .malformedStartLine(offset: code.startIndex - base) }
        var reason = ""
        if let phrase {
            if let bad = phrase.firstIndex(where: { !ASCII.isFieldValueCharacter($0) }) { throw .malformedStartLine(offset: bad - base) }
            reason = String(decoding: phrase, as: UTF8.self)
        }
        var head = HTTPResponseHead(status: status, version: version, headers: try parseFields(lines))
        head.reason = reason
        return head
    }

    /// The header fields of the lines left in `lines`, in one buffer of their size.
    static func parseFields(_ lines: HeadLines) throws(HTTPWireError) -> HTTPHeaders {
        var lines = lines
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(lines.remaining)
        while let (line, offset) = lines.next() {
            fields.append(try parseField(line, offset: offset))
        }
        return HTTPHeaders(fields)
    }

    /// Parses `name: value`; obsolete line folding and whitespace before the colon are rejected.
    static func parseField(_ line: ArraySlice<UInt8>, offset: Int) throws(HTTPWireError) -> HTTPHeaders.Field {
        if let first = line.first, ASCII.isWhitespace(first) { throw .malformedHeader(offset: offset) }
        guard let colon = line.firstIndex(of: ASCII.colon) else { throw .malformedHeader(offset: offset + line.count) }
        let name = line[line.startIndex..<colon]
        if name.isEmpty { throw .malformedHeader(offset: offset) }
        if let bad = name.firstIndex(where: { !ASCII.isTokenCharacter($0) }) {
            throw .malformedHeader(offset: offset + bad - line.startIndex)
        }
        var value = line[(colon + 1)...]
        if let bad = value.firstIndex(where: { !ASCII.isFieldValueCharacter($0) }) {
            throw .malformedHeader(offset: offset + bad - line.startIndex)
        }
        while let first = value.first, ASCII.isWhitespace(first) { value = value.dropFirst() }
        while let last = value.last, ASCII.isWhitespace(last) { value = value.dropLast() }
        return HTTPHeaders.Field(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }
}

extension HTTPHeaders {
    mutating func add(_ field: Field) {
        add(name: field.name, value: field.value)
    }
}
