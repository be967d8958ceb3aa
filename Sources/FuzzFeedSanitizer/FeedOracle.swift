import Foundation
import PhotoFeed

/// What the feed fuzz target checks of one input. The invariants:
/// 1. nothing crashes: `FeedSanitizer.sanitize` and `Photo.decode(feed:)` return or throw;
/// 2. JSON text as RFC 8259 allows between systems (see `isJSONText`) comes back from `sanitize`
///    byte for byte;
/// 3. when the input is such JSON apart from invalid escapes, `sanitize` succeeds and returns
///    exactly what `referenceRepair`, a slow obvious repair, makes of it. The input itself must
///    be UTF-8 text (`isUTF8Text`): dropping a backslash can join a lead byte to a continuation
///    byte (`22 CD 5C A2 22`: `CD 5C` is no UTF-8, `CD A2` is), and `sanitize` rightly refuses
///    bytes that are no UTF-8.
///
/// This file is compiled twice with no copy: into the fuzz target, and into `PhotoFeedTests`
/// through the symbolic link `Tests/PhotoFeedTests/FeedOracle.swift`, so the oracle has a
/// regression test without a test importing an executable or `PhotoFeed` shipping fuzz code.
enum FeedOracle {
    /// A broken invariant.
    enum Violation: Equatable, CustomStringConvertible {
        case validJSONChanged
        case repairableJSONRejected
        case differsFromReferenceRepair

        var description: String {
            switch self {
            case .validJSONChanged: "valid JSON changed by sanitize"
            case .repairableJSONRejected: "sanitize rejected JSON that had only invalid escapes"
            case .differsFromReferenceRepair: "sanitize differs from the reference repair"
            }
        }
    }

    /// The invariants `input` breaks (empty when it breaks none). `sanitize` is the function
    /// under test; the tests pass broken ones to show each violation can be reported.
    static func violations(
        of input: Data, sanitize: (Data) -> Data? = { try? FeedSanitizer.sanitize($0) }
    ) -> [Violation] {
        let output = sanitize(input)
        _ = try? Photo.decode(feed: input)
        var found: [Violation] = []
        if isJSONText(input), output != input { found.append(.validJSONChanged) }
        if isUTF8Text(input), let repaired = referenceRepair(input), isJSONText(repaired) {
            if let output {
                if output != repaired { found.append(.differsFromReferenceRepair) }
            } else {
                found.append(.repairableJSONRejected)
            }
        }
        return found
    }

    /// Whether `data` is a JSON text as RFC 8259 (section 8.1) requires between systems: UTF-8
    /// without a byte order mark. `JSONSerialization` also reads UTF-16 and UTF-32, guessed from a
    /// byte order mark or from where the NUL bytes are (`00 32 FF` reads as UTF-16BE "2" plus a
    /// stray byte), and skips a UTF-8 byte order mark, while feeds are read as UTF-8 from the first
    /// byte. So the bytes must be valid UTF-8 (UTF-16 and UTF-32 byte order marks are not), hold no
    /// NUL (JSON text in UTF-8 never does: U+0000 must be escaped in a string and is no
    /// whitespace) and not start with `EF BB BF`; then `JSONSerialization` reads them as UTF-8
    /// from the first byte, and its answer is the answer.
    static func isJSONText(_ data: Data) -> Bool {
        guard isUTF8Text(data) else { return false }
        return (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
    }

    /// Valid UTF-8 holding no NUL and not starting with a byte order mark.
    static func isUTF8Text(_ data: Data) -> Bool {
        !data.contains(0) && !data.starts(with: [0xEF, 0xBB, 0xBF]) && String(validating: data, as: UTF8.self) != nil
    }

    /// A slow, obvious repair: inside strings, a backslash before anything but a valid escape
    /// (`\u` counts only with four hexadecimal digits after it) is dropped. No wrapper handling,
    /// so it applies to bare JSON only; `nil` when the data ends in a lone backslash.
    static func referenceRepair(_ data: Data) -> Data? {
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        var inString = false
        var index = 0
        let valid: Set<UInt8> = Set("\"\\/bfnrt".utf8)
        let hex: Set<UInt8> = Set("0123456789abcdefABCDEF".utf8)
        while index < bytes.count {
            let byte = bytes[index]
            if inString && byte == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count else { return nil }
                let next = bytes[index + 1]
                let unicode = next == UInt8(ascii: "u") && index + 5 < bytes.count
                    && bytes[(index + 2)...(index + 5)].allSatisfy { hex.contains($0) }
                if valid.contains(next) || unicode {
                    output.append(byte)
                }
                output.append(next)
                index += 2
                continue
            }
            if byte == UInt8(ascii: "\"") { inString.toggle() }
            output.append(byte)
            index += 1
        }
        return Data(output)
    }
}
