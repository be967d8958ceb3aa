import PhotoFeed
import PhotoFeedViewerCore

/// A photo numbered `number` for renderer tests.
func photo(_ number: Int, title: String? = nil, author: String = "nobody@flickr.com (\"Ana Lima\")") -> Photo.Item {
    Photo.Item(title: title ?? "Photo \(number)",
               link: "https://www.flickr.com/photos/ana/\(number)/",
               media: .init(m: "https://live.staticflickr.com/\(number)_m.jpg"),
               author: author,
               authorID: "12@N01",
               dateTaken: "2026-11-19T06:41:12-08:00",
               published: "2026-11-20T08:14:51Z",
               tags: "sea sky",
               description: "<p>x</p>")
}

/// A section of the photos numbered `numbers`.
func section(_ numbers: [Int]) -> PhotoSection {
    .result(numbers.map { .result(photo($0)) })
}

/// A screen of the photos numbered 1 to `photos` in one section, with thumbnails available and
/// on when `images`.
func screenModel(photos: Int, images: Bool, source: String = "offline") -> ScreenModel {
    var state = ScreenState(request: PhotoRequest(tags: "sea"), sourceLabel: source)
    state.sections = photos > 0 ? [section(Array(1...photos))] : []
    state.imagesAvailable = images
    state.imagesEnabled = images
    return ScreenModel(state: state)
}
