import Foundation

extension URLEncodedFormEncoder {
    /// How a `Date` is written.
    public enum DateEncoding: Sendable {
        /// As `Date` encodes itself: seconds since 1 January 2001 (the default).
        case deferredToDate
        /// Seconds since 1 January 1970 (`978307323.456`).
        case secondsSince1970
        /// Milliseconds since 1 January 1970 (`978307323456.0`).
        case millisecondsSince1970
        /// ISO 8601 in UTC (`2001-01-01T00:02:03Z`).
        case iso8601
        /// The formatter's text; the formatter is only read.
        case formatted(DateFormatter)
        /// The text the closure returns; what it throws ends the encoding.
        case custom(@Sendable (Date) throws -> String)

        /// The text for `date`, or `nil` to let `Date` encode itself.
        func encode(_ date: Date) throws -> String? {
            switch self {
            case .deferredToDate: return nil
            case .secondsSince1970: return String(date.timeIntervalSince1970)
            case .millisecondsSince1970: return String(date.timeIntervalSince1970 * 1000)
            case .iso8601: return ISO8601DateFormatter.string(from: date, timeZone: TimeZone(secondsFromGMT: 0) ?? .current,
                                                               formatOptions: .withInternetDateTime)
            case .formatted(let formatter): return formatter.string(from: date)
            case .custom(let encode): return try encode(date)
            }
        }
    }
}
