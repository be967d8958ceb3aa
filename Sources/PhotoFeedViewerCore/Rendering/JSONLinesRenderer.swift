import Foundation
import PhotoFeed

/// `--json` output: one JSON object per photo per line.
public enum JSONLinesRenderer {
    /// One photo as `--json` prints it.
    public struct PhotoLine: Codable, Equatable, Sendable {
        /// The 1-based section the photo was shown in.
        public let section: Int
        /// The title as the feed has it.
        public let title: String
        /// The photo's page.
        public let link: String
        /// The author's name, parsed from the feed's `nobody@flickr.com ("name")`.
        public let author: String
        /// The author's Flickr id.
        public let authorID: String
        /// The medium image URL.
        public let media: String
        /// When the photo was published.
        public let published: String
        /// When it was taken, if known.
        public let dateTaken: String?
        /// Space-separated tags.
        public let tags: String

        /// The line of `item` in section `section`.
        public init(section: Int, item: Photo.Item) {
            self.section = section
            self.title = item.title
            self.link = item.link
            self.author = PhotoText.author(item)
            self.authorID = item.authorID
            self.media = item.media.m
            self.published = item.published
            self.dateTaken = item.dateTaken
            self.tags = item.tags
        }
    }

    /// The lines of section `number` (1-based): compact JSON, keys sorted.
    public static func lines(for section: PhotoSection, number: Int) -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return section.items.compactMap { row in
            guard let data = try? encoder.encode(PhotoLine(section: number, item: row.photo)) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
