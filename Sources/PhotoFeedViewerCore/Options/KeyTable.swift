/// The viewer's keys, written once: the `?` screen (`ScreenRenderer.keyHelp`), `--help`
/// (`Usage.text`) and docs/PHOTO_FEED.md's table (checked by a test) are all made from it.
package enum KeyTable {
    /// One row: the keys as the screen names them, and what they do.
    package struct Entry: Sendable, Equatable {
        /// The keys, as shown (`PgUp`, `↑`, `Ctrl-C`, single characters).
        package let keys: [String]
        /// What they do.
        package let action: String
        /// Whether the row needs pictures (`i`, `p`): where none can be drawn the screen says why instead.
        package let needsPictures: Bool

        init(_ keys: [String], _ action: String, needsPictures: Bool = false) {
            self.keys = keys
            self.action = action
            self.needsPictures = needsPictures
        }
    }

    /// Every key the viewer takes in full screen, in the order they are listed.
    package static let entries: [Entry] = [
        Entry(["j", "k", "↑", "↓"], "select the next or previous photo"),
        Entry(["PgUp", "PgDn"], "a page up or down (also b, and Space or f)"),
        Entry(["g", "G"], "the first or last photo (also Home, End)"),
        Entry(["Enter", "o"], "open the photo's page in the browser"),
        Entry(["y"], "copy the photo's link (OSC 52)"),
        Entry(["/"], "filter loaded photos by title, author or tag, ignoring case and accents (Esc clears)"),
        Entry(["i"], "thumbnails on or off", needsPictures: true),
        Entry(["p"], "the selected photo as large as the screen allows (any key returns)", needsPictures: true),
        Entry(["n"], "load more (the selection moves to the new photos)"),
        Entry(["r"], "reload (the old photos stay until the new ones arrive)"),
        Entry(["t"], "new tags (←/→ move, Ctrl-U clear to the start, Ctrl-W delete a word)"),
        Entry(["?"], "these keys (any key closes)"),
        Entry(["q", "Ctrl-C"], "quit"),
    ]

    /// The width of the keys' column on the screen and in `--help`.
    static let keyColumn = 13

    /// A row as the screen shows it: the keys, padded to the column, then the action.
    static func line(keys: [String], action: String) -> String {
        let shown = keys.joined(separator: " ")
        return shown + String(repeating: " ", count: max(1, keyColumn - TerminalText.columns(of: shown))) + action
    }

    /// The rows as `?` shows them: where no pictures can be drawn, one row for `i` and `p` saying
    /// `picturesOff` (why) in place of theirs.
    package static func lines(picturesAvailable: Bool, picturesOff: String) -> [String] {
        var lines: [String] = []
        for entry in entries {
            if entry.needsPictures && !picturesAvailable {
                if entry == entries.first(where: \.needsPictures) {
                    lines.append(line(keys: entries.filter(\.needsPictures).flatMap(\.keys), action: picturesOff))
                }
            } else {
                lines.append(line(keys: entry.keys, action: entry.action))
            }
        }
        return lines
    }

    /// The keys section of `--help`: every row, wrapped to `width` columns under the action.
    package static func usageSection(width: Int = 79) -> String {
        let rows = entries.flatMap { entry in
            TerminalText.wrapped("  " + line(keys: entry.keys, action: entry.action), to: width, indent: keyColumn + 2)
        }
        return (["Keys (full screen):"] + rows).joined(separator: "\n")
    }

    /// The table docs/PHOTO_FEED.md shows under "Keys".
    package static var markdown: String {
        let rows = entries.map { entry in
            "| " + entry.keys.map { "`\($0)`" }.joined(separator: " ") + " | " + entry.action + " |"
        }
        return (["| Keys | |", "|---|---|"] + rows).joined(separator: "\n")
    }
}
