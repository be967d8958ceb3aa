/// What a key asks the interactive viewer to do beyond changing the screen.
public enum ScreenCommand: Equatable, Sendable {
    /// Load the next page.
    case loadMore
    /// Clear the sections and load again.
    case reload
    /// Clear the sections and load these tags.
    case changeTags(String)
    /// Leave.
    case quit
}
