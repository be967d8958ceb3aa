/// Header fields as a `[String: String]` keyed by names of any case, looked up without case
/// (ASCII, as field names are): what `SocketTransport` builds a request's fields in, so that it
/// never mutates a `URLRequest` (a copy on Linux costs microseconds).
enum HeaderFields {
    /// Whether `lhs` and `rhs` are the same field name (ASCII case-insensitive).
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        if lhs == rhs { return true }
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var right = rhs.utf8.makeIterator()
        for left in lhs.utf8 {
            guard let other = right.next(), lower(left) == lower(other) else { return false }
        }
        return true
    }

    /// The key in `fields` naming `name`, matched without case.
    static func key(_ name: String, in fields: [String: String]) -> String? {
        if fields[name] != nil { return name }
        return fields.keys.first { sameName($0, name) }
    }

    /// The value of `name` in `fields`, matched without case.
    static func value(_ name: String, in fields: [String: String]) -> String? {
        if let value = fields[name] { return value }
        return key(name, in: fields).flatMap { fields[$0] }
    }

    /// Sets `name` to `value`, replacing the field of any case that was there.
    static func set(_ value: String, for name: String, in fields: inout [String: String]) {
        if let existing = key(name, in: fields), existing != name { fields[existing] = nil }
        fields[name] = value
    }

    /// Whether the name `lhs` sorts before `rhs` in the order `HTTPHeaders(_:)` gives a
    /// dictionary's fields (their lower-cased names), without making the lower-cased strings
    /// when both names are ASCII (every valid field name).
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        var left = lhs.utf8.makeIterator(), right = rhs.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let byte?, let other?):
                guard byte < 0x80, other < 0x80 else { return lhs.lowercased() < rhs.lowercased() }
                if lower(byte) != lower(other) { return lower(byte) < lower(other) }
            }
        }
    }

    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }
}
