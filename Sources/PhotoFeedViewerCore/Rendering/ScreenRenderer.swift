import PhotoFeed

/// The full-screen view: a header, the sections' rows scrolled by `state.scroll`, an error
/// banner, and a footer with the keys or the tags prompt. Exactly `height` lines, each
/// `width` columns wide once escapes are removed.
public enum ScreenRenderer {
    /// The spinner's frames.
    public static let spinnerFrames = ["|", "/", "-", "\\"]

    /// The lines of the screen.
    public static func lines(for state: ScreenState, width: Int, height: Int, style: TextStyle) -> [String] {
        guard width > 0, height > 0 else { return [] }
        var lines = [style.inverse(TerminalText.fitted(header(state), to: width))]
        let rows = bodyRows(state, width: width)
        let visible = bodyHeight(state, height: height)
        let first = min(max(0, state.scroll), maxScroll(state, width: width, height: height))
        for index in first..<(first + visible) {
            if index < rows.count {
                lines.append(rows[index].styled(style, width: width))
            } else if index == 0 && rows.isEmpty {
                let hint = state.inFlight > 0 ? "Loading photos..." : "No photos yet. Press n to load."
                lines.append(style.dim(TerminalText.fitted("  " + hint, to: width)))
            } else {
                lines.append(String(repeating: " ", count: width))
            }
        }
        if let message = state.errorMessage, height >= 3 {
            lines.append(style.alert(TerminalText.fitted(" ! " + TerminalText.sanitized(message), to: width)))
        }
        if height >= 2 {
            lines.append(footer(state, width: width, style: style))
        }
        return Array(lines.prefix(height))
    }

    /// Body rows visible at once for a screen `height` lines high.
    public static func bodyHeight(_ state: ScreenState, height: Int) -> Int {
        let banner = state.errorMessage != nil && height >= 3 ? 1 : 0
        let footer = height >= 2 ? 1 : 0
        return max(0, height - 1 - banner - footer)
    }

    /// The largest useful `scroll` for this state and size.
    public static func maxScroll(_ state: ScreenState, width: Int, height: Int) -> Int {
        max(0, bodyRows(state, width: width).count - bodyHeight(state, height: height))
    }

    /// The header text: program, tags, counts, source, and the spinner while loading.
    public static func header(_ state: ScreenState) -> String {
        let sections = state.sections.count
        var parts = [
            " photo-feed",
            "tags: \(TerminalText.sanitized(state.request.tags)) (\(state.request.tagmode))",
            "\(sections) section\(sections == 1 ? "" : "s"), \(state.photoCount) photo\(state.photoCount == 1 ? "" : "s")",
            state.sourceLabel,
        ]
        if let change = state.lastChange { parts.append(change) }
        if let interval = state.watchInterval { parts.append("every \(seconds(interval))") }
        if state.inFlight > 0 {
            parts.append("\(spinnerFrames[state.spinnerFrame % spinnerFrames.count]) loading")
        }
        return parts.joined(separator: "  ·  ")
    }

    private static func footer(_ state: ScreenState, width: Int, style: TextStyle) -> String {
        if let prompt = state.prompt {
            return TerminalText.fitted(" New tags: \(TerminalText.sanitized(prompt))_   (Enter load, Esc cancel)", to: width)
        }
        return style.dim(TerminalText.fitted(" n more  r reload  t tags  j/k ↑/↓ scroll  PgUp/PgDn page  q quit", to: width))
    }

    private static func seconds(_ duration: Duration) -> String {
        let millis = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return millis % 1000 == 0 ? "\(millis / 1000)s" : "\(Double(millis) / 1000)s"
    }

    /// One row of the body.
    enum Row {
        case section(String)
        case title(String)
        case detail(String)

        func styled(_ style: TextStyle, width: Int) -> String {
            switch self {
            case .section(let text): return style.accent(TerminalText.fitted(text, to: width))
            case .title(let text): return style.bold(TerminalText.fitted(text, to: width))
            case .detail(let text): return style.dim(TerminalText.fitted(text, to: width))
            }
        }
    }

    static func bodyRows(_ state: ScreenState, width: Int) -> [Row] {
        var rows: [Row] = []
        for (offset, section) in state.sections.enumerated() {
            let count = section.items.count
            let title = "── Section \(offset + 1) · \(count) photo\(count == 1 ? "" : "s") "
            rows.append(.section(title + String(repeating: "─", count: max(0, width - TerminalText.columns(of: title)))))
            for row in section.items {
                let item = row.photo
                rows.append(.title("  " + PhotoText.title(item)))
                rows.append(.detail("    \(PhotoText.author(item)) · \(PhotoText.date(item)) · \(PhotoText.link(item))"))
            }
        }
        return rows
    }
}
