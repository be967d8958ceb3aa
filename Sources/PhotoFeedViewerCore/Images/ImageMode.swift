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
    /// Unicode half blocks in colour (24-bit when `COLORTERM` says so, else 256 colours).
    case blocks
    /// Unicode half blocks in 24-bit colour, whatever `COLORTERM` says (tmux often drops it).
    case truecolor
    /// Unicode half blocks in xterm's 256 colours.
    case palette256 = "256"
    /// No thumbnails.
    case none
}
