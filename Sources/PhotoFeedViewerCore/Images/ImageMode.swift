/// What `--images` asked for.
package enum ImageMode: String, Equatable, Sendable, CaseIterable {
    /// Pick from the terminal's environment (the default).
    case auto
    /// The kitty graphics protocol.
    case kitty
    /// iTerm2 inline images.
    case iterm
    /// Sixel graphics.
    case sixel
    /// Unicode half blocks in colour.
    case blocks
    /// No thumbnails.
    case none
}
