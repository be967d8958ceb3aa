/// Text made safe and sized for a terminal: feed text cannot move the cursor or change colours,
/// and lines are cut or padded by display columns (wide characters count two).
package enum TerminalText {
    /// `text` with control characters (C0, DEL, C1, which includes ESC) replaced by spaces.
    package static func sanitized(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            scalars.append(value < 0x20 || (0x7F...0x9F).contains(value) ? " " : scalar)
        }
        return String(scalars)
    }

    /// The columns `character` takes: 0 for combining marks and format characters, 2 for wide ones.
    package static func columns(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if character.unicodeScalars.allSatisfy({ isZeroWidth($0) }) { return 0 }
        return isWide(first) || character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation }) ? 2 : 1
    }

    /// The columns `text` takes.
    package static func columns(of text: String) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    /// `text` cut to at most `width` columns (ending in `…` when cut).
    package static func truncated(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard columns(of: text) > width else { return text }
        var out = ""
        var used = 0
        for character in text {
            let size = columns(of: character)
            if used + size > width - 1 { break }
            out.append(character)
            used += size
        }
        return out + "…"
    }

    /// `text` cut to `width` columns and padded with spaces to exactly `width`.
    package static func fitted(_ text: String, to width: Int) -> String {
        let cut = truncated(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - columns(of: cut)))
    }

    /// `text` broken at spaces into lines of at most `width` columns, its leading spaces kept and
    /// each continuation line starting with `indent` spaces; a word longer than a line is cut.
    package static func wrapped(_ text: String, to width: Int, indent: Int) -> [String] {
        guard width > 0 else { return [] }
        guard columns(of: text) > width else { return [text] }
        let indent = min(indent, width / 2)
        let lead = String(text.prefix { $0 == " " })
        var lines: [String] = []
        var line = lead
        for word in text.dropFirst(lead.count).split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let bare = line.allSatisfy { $0 == " " }
            let candidate = bare ? line + word : line + " " + word
            if columns(of: candidate) <= width || bare {
                line = candidate
            } else {
                lines.append(line)
                line = String(repeating: " ", count: indent) + word
            }
        }
        lines.append(line)
        return lines.map { truncated($0, to: width) }
    }

    /// `text` without ANSI escape sequences (`ESC [ ... letter`), for measuring styled lines.
    package static func strippingEscapes(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var inEscape = false
        var sawBracket = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if !sawBracket {
                    sawBracket = true
                    if scalar != "[" { inEscape = false }
                    continue
                }
                if (0x40...0x7E).contains(scalar.value) { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                sawBracket = false
                continue
            }
            out.append(scalar)
        }
        return String(out)
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return scalar.value == 0xFE0F || scalar.value == 0xFE0E
        }
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
