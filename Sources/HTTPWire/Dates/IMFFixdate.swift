/// RFC 9110 §5.6.7's preferred date form, `Sun, 06 Nov 1994 08:49:37 GMT`: what a sender of an
/// HTTP date writes. Shared by the client's cache (`HTTPDate`) and the server's `Date` field.
package enum IMFFixdate {
    /// The moment `seconds` (Unix seconds, UTC) as an IMF-fixdate.
    package static func format(unixSeconds seconds: Int64) -> String {
        let civil = CivilTime(unixSeconds: seconds)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let weekday = Int(((days % 7) + 11) % 7)  // 1970-01-01 was a Thursday
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[weekday]), \(two(civil.day)) \(months[Int(civil.month) - 1]) \(civil.year) "
            + "\(two(civil.hour)):\(two(civil.minute)):\(two(civil.second)) GMT"
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    /// The month names an HTTP date uses, January first.
    package static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
