import HTTPWire

/// The bytes of a feed page (and of `/echo`'s answer), written the way Flickr's feed writes its JSON strings: every `/` as
/// `\/`, every non-ASCII character as `\uXXXX` (surrogate pairs beyond the BMP), and, when
/// asked, `'` as the invalid escape `\'` that real feeds carry.
///
/// The generator writes each piece of a value straight into one byte array instead of building
/// strings and escaping them afterwards: escaping is per scalar, so escaping the pieces one by
/// one gives the bytes escaping their concatenation would. It walks UTF-8, never `Character`s:
/// every character it changes is one ASCII scalar, and grapheme breaking, string building and
/// `String(format:)` were most of a page's time (a page is built for every feed request, so
/// their cost bounded every client measured against this server).
struct FeedJSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends `text` with no escaping: field names, punctuation and digits, never values.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `text` as JSON string contents.
    mutating func escaped(_ text: String, invalidApostropheEscape: Bool = false) {
        appendScalars(of: text, html: false, invalidApostropheEscape: invalidApostropheEscape)
    }

    /// Appends `text` escaped for HTML (`&`, `<`, `>`, `"`, `'` as entities), as JSON string contents.
    mutating func escapedHTML(_ text: String) {
        appendScalars(of: text, html: true, invalidApostropheEscape: false)
    }

    /// Appends `value` in decimal, zero-padded to `width` characters (as `%0*d` for the
    /// non-negative values a page holds).
    mutating func decimal(_ value: Int64, width: Int = 0) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, radix: 10, width: width - (value < 0 ? 1 : 0))
    }

    /// Appends `value` in decimal.
    mutating func decimal(_ value: UInt64) {
        appendDigits(value, radix: 10, width: 0)
    }

    /// Appends `value` in lowercase hexadecimal, zero-padded to `width` digits (as `%0*llx`).
    mutating func hex(_ value: UInt64, width: Int) {
        appendDigits(value, radix: 16, width: width)
    }

    /// Appends the moment `seconds` after the Unix epoch, shifted by `offsetHours`, as
    /// `2026-01-01T00:00:00` followed by `Z` (no offset) or the offset (`-08:00`).
    mutating func isoDateTime(_ seconds: Int64, offsetHours: Int = 0) {
        let civil = CivilTime(unixSeconds: seconds + Int64(offsetHours) * 3_600)
        decimal(civil.year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        decimal(civil.month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        decimal(civil.day, width: 2)
        bytes.append(UInt8(ascii: "T"))
        decimal(civil.hour, width: 2)
        bytes.append(UInt8(ascii: ":"))
        decimal(civil.minute, width: 2)
        bytes.append(UInt8(ascii: ":"))
        decimal(civil.second, width: 2)
        if offsetHours == 0 {
            bytes.append(UInt8(ascii: "Z"))
        } else {
            bytes.append(UInt8(ascii: offsetHours < 0 ? "-" : "+"))
            decimal(Int64(abs(offsetHours)), width: 2)
            raw(":00")
        }
    }

    private mutating func appendDigits(_ value: UInt64, radix: UInt64, width: Int) {
        var count = 1
        var rest = value / radix
        while rest > 0 {
            count += 1
            rest /= radix
        }
        let total = max(width, count)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: total))
        var position = start + total - 1
        rest = value
        repeat {
            let digit = UInt8(rest % radix)
            bytes[position] = digit < 10 ? 0x30 + digit : 0x61 + digit - 10
            position -= 1
            rest /= radix
        } while rest > 0
    }

    private mutating func appendScalars(of text: String, html: Bool, invalidApostropheEscape: Bool) {
        var text = text
        text.withUTF8 { utf8 in
            var index = 0
            while index < utf8.count {
                // Runs of printable ASCII that need no escape are copied whole.
                let runStart = index
                while index < utf8.count, Self.isPlain(utf8[index], html: html, invalidApostropheEscape: invalidApostropheEscape) {
                    index += 1
                }
                if index > runStart {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                    continue
                }
                let lead = utf8[index]
                if lead < 0x80 {
                    appendASCII(lead, html: html, invalidApostropheEscape: invalidApostropheEscape)
                    index += 1
                    continue
                }
                // A String holds valid UTF-8, so the lead byte says how many bytes follow.
                let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                var scalar = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for offset in 1..<length where index + offset < utf8.count {
                    scalar = scalar << 6 | UInt32(utf8[index + offset] & 0x3F)
                }
                if scalar >= 0x1_0000 {
                    let offset = scalar - 0x1_0000
                    appendUnicodeEscape(UInt16(0xD800 + (offset >> 10)))
                    appendUnicodeEscape(UInt16(0xDC00 + (offset & 0x3FF)))
                } else {
                    appendUnicodeEscape(UInt16(scalar))
                }
                index += length
            }
        }
    }

    /// Printable ASCII that is written as it is.
    @inline(__always)
    private static func isPlain(_ byte: UInt8, html: Bool, invalidApostropheEscape: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): false
        case UInt8(ascii: "'"): !html && !invalidApostropheEscape
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"): !html
        case 0x20..<0x7F: true
        default: false
        }
    }

    private mutating func appendASCII(_ byte: UInt8, html: Bool, invalidApostropheEscape: Bool) {
        let backslash = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "&") where html: raw("&amp;")
        case UInt8(ascii: "<") where html: raw("&lt;")
        case UInt8(ascii: ">") where html: raw("&gt;")
        case UInt8(ascii: "\"") where html: raw("&quot;")
        case UInt8(ascii: "'") where html: raw("&#039;")
        case UInt8(ascii: "\""), backslash, UInt8(ascii: "/"): bytes.append(backslash); bytes.append(byte)
        case UInt8(ascii: "'") where invalidApostropheEscape: bytes.append(backslash); bytes.append(byte)
        case 0x0A: bytes.append(backslash); bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(backslash); bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(backslash); bytes.append(UInt8(ascii: "t"))
        case 0x20..<0x7F: bytes.append(byte)
        default: appendUnicodeEscape(UInt16(byte))
        }
    }

    private mutating func appendUnicodeEscape(_ unit: UInt16) {
        raw("\\u")
        appendDigits(UInt64(unit), radix: 16, width: 4)
    }
}
