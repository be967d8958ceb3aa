import PhotoFeed

/// What a key asks the interactive viewer to do beyond changing the screen.
package enum ScreenCommand: Equatable, Sendable {
    /// Load the next page.
    case loadMore
    /// Load again from the first page (the old photos stay until the new ones arrive).
    case reload
    /// Clear the sections and load these tags.
    case changeTags(String)
    /// Open this photo's page in the browser.
    case open(Photo.Item)
    /// Copy this photo's link to the clipboard.
    case copyLink(Photo.Item)
    /// Leave.
    case quit
}
