/// Why the full screen draws no pictures, so that `p` and `i` say so instead of offering them.
package enum PicturesOff: Equatable, Sendable {
    /// `NO_COLOR` or `--no-color`, and `--images` did not ask for pictures all the same.
    case colorsOff
    /// `--images none`.
    case asked
    /// The terminal gave nothing to draw them with.
    case terminal

    /// What `p` and `i` answer.
    package var notice: String {
        switch self {
        case .colorsOff: "No pictures: colours are off (NO_COLOR or --no-color); --images blocks draws them all the same"
        case .asked: "No pictures: --images none"
        case .terminal: "No pictures in this terminal (see --images)"
        }
    }
}
