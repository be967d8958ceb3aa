import Foundation
import HTTPWire

/// HTTP dates without `DateFormatter`: parsing by RFC 6265 §5.1.1's lenient algorithm, which
/// reads every form RFC 9110 §5.6.7 names (IMF-fixdate, RFC 850, asctime) and the dashed forms
/// cookies use; formatting as IMF-fixdate. Used for `Date`, `Expires`, `Last-Modified`,
/// `If-Modified-Since`, `Retry-After` and cookies' `Expires`.
enum HTTPDate {
    /// The date `text` names, in UTC; nil when it has no valid day, month, year and time.
    /// Read in place: no token array or string is made (it runs for every stored answer's
    /// `Date` and again at each revalidation).
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8(parse(bytes:))
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var day: Int?
        var month: Int?
        var year: Int?
        var time: (Int, Int, Int)?
        func take(_ token: Slice<UnsafeBufferPointer<UInt8>>) {
            guard !token.isEmpty else { return }
            if time == nil, let parsed = Self.time(token) { time = parsed; return }
            if day == nil, let number = Self.number(token, digits: 1...2), (1...31).contains(number) { day = number; return }
            if month == nil, let parsed = Self.month(token) { month = parsed; return }
            if year == nil, let number = Self.number(token, digits: 2...4) { year = number }
        }
        var start = 0
        for index in bytes.indices where Self.isDelimiter(bytes[index]) {
            take(bytes[start..<index])
            start = index + 1
        }
        take(bytes[start..<bytes.count])
        guard let day, let month, var year, let (hour, minute, second) = time else { return nil }
        if year < 70 { year += 2000 } else if year < 100 { year += 1900 }
        guard year >= 1601, hour < 24, minute < 60, second < 61, day <= daysIn(month: month, year: year) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// `date` as an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func format(_ date: Date) -> String {
        IMFFixdate.format(unixSeconds: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    private static func number(_ token: Slice<UnsafeBufferPointer<UInt8>>, digits: ClosedRange<Int>) -> Int? {
        var value = 0
        var count = 0
        for byte in token {
            guard byte >= 0x30, byte <= 0x39 else { break }
            // More digits than allowed is no match: stopping here also keeps a long run from overflowing.
            guard count < digits.upperBound else { return nil }
            value = value * 10 + Int(byte - 0x30)
            count += 1
        }
        return digits.contains(count) ? value : nil
    }

    /// `hh:mm:ss`, each part one or two digits; whatever follows the seconds after a non-digit is
    /// ignored (RFC 6265 §5.1.1: `hms-time ( non-digit *OCTET )`, as in `07:28:00GMT`).
    private static func time(_ token: Slice<UnsafeBufferPointer<UInt8>>) -> (Int, Int, Int)? {
        var values = (0, 0, 0)
        var part = 0
        var digits = 0
        var value = 0
        for byte in token {
            if part == 2, byte < 0x30 || byte > 0x39 {
                break
            } else if byte == UInt8(ascii: ":") {
                guard (1...2).contains(digits) else { return nil }
                if part == 0 { values.0 = value } else { values.1 = value }
                part += 1
                digits = 0
                value = 0
            } else {
                // A third digit is no match (and a long run would overflow).
                guard byte >= 0x30, byte <= 0x39, digits < 2 else { return nil }
                value = value * 10 + Int(byte - 0x30)
                digits += 1
            }
        }
        guard part == 2, (1...2).contains(digits) else { return nil }
        values.2 = value
        return values
    }

    /// The month whose name's first three letters begin `token` (ASCII letters without case).
    private static func month(_ token: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard token.count >= 3 else { return nil }
        let first = token.startIndex
        let prefix = (ASCII.lowercased(token[first]), ASCII.lowercased(token[first + 1]), ASCII.lowercased(token[first + 2]))
        return monthPrefixes.firstIndex { $0 == prefix }.map { $0 + 1 }
    }

    private static let monthPrefixes: [(UInt8, UInt8, UInt8)] = IMFFixdate.months.map { name in
        let bytes = Array(name.utf8)
        return (ASCII.lowercased(bytes[0]), ASCII.lowercased(bytes[1]), ASCII.lowercased(bytes[2]))
    }

    /// How many days `month` of `year` has (a date that does not exist fails to parse, RFC 6265 §5.1.1).
    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
