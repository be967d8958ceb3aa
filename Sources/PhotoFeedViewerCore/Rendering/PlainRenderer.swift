import PhotoFeed

/// `--plain` output: a `Section N - K photos` line, then one line per photo.
package enum PlainRenderer {
    /// The lines of section `number` (1-based); with `local` (where links live that do not
    /// outlast the run, as `--json` marks them), each photo's line ends with `| local: ` and it.
    ///
    /// ```
    /// Section 1 - 2 photos
    ///   Morning over the fjord | Ingrid Dahl | 2026-11-20 08:14 | https://www.flickr.com/photos/...
    /// ```
    package static func lines(for section: PhotoSection, number: Int, style: TextStyle = .none, local: String? = nil) -> [String] {
        let count = section.items.count
        var lines = [style.bold("Section \(number) - \(count) photo\(count == 1 ? "" : "s")")]
        for row in section.items {
            let item = row.photo
            let mark = local.map { " | local: \(TerminalText.sanitized($0))" } ?? ""
            lines.append("  \(PhotoText.title(item)) | \(PhotoText.author(item)) | \(PhotoText.date(item)) | \(PhotoText.link(item))" + mark)
        }
        return lines
    }

    /// The lines of `sections`, numbered from `firstNumber`.
    package static func lines(for sections: [PhotoSection], firstNumber: Int = 1, style: TextStyle = .none) -> [String] {
        sections.enumerated().flatMap { offset, section in
            lines(for: section, number: firstNumber + offset, style: style)
        }
    }
}
