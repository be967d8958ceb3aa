import Foundation
import PhotoFeed

/// `--json` output: one JSON object per photo per line.
package enum JSONLinesRenderer {
    /// One photo as `--json` prints it.
    package struct PhotoLine: Codable, Equatable, Sendable {
        /// The 1-based section the photo was shown in.
        package let section: Int
        /// The title as the feed has it.
        package let title: String
        /// The photo's page.
        package let link: String
        /// The author's name, parsed from the feed's `nobody@flickr.com ("name")`.
        package let author: String
        /// The author's Flickr id.
        package let authorID: String
        /// The medium image URL.
        package let media: String
        /// When the photo was published.
        package let published: String
        /// When it was taken, if known.
        package let dateTaken: String?
        /// Space-separated tags.
        package let tags: String
        /// With `--demo`: that `link` and `media` are on the demo server, in the process, gone once
        /// `photo-feed` exits; absent otherwise.
        package let local: String?

        /// The line of `item` in section `section`; `local` says where links live that do not outlast the run.
        package init(section: Int, item: Photo.Item, local: String? = nil) {
            self.section = section
            self.title = item.title
            self.link = item.link
            self.author = PhotoText.author(item)
            self.authorID = item.authorID
            self.media = item.media.m
            self.published = item.published
            self.dateTaken = item.dateTaken
            self.tags = item.tags
            self.local = local
        }
    }

    /// The lines of section `number` (1-based): compact JSON, keys sorted, each with `local` when given.
    package static func lines(for section: PhotoSection, number: Int, local: String? = nil) -> [String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return section.items.compactMap { row in
            guard let data = try? encoder.encode(PhotoLine(section: number, item: row.photo, local: local)) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
    }
}
