/// ANSI styling that turns itself off (for `NO_COLOR`, `--no-color` and output that is not a terminal).
public struct TextStyle: Equatable, Sendable {
    /// Whether escape sequences are written.
    public let enabled: Bool

    /// A style writing escape sequences only when `enabled`.
    public init(enabled: Bool) {
        self.enabled = enabled
    }

    /// No escape sequences at all.
    public static let none = TextStyle(enabled: false)

    /// Bold text.
    public func bold(_ text: String) -> String { wrap(text, "1") }
    /// Dim text.
    public func dim(_ text: String) -> String { wrap(text, "2") }
    /// Reverse video, for the header.
    public func inverse(_ text: String) -> String { wrap(text, "7") }
    /// White on red, for the error banner.
    public func alert(_ text: String) -> String { wrap(text, "97;41") }
    /// Cyan, for section headers.
    public func accent(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
