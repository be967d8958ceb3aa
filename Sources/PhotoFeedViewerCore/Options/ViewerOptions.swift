import Foundation
import PhotoFeed

/// What the command line asked `photo-feed` to do.
package struct ViewerOptions: Equatable, Sendable {
    /// Where the feed comes from.
    package enum Source: Equatable, Sendable {
        /// Flickr itself (`https://api.flickr.com`).
        case flickr
        /// A `FeedServer` started in-process on 127.0.0.1.
        case demo
        /// Any server answering `services/feeds/photos_public.gne` below this URL.
        case baseURL(URL)
        /// A stubbed provider answering with the bundled sample feed; no socket.
        case offline
    }

    /// How results are printed; `.automatic` is the full screen on a terminal, plain text otherwise.
    package enum Format: Equatable, Sendable {
        /// Full screen on a terminal, plain text otherwise.
        case automatic
        /// One block per section, one line per photo.
        case plain
        /// One JSON object per photo per line.
        case json
    }

    /// Where the feed comes from (default: Flickr).
    package var source: Source = .flickr
    /// With `.demo`: the demo server speaks TLS (`--tls`), with the test certificate the viewer trusts.
    package var tls = false
    /// Comma-separated tags.
    package var tags: String = PhotoRequest().tags
    /// `any` or `all`.
    package var tagmode: String = PhotoRequest().tagmode
    /// Load this many pages, print them and exit.
    package var pages: Int?
    /// Reload on this interval.
    package var watch: Duration?
    /// The timeout of each request.
    package var timeout: Duration = .seconds(10)
    /// How results are printed.
    package var format: Format = .automatic
    /// Log every request and response to stderr.
    package var verbose = false
    /// How thumbnails are drawn in the full screen (`--images`); anything but `auto` is drawn
    /// even under `NO_COLOR`.
    package var images: ImageMode = .auto
    /// `false` when `--no-color` was given.
    package var color = true

    /// The options of `photo-feed` run without arguments: Flickr's public feed, interactive,
    /// a 10-second timeout.
    package init() {}

    /// The feed request these options describe.
    package var request: PhotoRequest {
        PhotoRequest(tags: tags, tagmode: tagmode)
    }
}
