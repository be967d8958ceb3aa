import Foundation
import PhotoFeed

/// Everything the full screen shows; the screen is a pure function of this, the thumbnails
/// and the terminal size.
package struct ScreenState: Equatable, Sendable {
    /// The sections loaded so far (during a reload, the old ones until the new ones arrive).
    package var sections: [PhotoSection] = []
    /// The request being viewed.
    package var request: PhotoRequest
    /// Where the feed comes from, e.g. `demo 127.0.0.1:49152`.
    package var sourceLabel: String
    /// Requests in flight (from `NetworkActivityPlugin`); the spinner turns while above 0.
    package var inFlight = 0
    /// The spinner's frame counter.
    package var spinnerFrame = 0
    /// The last error, shown as a banner until the next success.
    package var errorMessage: String?
    /// What the last change did, e.g. `+20 photos`.
    package var lastChange: String?
    /// The first body row shown.
    package var scroll = 0
    /// The tags being typed after `t`; `nil` when not prompting.
    package var prompt: String?
    /// The reload interval of `--watch`, if any.
    package var watchInterval: Duration?
    /// The selected photo, an index into `shownPhotos`.
    package var selection = 0
    /// Only photos whose title, author or tags contain this (ignoring case and accents) are shown.
    package var filter = ""
    /// The filter being typed after `/`; `nil` when not typing one.
    package var filterPrompt: String?
    /// Where the cursor is in the prompt being edited, in characters.
    package var promptCursor = 0
    /// Whether the keys are shown instead of the photos.
    package var showingHelp = false
    /// Whether thumbnails are drawn beside the titles.
    package var imagesEnabled = false
    /// Whether the terminal can show thumbnails at all (`i` toggles them only then).
    package var imagesAvailable = false
    /// Why there are no pictures, when `imagesAvailable` is false: what `p` and `i` then say.
    package var picturesOff = PicturesOff.terminal
    /// A one-line note for the footer, e.g. `Copied the link`.
    package var notice: String?
    /// A reload is under way: the old sections stay until the new ones arrive.
    package var reloading = false
    /// `n` was pressed: select the first photo of the next section when it arrives.
    package var followsNewSection = false
    /// The selected photo is shown large (`p`) instead of the list.
    package var previewing = false
    /// The load `n` or `r` started and its answer not yet in, to say what it brought.
    package var pendingLoad: PendingLoad?

    /// A load started by a key.
    package enum PendingLoad: Equatable, Sendable {
        /// `n`, with this many photos loaded before it.
        case more(photosBefore: Int)
        /// `r`.
        case reload
    }

    /// A screen for `request` from `sourceLabel`.
    package init(request: PhotoRequest, sourceLabel: String) {
        self.request = request
        self.sourceLabel = sourceLabel
    }

    /// Photos in every section.
    package var photoCount: Int {
        sections.reduce(0) { $0 + $1.items.count }
    }

    /// Each section's number (1-based) and the photos of it that pass the filter; sections left
    /// empty by the filter are left out.
    package var shownSections: [(number: Int, photos: [Photo.Item])] {
        let needle = Self.folded(filter)
        return sections.enumerated().compactMap { offset, section in
            let photos = section.items.map(\.photo).filter { needle.isEmpty || Self.matches($0, needle) }
            return photos.isEmpty && !needle.isEmpty ? nil : (offset + 1, photos)
        }
    }

    /// The photos shown, in order.
    package var shownPhotos: [Photo.Item] {
        shownSections.flatMap(\.photos)
    }

    /// The selected photo, if any is shown.
    package var selectedPhoto: Photo.Item? {
        let photos = shownPhotos
        return photos.indices.contains(selection) ? photos[selection] : nil
    }

    private static func matches(_ item: Photo.Item, _ needle: String) -> Bool {
        folded(PhotoText.title(item)).contains(needle)
            || folded(PhotoText.author(item)).contains(needle)
            || folded(item.tags).contains(needle)
    }

    /// `text` compared without case or accents (`Zürich` matches `zurich`).
    private static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}
