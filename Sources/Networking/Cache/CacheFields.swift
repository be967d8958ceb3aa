import HTTPWire

/// The fields of a response that RFC 9111's decisions read, taken in one pass over its fields
/// (names compared in place, without case): each value is the field's values joined with ", "
/// in wire order, as a dictionary keyed by lower-cased names holds it. Nothing is made for a
/// name that appears once.
struct CacheFields {
    /// The directives of every `Cache-Control` field.
    var control = CacheControl(nil)
    var hasCacheControl = false
    var date: String?
    var expires: String?
    var lastModified: String?
    var age: String?
    var pragma: String?
    var entityTag: String?
    var vary: String?

    init(_ headers: HTTPHeaders) {
        for field in headers { take(field) }
    }

    /// Notes `field` if it is one of the decisions' (a name of another length costs one compare).
    private mutating func take(_ field: HTTPHeaders.Field) {
        let name = field.name
        switch name.utf8.count {
        case 3:
            if name.isFieldName("Age") { Self.add(field.value, to: &age) }
        case 4:
            if name.isFieldName("Date") {
                Self.add(field.value, to: &date)
            } else if name.isFieldName("ETag") {
                Self.add(field.value, to: &entityTag)
            } else if name.isFieldName("Vary") {
                Self.add(field.value, to: &vary)
            }
        case 6:
            if name.isFieldName("Pragma") { Self.add(field.value, to: &pragma) }
        case 7:
            if name.isFieldName("Expires") { Self.add(field.value, to: &expires) }
        case 13:
            if name.isFieldName("Cache-Control") {
                control.read(field.value)
                hasCacheControl = true
            } else if name.isFieldName("Last-Modified") {
                Self.add(field.value, to: &lastModified)
            }
        default:
            return
        }
    }

    private static func add(_ value: String, to joined: inout String?) {
        joined = joined.map { $0 + ", " + value } ?? value
    }
}

extension Dictionary where Key == String, Value == String {
    /// The value of the header field `name` in these fields of any case: the values of every
    /// key naming it joined with ", ", as a dictionary of the lower-cased names holds it.
    func joinedFieldValue(_ name: String) -> String? {
        var joined: String?
        for (key, value) in self where key.isFieldName(name) {
            joined = joined.map { $0 + ", " + value } ?? value
        }
        return joined
    }
}

extension String {
    /// Whether this is the field name `name`, ASCII letters compared without case, over the
    /// strings' bytes in place.
    func isFieldName(_ name: String) -> Bool {
        guard utf8.count == name.utf8.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { left in
            name.utf8.withContiguousStorageIfAvailable { right in
                for index in 0..<left.count where left[index] != right[index] {
                    guard left[index] | 0x20 == right[index] | 0x20, Self.isLetter(left[index]) else { return false }
                }
                return true
            }
        }
        return (compared ?? nil) ?? caseInsensitiveEquals(name)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A
    }
}
