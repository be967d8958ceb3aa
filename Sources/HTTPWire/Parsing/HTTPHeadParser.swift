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
        guard let lines = try nextHeadLines() else { return nil }
        let head = try Self.parseRequest(lines)
        return head
    }

    /// Parses a response head if a complete one is buffered.
    public mutating func nextResponseHead() throws(HTTPWireError) -> HTTPResponseHead? {
        guard let lines = try nextHeadLines() else { return nil }
        return try Self.parseResponse(lines)
    }

    private mutating func reset(keeping rest: [UInt8]) {
        buffered = rest
        scanned = 0
        lineStart = 0
        headStart = 0
    }

    /// The head's lines as (bytes without CR/LF, offset in the head); nil when incomplete.
    private mutating func nextHeadLines() throws(HTTPWireError) -> [(ArraySlice<UInt8>, Int)]? {
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
                return extractHead(end: scanned)
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

    private mutating func extractHead(end: Int) -> [(ArraySlice<UInt8>, Int)] {
        let head = Array(buffered[headStart..<end])
        reset(keeping: Array(buffered[end...]))
        var lines: [(ArraySlice<UInt8>, Int)] = []
        // One buffer for a typical head instead of one per doubling (a request's allocations).
        lines.reserveCapacity(16)
        var start = 0
        for index in head.indices where head[index] == ASCII.lf {
            var lineEnd = index
            if lineEnd > start, head[lineEnd - 1] == ASCII.cr { lineEnd -= 1 }
            if lineEnd > start { lines.append((head[start..<lineEnd], start)) }
            start = index + 1
        }
        return lines
    }

    private static func parseRequest(_ lines: [(ArraySlice<UInt8>, Int)]) throws(HTTPWireError) -> HTTPRequestHead {
        guard let (line, _) = lines.first else { throw .malformedStartLine(offset: 0) }
        let parts = line.split(separator: ASCII.space, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformedStartLine(offset: line.count) }
        let method = parts[0], target = parts[1], version = parts[2]
        if let bad = method.firstIndex(where: { !ASCII.isTokenCharacter($0) }) { throw .malformedStartLine(offset: bad) }
        if method.isEmpty { throw .malformedStartLine(offset: 0) }
        if target.isEmpty { throw .malformedStartLine(offset: target.startIndex) }
        if let bad = target.firstIndex(where: { !ASCII.isTargetCharacter($0) }) { throw .malformedStartLine(offset: bad) }
        guard let parsedVersion = HTTPVersion.parse(version) else {
            if version.starts(with: "HTTP/".utf8) { throw .unsupportedVersion(offset: version.startIndex) }
            throw .malformedStartLine(offset: version.startIndex)
        }
        return HTTPRequestHead(
            method: String(decoding: method, as: UTF8.self),
            target: String(decoding: target, as: UTF8.self),
            version: parsedVersion,
            headers: try parseFields(lines.dropFirst())
        )
    }

    private static func parseResponse(_ lines: [(ArraySlice<UInt8>, Int)]) throws(HTTPWireError) -> HTTPResponseHead {
        guard let (line, _) = lines.first else { throw .malformedStartLine(offset: 0) }
        let parts = line.split(separator: ASCII.space, maxSplits: 2, omittingEmptySubsequences: false)
        guard let version = HTTPVersion.parse(parts[0]) else {
            if parts[0].starts(with: "HTTP/".utf8) { throw .unsupportedVersion(offset: 0) }
            throw .malformedStartLine(offset: 0)
        }
        guard parts.count >= 2 else { throw .malformedStartLine(offset: line.count) }
        let code = parts[1]
        guard code.count == 3, code.allSatisfy(ASCII.isDigit) else { throw .malformedStartLine(offset: code.startIndex) }
        let status = code.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard status >= 100 else { throw .malformedStartLine(offset: code.startIndex) }
        var reason = ""
        if parts.count == 3 {
            let phrase = parts[2]
            if let bad = phrase.firstIndex(where: { !ASCII.isFieldValueCharacter($0) }) { throw .malformedStartLine(offset: bad) }
            reason = String(decoding: phrase, as: UTF8.self)
        }
        var head = HTTPResponseHead(status: status, version: version, headers: try parseFields(lines.dropFirst()))
        head.reason = reason
        return head
    }

    static func parseFields(_ lines: ArraySlice<(ArraySlice<UInt8>, Int)>) throws(HTTPWireError) -> HTTPHeaders {
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(lines.count)
        for (line, offset) in lines {
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
