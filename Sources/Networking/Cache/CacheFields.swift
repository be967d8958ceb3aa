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
            if name.caseInsensitiveEquals("Age") { Self.add(field.value, to: &age) }
        case 4:
            if name.caseInsensitiveEquals("Date") {
                Self.add(field.value, to: &date)
            } else if name.caseInsensitiveEquals("ETag") {
                Self.add(field.value, to: &entityTag)
            } else if name.caseInsensitiveEquals("Vary") {
                Self.add(field.value, to: &vary)
            }
        case 6:
            if name.caseInsensitiveEquals("Pragma") { Self.add(field.value, to: &pragma) }
        case 7:
            if name.caseInsensitiveEquals("Expires") { Self.add(field.value, to: &expires) }
        case 13:
            if name.caseInsensitiveEquals("Cache-Control") {
                control.read(field.value)
                hasCacheControl = true
            } else if name.caseInsensitiveEquals("Last-Modified") {
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

extension HTTPHeaders {
    /// The values of every field named `name` (without case) joined with ", " in order, as a
    /// dictionary keyed by lower-cased names holds them; nil when there is none.
    func joinedFieldValue(_ name: String) -> String? {
        var joined: String?
        for field in self where field.name.caseInsensitiveEquals(name) {
            joined = joined.map { $0 + ", " + field.value } ?? field.value
        }
        return joined
    }
}
