extension Photo {
    /// One photo of the feed. Equality and hashing use `link` only: two items with the same
    /// link are the same photo, even when another field changed (see ``hasSameContent(as:)``).
    public struct Item: Decodable, Encodable, Sendable, Hashable {
        /// The photo's title; may be a single space or empty.
        public var title: String
        /// The photo's page: the identity of the item.
        public var link: String
        /// The image URLs.
        public var media: Media
        /// `nobody@flickr.com (name)` or `nobody@flickr.com ("name")`.
        public var author: String
        /// The author's Flickr id (`author_id`).
        public var authorID: String
        /// When the photo was taken (`date_taken`), if Flickr reports it.
        public var dateTaken: String?
        /// When the photo was published, as ISO 8601 text.
        public var published: String
        /// Space-separated tags; may be empty.
        public var tags: String
        /// HTML description as Flickr writes it.
        public var description: String

        /// An item as the feed would carry it; equality and hashing use `link` only.
        public init(
            title: String,
            link: String,
            media: Media,
            author: String,
            authorID: String,
            dateTaken: String? = nil,
            published: String,
            tags: String,
            description: String
        ) {
            self.title = title
            self.link = link
            self.media = media
            self.author = author
            self.authorID = authorID
            self.dateTaken = dateTaken
            self.published = published
            self.tags = tags
            self.description = description
        }

        private enum CodingKeys: String, CodingKey {
            case title, link, media, author, published, tags, description
            case authorID = "author_id"
            case dateTaken = "date_taken"
        }

        /// Decodes an item; `date_taken` never fails the decode.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(String.self, forKey: .title)
            link = try container.decode(String.self, forKey: .link)
            media = try container.decode(Media.self, forKey: .media)
            author = try container.decode(String.self, forKey: .author)
            authorID = try container.decode(String.self, forKey: .authorID)
            dateTaken = container.lenientString(forKey: .dateTaken)
            published = try container.decode(String.self, forKey: .published)
            tags = try container.decode(String.self, forKey: .tags)
            description = try container.decode(String.self, forKey: .description)
        }

        /// Items are equal when their links are equal.
        public static func == (lhs: Item, rhs: Item) -> Bool {
            lhs.link == rhs.link
        }

        /// Hashes the link only, consistent with `==`.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(link)
        }

        /// Whether every field, not only `link`, equals the other item's.
        public func hasSameContent(as other: Item) -> Bool {
            link == other.link
                && title == other.title
                && media == other.media
                && author == other.author
                && authorID == other.authorID
                && dateTaken == other.dateTaken
                && published == other.published
                && tags == other.tags
                && description == other.description
        }
    }
}
