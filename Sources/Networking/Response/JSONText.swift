import Foundation

/// Reads a JSON scalar as text: strings as they are, whole numbers without a fraction
/// (`500`, not `500.0`), other numbers as written; anything else is `nil`.
enum JSONText {
    static func text(_ value: Any?) -> String? {
        switch value {
        case let string as String:
            return string
        case let int as Int:
            return String(int)
        case let double as Double:
            return double.rounded() == double && abs(double) < 1e15 ? String(Int(double)) : String(double)
        default:
            return nil
        }
    }
}
