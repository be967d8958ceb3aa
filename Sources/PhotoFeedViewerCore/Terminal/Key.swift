/// A key press read from the terminal.
package enum Key: Equatable, Sendable {
    /// A printable character.
    case character(Character)
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// Home.
    case home
    /// End.
    case end
    /// Return or Enter.
    case enter
    /// A lone Escape.
    case escape
    /// Backspace or Delete.
    case backspace
    /// Ctrl-C.
    case interrupt
}
