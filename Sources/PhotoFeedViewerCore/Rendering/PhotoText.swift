import Foundation
import PhotoFeed

/// How a photo's fields read in text output.
package enum PhotoText {
    /// The title, or `(untitled)` when it is blank; control characters removed.
    package static func title(_ item: Photo.Item) -> String {
        let title = TerminalText.sanitized(item.title).trimmingCharacters(in: .whitespaces)
        return title.isEmpty ? "(untitled)" : title
    }

    /// The author's name from `nobody@flickr.com ("name")` or `nobody@flickr.com (name)`;
    /// the whole field when it has neither form.
    package static func author(_ item: Photo.Item) -> String {
        let raw = TerminalText.sanitized(item.author)
        guard let open = raw.firstIndex(of: "("), raw.hasSuffix(")") else { return raw }
        var name = String(raw[raw.index(after: open)..<raw.index(before: raw.endIndex)])
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
            name = String(name.dropFirst().dropLast())
        }
        return name.isEmpty ? raw : name
    }

    /// The publication date as `YYYY-MM-DD HH:MM` (UTC) when it is ISO 8601, else as given.
    package static func date(_ item: Photo.Item) -> String {
        let text = TerminalText.sanitized(item.published)
        let characters = Array(text)
        guard characters.count >= 16, characters[10] == "T" else { return text }
        return String(characters[0..<10]) + " " + String(characters[11..<16])
    }

    /// The link, control characters removed.
    package static func link(_ item: Photo.Item) -> String {
        TerminalText.sanitized(item.link)
    }
}

extension PhotoText {
    /// The tags as `#tag #tag`, control characters removed; empty when there are none.
    package static func tags(_ item: Photo.Item) -> String {
        TerminalText.sanitized(item.tags).split(separator: " ").map { "#" + $0 }.joined(separator: " ")
    }
}
