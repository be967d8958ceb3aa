/// One page of Flickr's public photo feed.
///
/// `title`, `link` and `items` are required; the other top-level fields are optional and
/// decoded leniently (a missing, `null` or non-string value becomes `nil`).
public struct Photo: Decodable, Encodable, Sendable, Hashable {
    /// The feed's title, e.g. `"Recent Uploads tagged cats"`.
    public var title: String
    /// The feed's web page.
    public var link: String
    /// The photos of this page, in feed order.
    public var items: [Item]
    /// The feed's description (usually empty).
    public var description: String?
    /// When the feed was last modified, as Flickr's ISO 8601 text.
    public var modified: String?
    /// The generator URL Flickr reports.
    public var generator: String?

    /// A feed page as the feed would carry it (for stubs and tests; real pages come from
    /// `decode(feed:)`).
    public init(
        title: String,
        link: String,
        items: [Item],
        description: String? = nil,
        modified: String? = nil,
        generator: String? = nil
    ) {
        self.title = title
        self.link = link
        self.items = items
        self.description = description
        self.modified = modified
        self.generator = generator
    }

    private enum CodingKeys: String, CodingKey {
        case title, link, items, description, modified, generator
    }

    /// Decodes a feed page; optional fields never fail the decode.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        link = try container.decode(String.self, forKey: .link)
        items = try container.decode([Item].self, forKey: .items)
        description = container.lenientString(forKey: .description)
        modified = container.lenientString(forKey: .modified)
        generator = container.lenientString(forKey: .generator)
    }
}

extension KeyedDecodingContainer {
    /// The string under `key`, or `nil` when it is absent, `null` or not a string.
    func lenientString(forKey key: Key) -> String? {
        (try? decodeIfPresent(String.self, forKey: key)) ?? nil
    }
}
