import HTTPWire

/// The directives of a `Cache-Control` field (RFC 9111 §5.2) that a private cache acts on, from a
/// request or a response. Unknown directives are ignored; a malformed number reads as absent,
/// except `max-age`, which then reads as 0 (stale), as §4.2.1 asks.
///
/// Read byte by byte in place (no string, array or Foundation object made): every request and
/// every answer that could be stored has its fields read.
struct CacheControl: Equatable, Sendable {
    var noStore = false
    var noCache = false
    var isPrivate = false
    var isPublic = false
    var mustRevalidate = false
    var maxAge: Int?
    var sharedMaxAge: Int?
    /// A request's `max-stale`: `Int.max` when given without a value (any staleness).
    var maxStale: Int?
    var minFresh: Int?
    var onlyIfCached = false

    /// Parses `value` (a whole field, repeated fields joined with commas).
    init(_ value: String?) {
        guard let value else { return }
        read(value)
    }

    /// Adds the directives of `value` (one field's value; reading several fields in turn is
    /// reading them joined with commas).
    mutating func read(_ value: String) {
        var value = value
        value.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                if end > start { directive(bytes, start..<end) }
                start = end + 1
            }
        }
    }

    /// One directive, `name` or `name=argument` with whitespace around either and the argument
    /// possibly quoted. An empty side of the `=` is dropped, as splitting that omits empty parts
    /// drops it: `=x` names `x`, `x=` has no argument.
    private mutating func directive(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        let name: Range<Int>
        var argument: Range<Int>?
        if let equals = bytes[range].firstIndex(of: UInt8(ascii: "=")) {
            let left = range.lowerBound..<equals, right = (equals + 1)..<range.upperBound
            switch (left.isEmpty, right.isEmpty) {
            case (true, true): return
            case (true, false): name = right
            case (false, true): name = left
            case (false, false): name = left; argument = right
            }
        } else {
            name = range
        }
        let trimmedName = Self.trimmed(bytes, name, of: Self.isWhitespace)
        let text = argument.map { Self.trimmed(bytes, Self.trimmed(bytes, $0, of: Self.isWhitespace), of: { $0 == UInt8(ascii: "\"") }) }
        let seconds = text.flatMap { Self.integer(bytes, $0) }.map { max(0, $0) }
        switch Self.name(bytes, trimmedName) {
        case .noStore: noStore = true
        case .noCache: noCache = true
        case .isPrivate: isPrivate = true
        case .isPublic: isPublic = true
        case .mustRevalidate: mustRevalidate = true
        case .proxyRevalidate: break
        case .maxAge: maxAge = seconds ?? 0
        case .sharedMaxAge: sharedMaxAge = seconds
        case .maxStale: maxStale = argument == nil ? Int.max : seconds
        case .minFresh: minFresh = seconds
        case .onlyIfCached: onlyIfCached = true
        case nil: break
        }
    }

    private enum Name: CaseIterable {
        case noStore, noCache, isPrivate, isPublic, mustRevalidate, proxyRevalidate, maxAge, sharedMaxAge, maxStale, minFresh, onlyIfCached

        var text: StaticString {
            switch self {
            case .noStore: "no-store"
            case .noCache: "no-cache"
            case .isPrivate: "private"
            case .isPublic: "public"
            case .mustRevalidate: "must-revalidate"
            case .proxyRevalidate: "proxy-revalidate"
            case .maxAge: "max-age"
            case .sharedMaxAge: "s-maxage"
            case .maxStale: "max-stale"
            case .minFresh: "min-fresh"
            case .onlyIfCached: "only-if-cached"
            }
        }
    }

    /// The directive `range` names (ASCII letters compared without case), nil for any other.
    private static func name(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Name? {
        for name in Name.allCases {
            let text = name.text
            guard text.utf8CodeUnitCount == range.count else { continue }
            let known = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
            var index = 0
            while index < known.count, ASCII.lowercased(bytes[range.lowerBound + index]) == known[index] { index += 1 }
            if index == known.count { return name }
        }
        return nil
    }

    /// The decimal integer `range` holds as `Int(String)` reads one: an optional sign, then
    /// only digits; nil when empty, malformed or beyond `Int`.
    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        var negative = false
        if index < range.upperBound, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < range.upperBound else { return nil }
        var value = 0
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdd) = negative ? times.subtractingReportingOverflow(Int(byte - 0x30))
                : times.addingReportingOverflow(Int(byte - 0x30))
            guard !overflowTimes, !overflowAdd else { return nil }
            value = next
            index += 1
        }
        return value
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, of trim: (UInt8) -> Bool) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, trim(bytes[lower]) { lower += 1 }
        while upper > lower, trim(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }
}
