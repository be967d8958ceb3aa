/// Turns the bytes a raw-mode terminal sends into ``Key``s: UTF-8 characters, control keys,
/// and the `ESC [` / `ESC O` sequences of arrows, PgUp/PgDn, Home and End. A sequence split
/// across reads is kept until it completes; unknown sequences are skipped.
package struct KeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// A decoder with nothing pending.
    package init() {}

    /// The keys completed by `bytes`. A lone `ESC` at the end of `bytes` is an Escape key
    /// (terminals send a sequence in one write).
    package mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            let byte = pending[index]
            switch byte {
            case 0x1B:
                guard index + 1 < pending.count else {
                    keys.append(.escape)
                    index += 1
                    continue
                }
                let next = pending[index + 1]
                guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
                    keys.append(.escape)
                    index += 1
                    continue
                }
                var end = index + 2
                while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
                guard end < pending.count else {
                    pending.removeFirst(index)
                    return keys
                }
                if let key = Self.sequence(Array(pending[(index + 2)...end])) { keys.append(key) }
                index = end + 1
            case 0x03:
                keys.append(.interrupt)
                index += 1
            case 0x0D, 0x0A:
                keys.append(.enter)
                index += 1
            case 0x7F, 0x08:
                keys.append(.backspace)
                index += 1
            case 0x00..<0x20:
                index += 1
            default:
                let length = Self.utf8Length(byte)
                guard length > 0 else {
                    index += 1
                    continue
                }
                let available = min(pending.count, index + length)
                guard pending[(index + 1)..<available].allSatisfy({ (0x80...0xBF).contains($0) }) else {
                    index += 1
                    continue
                }
                guard index + length <= pending.count else {
                    pending.removeFirst(index)
                    return keys
                }
                let text = String(decoding: pending[index..<(index + length)], as: UTF8.self)
                if let character = text.first, text.count == 1, character != "\u{FFFD}" {
                    keys.append(.character(character))
                }
                index += length
            }
        }
        pending.removeAll()
        return keys
    }

    private static func sequence(_ body: [UInt8]) -> Key? {
        switch String(decoding: body, as: UTF8.self) {
        case "A": return .up
        case "B": return .down
        case "C": return .right
        case "D": return .left
        case "H", "1~", "7~": return .home
        case "F", "4~", "8~": return .end
        case "5~": return .pageUp
        case "6~": return .pageDown
        case "3~": return .backspace
        default: return nil
        }
    }

    private static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0x20..<0x80: return 1
        case 0xC2..<0xE0: return 2
        case 0xE0..<0xF0: return 3
        case 0xF0..<0xF5: return 4
        default: return 0
        }
    }
}
