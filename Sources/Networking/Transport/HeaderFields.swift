import HTTPWire

/// Header fields as a `[String: String]` keyed by names of any case (a `URLRequest`'s, a
/// session's defaults), looked up without case (ASCII, as field names are).
enum HeaderFields {
    /// The key in `fields` naming `name`, matched without case.
    static func key(_ name: String, in fields: [String: String]) -> String? {
        if fields[name] != nil { return name }
        return fields.keys.first { $0.caseInsensitiveEquals(name) }
    }
}
