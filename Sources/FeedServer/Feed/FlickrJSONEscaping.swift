/// Writes JSON string contents the way Flickr's feed does: every `/` as `\/`, every non-ASCII
/// character as `\uXXXX` (surrogate pairs beyond the BMP), and, when asked, `'` as the invalid
/// escape `\'` that real feeds carry.
enum FlickrJSONEscaping {
    static func append(_ text: String, to output: inout [UInt8], invalidApostropheEscape: Bool = false) {
        for unit in text.utf16 {
            switch unit {
            case 0x22: output.append(contentsOf: [0x5C, 0x22])
            case 0x5C: output.append(contentsOf: [0x5C, 0x5C])
            case 0x2F: output.append(contentsOf: [0x5C, 0x2F])
            case 0x27 where invalidApostropheEscape: output.append(contentsOf: [0x5C, 0x27])
            case 0x0A: output.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: output.append(contentsOf: [0x5C, 0x72])
            case 0x09: output.append(contentsOf: [0x5C, 0x74])
            case 0x20..<0x7F: output.append(UInt8(unit))
            default: appendUnicodeEscape(unit, to: &output)
            }
        }
    }

    private static func appendUnicodeEscape(_ unit: UInt16, to output: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        output.append(contentsOf: [0x5C, 0x75])
        for shift in stride(from: 12, through: 0, by: -4) {
            output.append(digits[Int((unit >> UInt16(shift)) & 0xF)])
        }
    }

    /// Escapes text for an HTML attribute or element inside the description.
    static func html(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#039;"
            default: result.append(character)
            }
        }
        return result
    }
}
