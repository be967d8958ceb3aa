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
    /// on `https://live.staticflickr.com/`; the file name is the same either way.
    public func page(number: Int, tags: [String] = [], tagmode: TagMode = .all, imageBaseURL: String? = nil) -> Data {
        let tags = Self.normalizedTags(tags)
        let page = max(0, number)
        let items = (0..<itemsPerPage).map { item(globalIndex: page * itemsPerPage + (itemsPerPage - 1 - $0), tags: tags, tagmode: tagmode,
                                                imageBaseURL: imageBaseURL) }
        var out: [UInt8] = []
        out.reserveCapacity(1_200 * max(1, itemsPerPage))
        func field(_ indent: String, _ name: String, _ value: String, comma: Bool = true, apostrophe: Bool = false) {
            out.append(contentsOf: "\(indent)\"\(name)\": \"".utf8)
            FlickrJSONEscaping.append(value, to: &out, invalidApostropheEscape: apostrophe)
            out.append(contentsOf: (comma ? "\",\n" : "\"\n").utf8)
        }
        let feedTitle: String
        let feedLink: String
        if tags.isEmpty {
            feedTitle = "Uploads from everyone"
            feedLink = "https://www.flickr.com/photos/"
        } else {
            feedTitle = "Recent Uploads tagged " + tags.joined(separator: tagmode == .all ? " and " : " or ")
            feedLink = "https://www.flickr.com/photos/tags/\(tags.joined(separator: ","))/"
        }
        let modified = items.first?.published ?? Self.baseTime + Int64(page * itemsPerPage)
        out.append(contentsOf: "{\n".utf8)
        field("\t\t", "title", feedTitle)
        field("\t\t", "link", feedLink)
        field("\t\t", "description", "")
        field("\t\t", "modified", Self.isoUTC(modified))
        field("\t\t", "generator", "https://www.flickr.com")
        out.append(contentsOf: "\t\t\"items\": [\n".utf8)
        for (position, item) in items.enumerated() {
            out.append(contentsOf: "\t   {\n".utf8)
            field("\t\t\t", "title", item.title, apostrophe: item.invalidApostrophe)
            field("\t\t\t", "link", item.link)
            out.append(contentsOf: "\t\t\t\"media\": {\"m\":\"".utf8)
            FlickrJSONEscaping.append(item.media, to: &out)
            out.append(contentsOf: "\"},\n".utf8)
            field("\t\t\t", "date_taken", item.dateTaken)
            field("\t\t\t", "description", item.description)
            field("\t\t\t", "published", Self.isoUTC(item.published))
            field("\t\t\t", "author", "nobody@flickr.com (\"\(item.author)\")")
            field("\t\t\t", "author_id", item.authorID)
            field("\t\t\t", "tags", item.tags.joined(separator: " "), comma: false)
            out.append(contentsOf: (position == items.count - 1 ? "\t   }\n" : "\t   },\n").utf8)
        }
        out.append(contentsOf: "        ]\n}".utf8)
        return Data(out)
    }

    struct Item {
        var title: String
        var invalidApostrophe: Bool
        var link: String
        var media: String
        var dateTaken: String
        var description: String
        var published: Int64
        var author: String
        var authorID: String
        var tags: [String]
    }

    /// The item at a position of the infinite stream (0 is the oldest).
    func item(globalIndex: Int, tags requested: [String], tagmode: TagMode, imageBaseURL: String? = nil) -> Item {
        var random = SplitMix64(seed: seed, stream: 1, index: UInt64(globalIndex))
        let authorIndex = Int.random(in: 0..<FeedVocabulary.authors.count, using: &random)
        let author = FeedVocabulary.authors[authorIndex]
        var authorRandom = SplitMix64(seed: seed, stream: 2, index: UInt64(authorIndex))
        let authorID = "\(UInt64.random(in: 10_000_000...199_999_999, using: &authorRandom))@N0\(Int.random(in: 0...8, using: &authorRandom))"
        let path = author.alias ?? authorID
        let photoID = 54_000_000_000 + UInt64(globalIndex) * 7 + UInt64.random(in: 0..<7, using: &random) + (seed % 1_000) * 100_000_000
        let secret = String(format: "%010llx", random.next() & 0xFF_FFFF_FFFF)
        let link = "https://www.flickr.com/photos/\(path)/\(photoID)/"
        let media = (imageBaseURL ?? "https://live.staticflickr.com/") + "65535/\(photoID)_\(secret)_m.jpg"
        let (title, invalidApostrophe) = Self.title(using: &random)
        let published = Self.baseTime + Int64(globalIndex) * 37 + Int64.random(in: 0..<30, using: &random)
        let taken = published - Int64.random(in: 3_600...(400 * 86_400), using: &random)
        let height = random.pick(FeedVocabulary.heights)
        let htmlTitle = FlickrJSONEscaping.html(title)
        var description = " <p><a href=\"https://www.flickr.com/people/\(path)/\">\(FlickrJSONEscaping.html(author.name))</a> posted a photo:</p>"
            + " <p><a href=\"\(link)\" title=\"\(htmlTitle)\"><img src=\"\(media)\" width=\"240\" height=\"\(height)\" alt=\"\(htmlTitle)\" /></a></p> "
        if random.chance(0.3) {
            description += "<p>\(FlickrJSONEscaping.html(random.pick(FeedVocabulary.captions)))</p>"
        }
        return Item(
            title: title,
            invalidApostrophe: invalidApostrophe,
            link: link,
            media: media,
            dateTaken: Self.isoTaken(taken),
            description: description,
            published: published,
            author: author.name,
            authorID: authorID,
            tags: Self.tags(requested: requested, tagmode: tagmode, using: &random)
        )
    }

    private static func title(using random: inout SplitMix64) -> (String, Bool) {
        let adjective = random.pick(FeedVocabulary.adjectives)
        let noun = random.pick(FeedVocabulary.nouns)
        let place = random.pick(FeedVocabulary.places)
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return (String(format: "DSC_%04d", Int.random(in: 1...9_999, using: &random)), false)
        case 1: return (String(format: "IMG_%04d", Int.random(in: 1...9_999, using: &random)), false)
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

    static func isoUTC(_ seconds: Int64) -> String {
        let (date, time) = civil(seconds)
        return "\(date)T\(time)Z"
    }

    /// Flickr writes `date_taken` in local time with a fixed `-08:00` offset.
    static func isoTaken(_ seconds: Int64) -> String {
        let (date, time) = civil(seconds - 8 * 3_600)
        return "\(date)T\(time)-08:00"
    }

    /// Splits Unix seconds into `YYYY-MM-DD` and `HH:MM:SS` (proleptic Gregorian, days-from-civil inverse).
    private static func civil(_ seconds: Int64) -> (String, String) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let date = String(format: "%04d-%02d-%02d", Int(year), Int(month), Int(day))
        let time = String(format: "%02d:%02d:%02d", Int(secondOfDay / 3_600), Int(secondOfDay % 3_600 / 60), Int(secondOfDay % 60))
        return (date, time)
    }
}
