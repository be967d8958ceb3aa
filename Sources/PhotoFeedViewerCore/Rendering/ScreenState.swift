import PhotoFeed

/// Everything the full screen shows; the screen is a pure function of this and the terminal size.
public struct ScreenState: Equatable, Sendable {
    /// The sections loaded so far.
    public var sections: [PhotoSection] = []
    /// The request being viewed.
    public var request: PhotoRequest
    /// Where the feed comes from, e.g. `demo 127.0.0.1:49152`.
    public var sourceLabel: String
    /// Requests in flight (from `NetworkActivityPlugin`); the spinner turns while above 0.
    public var inFlight = 0
    /// The spinner's frame counter.
    public var spinnerFrame = 0
    /// The last error, shown as a banner until the next success.
    public var errorMessage: String?
    /// What the last change did, e.g. `+20 photos`.
    public var lastChange: String?
    /// The first body row shown.
    public var scroll = 0
    /// The tags being typed after `t`; `nil` when not prompting.
    public var prompt: String?
    /// The reload interval of `--watch`, if any.
    public var watchInterval: Duration?

    /// A screen for `request` from `sourceLabel`.
    public init(request: PhotoRequest, sourceLabel: String) {
        self.request = request
        self.sourceLabel = sourceLabel
    }

    /// Photos in every section.
    public var photoCount: Int {
        sections.reduce(0) { $0 + $1.items.count }
    }
}
