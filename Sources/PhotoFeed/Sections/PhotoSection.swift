/// A section of the photo list; each successful load appends one.
public enum PhotoSection: SectionModelType, Equatable, Sendable {
    /// The photos of one load.
    case result([PhotoSectionItem])

    /// The kind of a section, without its items; a ``Changeset`` matches sections by position and kind.
    public enum Kind: Hashable, Sendable {
        /// A ``PhotoSection/result(_:)`` section.
        case result
    }

    /// The rows of the section.
    public var items: [PhotoSectionItem] {
        switch self {
        case .result(let items): return items
        }
    }

    /// The kind of this section.
    public var kind: Kind {
        switch self {
        case .result: return .result
        }
    }

    /// A section of the same kind as `original` holding `items`.
    public init(original: PhotoSection, items: [PhotoSectionItem]) {
        self.init(kind: original.kind, items: items)
    }

    /// A section of `kind` holding `items`.
    public init(kind: Kind, items: [PhotoSectionItem]) {
        switch kind {
        case .result: self = .result(items)
        }
    }
}
