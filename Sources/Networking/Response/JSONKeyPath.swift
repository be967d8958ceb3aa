/// Walks a dot-separated key path through parsed JSON objects (the subset of
/// `NSDictionary.value(forKeyPath:)` that Moya's mappings use).
enum JSONKeyPath {
    /// The value at `keyPath` inside `root`, or `nil` when a step is missing or not an object.
    static func value(in root: Any, at keyPath: String) -> Any? {
        var current: Any = root
        for key in keyPath.split(separator: ".", omittingEmptySubsequences: false) {
            guard let object = current as? [String: Any], let next = object[String(key)] else { return nil }
            current = next
        }
        return current
    }
}
