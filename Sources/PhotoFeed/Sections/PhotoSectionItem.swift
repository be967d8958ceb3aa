/// A row of a ``PhotoSection``; equal (and hashed) by the photo's `link`.
public enum PhotoSectionItem: Equatable, Hashable, Sendable {
    /// A photo of the feed.
    case result(Photo.Item)

    /// The photo this row shows.
    public var photo: Photo.Item {
        switch self {
        case .result(let item): return item
        }
    }

    /// The row's identity: the photo's `link`.
    public var identity: String {
        photo.link
    }

    /// Whether the rows are of the same case and their photos have equal fields, not only equal links.
    public func hasSameContent(as other: PhotoSectionItem) -> Bool {
        switch (self, other) {
        case (.result(let lhs), .result(let rhs)): return lhs.hasSameContent(as: rhs)
        }
    }
}
