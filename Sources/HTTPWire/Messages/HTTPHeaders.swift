/// An ordered list of header fields; names compare case-insensitively, order and duplicates are kept.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field as it appears on the wire.
    public struct Field: Sendable, Equatable {
        /// The field name with its original casing.
        public var name: String
        /// The field value without surrounding whitespace.
        public var value: String

        /// A field as given, unchecked; the parsers reject names and values that are not valid.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in wire order.
    public private(set) var fields: [Field]

    /// Creates headers from fields in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    /// Creates headers from `(name, value)` pairs in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// One field per entry of `dictionary`, ordered by name without case (a dictionary has no
    /// order of its own: this one is the same on every run), as `URLRequest.allHTTPHeaderFields`
    /// and `[String: String]` headers map onto a list.
    public init(_ dictionary: [String: String]) {
        // Sorted in place: one buffer (a request's allocations).
        var fields = dictionary.map { Field(name: $0.key, value: $0.value) }
        fields.sort { Self.nameSortsBefore($0.name, $1.name) }
        self.fields = fields
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields in wire order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// The first value for `name` (case-insensitive), or nil. Setting a value replaces every
    /// field named `name` with one (where the first was, else at the end); setting nil removes them.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            guard let newValue else { return remove(name: name) }
            guard let first = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) else {
                return add(name: name, value: newValue)
            }
            fields[first] = Field(name: name, value: newValue)
            var index = fields.index(after: first)
            while index < fields.endIndex {
                if fields[index].name.caseInsensitiveEquals(name) { fields.remove(at: index) } else { index += 1 }
            }
        }
    }

    /// Every value for `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// One value per name, as `HTTPURLResponse` and JSON objects hold them: repeated fields
    /// joined with ", " in wire order, under the name's casing as it first appeared (names that
    /// differ only in case stay apart, as they were received).
    public var joinedByName: [String: String] {
        var joined: [String: String] = [:]
        for field in fields {
            if let existing = joined[field.name] {
                joined[field.name] = existing + ", " + field.value
            } else {
                joined[field.name] = field.value
            }
        }
        return joined
    }

    /// Whether a field named `name` exists.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// Appends a field, keeping existing ones with the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with one field holding `value`.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Whether a comma-separated header `name` lists `token` (case-insensitive), as `Connection: close` does.
    public func containsToken(_ token: String, in name: String) -> Bool {
        // Byte by byte, with no array or string made: it runs for every message (keep-alive).
        fields.contains { field in
            field.name.caseInsensitiveEquals(name) && Self.list(field.value, contains: token)
        }
    }

    /// Whether the comma-separated list `value` has `token` as an element (whitespace around
    /// elements ignored, letters compared without case).
    static func list(_ value: String, contains token: String) -> Bool {
        var value = value
        var token = token
        return value.withUTF8 { list in
            token.withUTF8 { wanted in
                var start = 0
                while start <= list.count {
                    var end = start
                    while end < list.count, list[end] != UInt8(ascii: ",") { end += 1 }
                    var first = start, last = end
                    while first < last, ASCII.isWhitespace(list[first]) { first += 1 }
                    while last > first, ASCII.isWhitespace(list[last - 1]) { last -= 1 }
                    if last - first == wanted.count,
                       (0..<wanted.count).allSatisfy({ ASCII.lowercased(list[first + $0]) == ASCII.lowercased(wanted[$0]) }) {
                        return true
                    }
                    start = end + 1
                }
                return false
            }
        }
    }

    func serialize(into bytes: inout [UInt8]) {
        for field in fields {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
    }
}

extension HTTPHeaders {
    /// Whether the field name `lhs` sorts before `rhs` in the order `init(_ dictionary:)` gives:
    /// their lower-cased forms compared, without making them when both are ASCII (every valid
    /// field name).
    package static func nameSortsBefore(_ lhs: String, _ rhs: String) -> Bool {
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right -> Bool? in
                // Past a byte that is not ASCII, `String`'s order is Unicode's, not the bytes'.
                guard !left.contains(where: { $0 >= 0x80 }), !right.contains(where: { $0 >= 0x80 }) else { return nil }
                for index in 0..<Swift.min(left.count, right.count) {
                    let byte = ASCII.lowercased(left[index]), other = ASCII.lowercased(right[index])
                    if byte != other { return byte < other }
                }
                return left.count < right.count
            }
        }
        if let compared = (compared ?? nil) ?? nil { return compared }
        return lhs.lowercased() < rhs.lowercased()
    }
}

extension String {
    /// Whether the two are equal with ASCII letters compared without case (as field names are),
    /// over the strings' bytes in place.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { left in
            other.utf8.withContiguousStorageIfAvailable { right in
                for index in 0..<left.count where left[index] != right[index] {
                    guard ASCII.lowercased(left[index]) == ASCII.lowercased(right[index]) else { return false }
                }
                return true
            }
        }
        return (compared ?? nil) ?? ASCII.equalIgnoringCase(utf8, other.utf8)
    }

    func trimmingHTTPWhitespace() -> String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        while start < end, ASCII.isWhitespace(bytes[start]) { start += 1 }
        while end > start, ASCII.isWhitespace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
