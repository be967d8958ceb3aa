import Foundation

/// Generates Flickr-shaped public-feed JSON (`photos_public.gne?format=json&nojsoncallback=1`),
/// deterministically from a seed and a page number: every page holds new items.
///
/// The bytes carry the escapes real feeds do: `\/` everywhere, `\"` in some titles, `\uXXXX`
/// for every non-ASCII character (surrogate pairs for emoji), and the invalid escape `\'` in
/// some titles, so the output is valid JSON once the backslash of each `\'` is removed.
public struct FeedGenerator: Sendable {
    /// How several requested tags combine, as Flickr's `tagmode` parameter.
    public enum TagMode: String, Sendable, CaseIterable {
        /// Items carry every requested tag.
        case all
        /// Items carry at least one requested tag.
        case any
    }

    /// The seed every page is derived from.
    public let seed: UInt64
    /// Items on each page.
    public let itemsPerPage: Int

    /// The first `published` time of page 0: 2026-01-01T00:00:00Z.
    static let baseTime: Int64 = 1_767_225_600

    /// Creates a generator.
    public init(seed: UInt64 = 1, itemsPerPage: Int = 20) {
        self.seed = seed
        self.itemsPerPage = max(0, itemsPerPage)
    }

    /// Splits a `tags` query value (`cats,dogs`) into the normalized tags the generator uses:
    /// trimmed, lowercased, without empties or duplicates.
    public static func normalizedTags(_ raw: String) -> [String] {
        normalizedTags(raw.split(separator: ",").map(String.init))
    }

