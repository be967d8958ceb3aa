/// ANSI styling that turns itself off (for `NO_COLOR`, `--no-color` and output that is not a terminal).
package struct TextStyle: Equatable, Sendable {
    /// Whether escape sequences are written.
    package let enabled: Bool

    /// A style writing escape sequences only when `enabled`.
    package init(enabled: Bool) {
        self.enabled = enabled
    }

    /// No escape sequences at all.
    package static let none = TextStyle(enabled: false)

    /// Bold text.
    package func bold(_ text: String) -> String { wrap(text, "1") }
    /// Dim text.
    package func dim(_ text: String) -> String { wrap(text, "2") }
    /// Reverse video, for the header.
    package func inverse(_ text: String) -> String { wrap(text, "7") }
    /// White on red, for the error banner.
    package func alert(_ text: String) -> String { wrap(text, "97;41") }
    /// Cyan, for section headers.
    package func accent(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
