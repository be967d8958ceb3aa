/// How thumbnails are drawn: a terminal graphics protocol, Unicode half blocks, or not at all.
package enum ThumbnailProtocol: Equatable, Sendable {
    /// The kitty graphics protocol (kitty, WezTerm, Ghostty, Konsole).
    case kitty
    /// iTerm2's inline images (iTerm2, WezTerm).
    case iterm
    /// DEC sixel graphics (foot, mlterm, xterm -ti vt340, Windows Terminal).
    case sixel
    /// `▀` half blocks, two pixels per cell, in 24-bit or 256 colours.
    case halfBlocks(ColorDepth)
    /// No thumbnails.
    case none

    /// The colours a terminal can show.
    package enum ColorDepth: Equatable, Sendable {
        /// 24-bit colour (`COLORTERM=truecolor` or `24bit`).
        case truecolor
        /// The xterm 256-colour palette.
        case palette256
    }

    /// The protocol for `mode` in a terminal described by `environment`: an explicit mode as
    /// asked (`blocks` in 24-bit colour only when `COLORTERM` says so, `truecolor` and `256` at
    /// that depth); `auto` draws nothing under `NO_COLOR`, with `colors` false (`--no-color`) or
    /// on a `dumb` terminal, else picks from `TERM`, `TERM_PROGRAM` and `COLORTERM`, falling back
    /// to half blocks.
    package static func resolve(_ mode: ImageMode, environment: [String: String], colors: Bool = true) -> ThumbnailProtocol {
        let term = (environment["TERM"] ?? "").lowercased()
        let program = (environment["TERM_PROGRAM"] ?? "").lowercased()
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        let depth: ColorDepth = colorTerm == "truecolor" || colorTerm == "24bit" ? .truecolor : .palette256
        switch mode {
        case .kitty: return .kitty
        case .iterm: return .iterm
        case .sixel: return .sixel
        case .blocks: return .halfBlocks(depth)
        case .truecolor: return .halfBlocks(.truecolor)
        case .palette256: return .halfBlocks(.palette256)
        case .none: return .none
        case .auto:
            if !colors || !(environment["NO_COLOR"] ?? "").isEmpty || term == "dumb" || term.isEmpty { return .none }
            if term.contains("kitty") || program == "ghostty" || environment["KITTY_WINDOW_ID"] != nil { return .kitty }
            if program == "iterm.app" || program == "wezterm" { return .iterm }
            if term.contains("sixel") || term.hasPrefix("mlterm") || term.hasPrefix("foot") { return .sixel }
            return .halfBlocks(depth)
        }
    }
}