    /// Normalizes tags: trimmed, lowercased, without empties or duplicates, order kept.
    public static func normalizedTags(_ tags: [String]) -> [String] {
        var seen = Set<String>()
        return tags.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// Page `number` (0, 1, 2, ...) as bare JSON: newest items first, each page newer than the last.
    /// `media.m` is below `imageBaseURL` when given (e.g. `http://127.0.0.1:PORT/images/`), else
    /// on `https://live.staticflickr.com/`; the file name is the same either way. Each photo's
    /// `link` (and the links in its description) is below `pageBaseURL` when given (e.g.
    /// `http://127.0.0.1:PORT/`, whose `photos/<author>/<id>/` pages `FeedServer` serves), else on
    /// `https://www.flickr.com/`, where the invented ids lead nowhere.
    public func page(number: Int, tags: [String] = [], tagmode: TagMode = .all, imageBaseURL: String? = nil,
                     pageBaseURL: String? = nil) -> Data {
        let tags = Self.normalizedTags(tags)
        let page = max(0, number)
        let items = (0..<itemsPerPage).map { item(globalIndex: page * itemsPerPage + (itemsPerPage - 1 - $0), tags: tags, tagmode: tagmode,
                                                imageBaseURL: imageBaseURL, pageBaseURL: pageBaseURL) }
        var out = FeedJSONWriter(capacity: 1_200 * max(1, itemsPerPage))
        func field(_ indent: StaticString, _ name: StaticString, comma: Bool = true, value: (inout FeedJSONWriter) -> Void) {
            out.raw(indent)
            out.raw("\"")
            out.raw(name)
            out.raw("\": \"")
            value(&out)
            out.raw(comma ? "\",\n" : "\"\n")
        }
        let modified = items.first?.published ?? Self.baseTime + Int64(page * itemsPerPage)
        out.raw("{\n")
        field("\t\t", "title") { out in
            if tags.isEmpty {
                out.escaped("Uploads from everyone")
            } else {
                out.escaped("Recent Uploads tagged " + tags.joined(separator: tagmode == .all ? " and " : " or "))
            }
        }
        field("\t\t", "link") { out in
            out.escaped(tags.isEmpty ? "https://www.flickr.com/photos/" : "https://www.flickr.com/photos/tags/\(tags.joined(separator: ","))/")
        }
        field("\t\t", "description") { _ in }
        field("\t\t", "modified") { $0.isoDateTime(modified) }
        field("\t\t", "generator") { $0.escaped("https://www.flickr.com") }
        out.raw("\t\t\"items\": [\n")
        for (position, item) in items.enumerated() {
            out.raw("\t   {\n")
            field("\t\t\t", "title") { $0.escaped(item.title, invalidApostropheEscape: item.invalidApostrophe) }
            field("\t\t\t", "link") { item.writeLink(to: &$0) }
            out.raw("\t\t\t\"media\": {\"m\":\"")
            item.writeMedia(to: &out)
            out.raw("\"},\n")
            // Flickr writes `date_taken` in local time with a fixed `-08:00` offset.
            field("\t\t\t", "date_taken") { $0.isoDateTime(item.taken, offsetHours: -8) }
            field("\t\t\t", "description") { item.writeDescription(to: &$0) }
            field("\t\t\t", "published") { $0.isoDateTime(item.published) }
            field("\t\t\t", "author") { out in
                out.escaped("nobody@flickr.com (\"")
                out.escaped(item.author.name)
                out.escaped("\")")
            }
            field("\t\t\t", "author_id") { $0.escaped(item.authorID) }
            field("\t\t\t", "tags", comma: false) { $0.escaped(item.tags.joined(separator: " ")) }
            out.raw(position == items.count - 1 ? "\t   }\n" : "\t   },\n")
        }
        out.raw("        ]\n}")
        return Data(out.bytes)
    }

    /// One item's values, drawn from its own random stream; the page writes them.
    struct Item {
        var title: String
        var invalidApostrophe: Bool
        var author: FeedVocabulary.Author
        var authorID: String
        var photoID: UInt64
        var secret: UInt64
        var imageBaseURL: String
        var pageBaseURL: String
        var taken: Int64
        var published: Int64
        var height: Int
        var caption: String?
        var tags: [String]

        /// The path of the author's pages: their alias, else their id.
        var authorPath: String { author.alias ?? authorID }

        /// `<page base>photos/<path>/<photo id>/`
        func writeLink(to out: inout FeedJSONWriter) {
            out.escaped(pageBaseURL)
            out.escaped("photos/")
            out.escaped(authorPath)
            out.escaped("/")
            out.decimal(photoID)
            out.escaped("/")
        }

        /// The path of the photo's page below the page base: `photos/<path>/<photo id>/`.
        var pagePath: String { "photos/\(authorPath)/\(photoID)/" }

        /// The path of the picture below the image base: `65535/<photo id>_<secret>_m.jpg`.
        var mediaPath: String {
            let hex = String(secret, radix: 16)
            return "65535/\(photoID)_\(String(repeating: "0", count: max(0, 10 - hex.count)) + hex)_m.jpg"
        }

        /// `<image base>65535/<photo id>_<secret>_m.jpg`
        func writeMedia(to out: inout FeedJSONWriter) {
            out.escaped(imageBaseURL)
            out.escaped("65535/")
            out.decimal(photoID)
            out.escaped("_")
            out.hex(secret, width: 10)
            out.escaped("_m.jpg")
        }

        /// Flickr's HTML description: who posted, the linked picture, and sometimes a caption.
        func writeDescription(to out: inout FeedJSONWriter) {
            out.escaped(" <p><a href=\"")
            out.escaped(pageBaseURL)
            out.escaped(pageBaseURL == FeedGenerator.flickrPages ? "people/" : "photos/")
            out.escaped(authorPath)
            out.escaped("/\">")
            out.escapedHTML(author.name)
            out.escaped("</a> posted a photo:</p> <p><a href=\"")
            writeLink(to: &out)
            out.escaped("\" title=\"")
            out.escapedHTML(title)
            out.escaped("\"><img src=\"")
            writeMedia(to: &out)
            out.escaped("\" width=\"240\" height=\"")
            out.decimal(Int64(height))
            out.escaped("\" alt=\"")
            out.escapedHTML(title)
            out.escaped("\" /></a></p> ")
            if let caption {
                out.escaped("<p>")
                out.escapedHTML(caption)
                out.escaped("</p>")
            }
        }
    }

    /// Flickr's site, where links point without a page base.
    static let flickrPages = "https://www.flickr.com/"

    /// The item whose photo id is `photoID`, if this generator makes one (its tags are those of a
    /// page without requested tags).
    func item(photoID: UInt64) -> Item? {
        let first = 54_000_000_000 + (seed % 1_000) * 100_000_000
        guard photoID >= first, (photoID - first) / 7 <= UInt64(Int.max) else { return nil }
        let candidate = item(globalIndex: Int((photoID - first) / 7), tags: [], tagmode: .all)
        return candidate.photoID == photoID ? candidate : nil
    }

    /// The author whose page path (alias, else id) is `path`.
    func author(path: String) -> FeedVocabulary.Author? {
        FeedVocabulary.authors.indices.first { index in
            let author = FeedVocabulary.authors[index]
            return (author.alias ?? authorID(authorIndex: index)) == path
        }.map { FeedVocabulary.authors[$0] }
    }

    /// The id of author number `authorIndex`: `12345678@N01`, the same on every page.
    private func authorID(authorIndex: Int) -> String {
        var authorRandom = SplitMix64(seed: seed, stream: 2, index: UInt64(authorIndex))
        return "\(UInt64.random(in: 10_000_000...199_999_999, using: &authorRandom))@N0\(Int.random(in: 0...8, using: &authorRandom))"
    }

    /// The item at a position of the infinite stream (0 is the oldest).
    func item(globalIndex: Int, tags requested: [String], tagmode: TagMode, imageBaseURL: String? = nil, pageBaseURL: String? = nil) -> Item {
        var random = SplitMix64(seed: seed, stream: 1, index: UInt64(globalIndex))
        let authorIndex = Int.random(in: 0..<FeedVocabulary.authors.count, using: &random)
        let authorID = authorID(authorIndex: authorIndex)
        let photoID = 54_000_000_000 + UInt64(globalIndex) * 7 + UInt64.random(in: 0..<7, using: &random) + (seed % 1_000) * 100_000_000
        let secret = random.next() & 0xFF_FFFF_FFFF
        let (title, invalidApostrophe) = Self.title(using: &random)
        let published = Self.baseTime + Int64(globalIndex) * 37 + Int64.random(in: 0..<30, using: &random)
        let taken = published - Int64.random(in: 3_600...(400 * 86_400), using: &random)
        let height = random.pick(FeedVocabulary.heights)
        let caption = random.chance(0.3) ? random.pick(FeedVocabulary.captions) : nil
        return Item(
            title: title,
            invalidApostrophe: invalidApostrophe,
            author: FeedVocabulary.authors[authorIndex],
            authorID: authorID,
            photoID: photoID,
            secret: secret,
            imageBaseURL: imageBaseURL ?? "https://live.staticflickr.com/",
            pageBaseURL: pageBaseURL ?? Self.flickrPages,
            taken: taken,
            published: published,
            height: height,
            caption: caption,
            tags: Self.tags(requested: requested, tagmode: tagmode, using: &random)
        )
    }

    private static func title(using random: inout SplitMix64) -> (String, Bool) {
        let adjective = random.pick(FeedVocabulary.adjectives)
        let noun = random.pick(FeedVocabulary.nouns)
        let place = random.pick(FeedVocabulary.places)
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return ("DSC_" + fourDigits(Int.random(in: 1...9_999, using: &random)), false)
        case 1: return ("IMG_" + fourDigits(Int.random(in: 1...9_999, using: &random)), false)
        case 2: return ("\(adjective) \(noun)", false)
        case 3: return ("\(adjective) \(noun) in \(place)", false)
        case 4: return ("\(random.pick(FeedVocabulary.possessors))'s \(noun)", true)
        case 5: return ("Don't miss the \(noun) at \(place)", true)
        case 6: return ("\"\(adjective) hour\" at the \(noun)", false)
        case 7: return ("\(noun.capitalized) \(random.pick(FeedVocabulary.emoji))", false)
        case 8: return (" ", false)
        case 9: return ("\(place) / \(noun)", false)
        case 10: return ("Café near the \(noun), \(place)", false)
        default: return ("\(place) \(adjective.lowercased()) \(noun)", false)
        }
    }

    private static func tags(requested: [String], tagmode: TagMode, using random: inout SplitMix64) -> [String] {
        var result: [String]
        switch tagmode {
        case .all:
            result = requested
        case .any:
            result = requested.filter { _ in random.chance(0.5) }
            if result.isEmpty, !requested.isEmpty { result = [random.pick(requested)] }
        }
        if requested.isEmpty && random.chance(0.1) { return [] }
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let tag = random.pick(FeedVocabulary.tags)
            if !result.contains(tag) { result.append(tag) }
        }
        result.shuffle(using: &random)
        return result
    }

    /// `value` (0...9999) as four digits, as a camera names its files.
    private static func fourDigits(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
