import PhotoFeed

/// The full-screen view: a header, the photos of the sections scrolled by `state.scroll` (each
/// with its thumbnail box when images are on), an error banner, and a footer with where the
/// selection is, a notice, or the prompt being typed. Exactly `height` lines, each `width`
/// columns wide once escapes are removed.
package enum ScreenRenderer {
    /// The spinner's frames.
    package static let spinnerFrames = ["|", "/", "-", "\\"]
    /// The width of a thumbnail box in cells.
    package static let thumbnailColumns = 12
    /// The height of a thumbnail box in cells (and the lines of a photo when images are on).
    package static let thumbnailRows = 4
    /// The keys, as `?` shows them.
    package static let keyHelp = [
        "j k ↑ ↓      select the next or previous photo",
        "PgUp PgDn    a page up or down     g G   first or last photo",
        "Enter o      open the photo's page in the browser",
        "y            copy the photo's link (OSC 52)",
        "/            filter loaded photos by title, author or tag (Esc clears)",
        "i            thumbnails on or off",
        "n            load more (the selection moves to the new photos)",
        "r            reload (the old photos stay until the new ones arrive)",
        "t            new tags (←/→ move, Ctrl-U clear to the start, Ctrl-W delete a word)",
        "?            these keys (any key closes)",
        "q Ctrl-C     quit",
    ]

    /// The lines of the screen; `thumbnails` by media URL, drawn as `graphics` says (half blocks
    /// go into the lines; other protocols leave the box blank for ``placements(for:width:height:thumbnails:)``).
    package static func lines(
        for state: ScreenState, width: Int, height: Int, style: TextStyle,
        thumbnails: [String: ThumbnailCell] = [:], graphics: ThumbnailProtocol = .none
    ) -> [String] {
        guard width > 0, height > 0 else { return [] }
        var lines = [style.inverse(TerminalText.fitted(header(state), to: width))]
        let layout = Layout(state, width: width)
        let visible = bodyHeight(state, height: height)
        let first = min(max(0, state.scroll), max(0, layout.rows.count - visible))
        var blocks: [Int: [String]] = [:]
        if state.imagesEnabled, case .halfBlocks(let depth) = graphics {
            for index in first..<min(layout.rows.count, first + visible) {
                guard case .photo(let photo, _) = layout.rows[index], blocks[photo] == nil,
                      case .loaded(let image)? = thumbnails[layout.photos[photo].media.m] else { continue }
                blocks[photo] = HalfBlockRenderer.lines(for: image, columns: thumbnailColumns, rows: thumbnailRows, depth: depth)
            }
        }
        for index in first..<(first + visible) {
            if index < layout.rows.count {
                lines.append(render(layout.rows[index], layout: layout, state: state, width: width, style: style,
                                    thumbnails: thumbnails, blocks: blocks))
            } else if index == 0 && layout.rows.isEmpty {
                let hint: String
                if state.inFlight > 0 || state.reloading {
                    hint = "Loading photos..."
                } else if !state.filter.isEmpty && state.photoCount > 0 {
                    hint = "No loaded photo matches \"\(TerminalText.sanitized(state.filter))\". Press / then Esc to clear."
                } else {
                    hint = "No photos yet. Press n to load."
                }
                lines.append(style.dim(TerminalText.fitted("  " + hint, to: width)))
            } else {
                lines.append(String(repeating: " ", count: width))
            }
        }
        if let message = state.errorMessage, height >= 3 {
            lines.append(style.alert(TerminalText.fitted(" ! " + TerminalText.sanitized(message), to: width)))
        }
        if height >= 2 {
            lines.append(footer(state, width: width, style: style))
        }
        return Array(lines.prefix(height))
    }

    /// The loaded thumbnails whose whole box is on screen, where they go.
    package static func placements(
        for state: ScreenState, width: Int, height: Int, thumbnails: [String: ThumbnailCell]
    ) -> [ThumbnailPlacement] {
        guard state.imagesEnabled, !state.showingHelp, width > thumbnailColumns + 4 else { return [] }
        let layout = Layout(state, width: width)
        let visible = bodyHeight(state, height: height)
        let first = min(max(0, state.scroll), max(0, layout.rows.count - visible))
        var placements: [ThumbnailPlacement] = []
        for index in first..<min(layout.rows.count, first + visible) {
            guard case .photo(let photo, 0) = layout.rows[index], index + thumbnailRows <= first + visible,
                  case .loaded(let image)? = thumbnails[layout.photos[photo].media.m] else { continue }
            placements.append(ThumbnailPlacement(row: 2 + index - first, column: 3, columns: thumbnailColumns,
                                                 rows: thumbnailRows, image: image, id: photo))
        }
        return placements
    }

    /// The photos with at least one line on screen, top first: the thumbnails to load.
    package static func visiblePhotos(_ state: ScreenState, width: Int, height: Int) -> [Photo.Item] {
        guard !state.showingHelp else { return [] }
        let layout = Layout(state, width: width)
        let visible = bodyHeight(state, height: height)
        let first = min(max(0, state.scroll), max(0, layout.rows.count - visible))
        var seen = Set<Int>()
        var photos: [Photo.Item] = []
        for index in first..<min(layout.rows.count, first + visible) {
            if case .photo(let photo, _) = layout.rows[index], seen.insert(photo).inserted {
                photos.append(layout.photos[photo])
            }
        }
        return photos
    }

    /// Body rows visible at once for a screen `height` lines high.
    package static func bodyHeight(_ state: ScreenState, height: Int) -> Int {
        let banner = state.errorMessage != nil && height >= 3 ? 1 : 0
        let footer = height >= 2 ? 1 : 0
        return max(0, height - 1 - banner - footer)
    }

    /// The largest useful `scroll` for this state and size.
    package static func maxScroll(_ state: ScreenState, width: Int, height: Int) -> Int {
        max(0, Layout(state, width: width).rows.count - bodyHeight(state, height: height))
    }

    /// The body rows of photo `index` of `shownPhotos` (first and last), including its section's
    /// header line when it is the first photo of its section.
    package static func rowRange(ofPhoto index: Int, _ state: ScreenState, width: Int) -> ClosedRange<Int>? {
        let rows = Layout(state, width: width).rows
        guard let first = rows.firstIndex(where: { if case .photo(index, 0) = $0 { true } else { false } }) else { return nil }
        let last = rows.lastIndex(where: { if case .photo(index, _) = $0 { true } else { false } }) ?? first
        if first > 0, case .section = rows[first - 1] { return (first - 1)...last }
        return first...last
    }

    /// The header text: program, tags, counts, source, and the spinner while loading.
    package static func header(_ state: ScreenState) -> String {
        let sections = state.sections.count
        var parts = [
            " photo-feed",
            "tags: \(TerminalText.sanitized(state.request.tags)) (\(state.request.tagmode))",
            "\(sections) section\(sections == 1 ? "" : "s"), \(state.photoCount) photo\(state.photoCount == 1 ? "" : "s")",
            state.sourceLabel,
        ]
        if let change = state.lastChange { parts.append(change) }
        if let interval = state.watchInterval { parts.append("every \(seconds(interval))") }
        if state.reloading { parts.append("reloading") }
        if state.inFlight > 0 {
            parts.append("\(spinnerFrames[state.spinnerFrame % spinnerFrames.count]) loading")
        }
        return parts.joined(separator: "  ·  ")
    }

    private static func footer(_ state: ScreenState, width: Int, style: TextStyle) -> String {
        if let prompt = state.prompt {
            return TerminalText.fitted(" New tags: \(edited(prompt, cursor: state.promptCursor))   (Enter load, Esc cancel)", to: width)
        }
        if let filter = state.filterPrompt {
            return TerminalText.fitted(" Filter: \(edited(filter, cursor: state.promptCursor))   (Enter keep, Esc clear)", to: width)
        }
        var parts: [String] = []
        let shown = state.shownPhotos.count
        if shown > 0 { parts.append("photo \(min(shown, state.selection + 1)) of \(shown)") }
        if !state.filter.isEmpty { parts.append("filter \"\(TerminalText.sanitized(state.filter))\"") }
        if let notice = state.notice { parts.append(TerminalText.sanitized(notice)) }
        let keys = "↑/↓ select  Enter open  y copy  / filter  i images  n more  r reload  t tags  ? keys  q quit"
        let status = parts.isEmpty ? "" : " " + parts.joined(separator: " · ") + "  │"
        return style.dim(TerminalText.fitted(status + " " + keys, to: width))
    }

    /// `text` with the cursor shown: `_` at the end, `|` before the character it is on.
    private static func edited(_ text: String, cursor: Int) -> String {
        let characters = Array(TerminalText.sanitized(text))
        let at = min(max(0, cursor), characters.count)
        if at == characters.count { return String(characters) + "_" }
        return String(characters[..<at]) + "|" + String(characters[at...])
    }

    private static func seconds(_ duration: Duration) -> String {
        let millis = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return millis % 1000 == 0 ? "\(millis / 1000)s" : "\(Double(millis) / 1000)s"
    }

    /// One row of the body.
    enum Row: Equatable {
        case section(String)
        /// Line `line` of photo `index` of `shownPhotos`.
        case photo(Int, line: Int)
        case help(String)
    }

    /// The body rows of a state at a width, and the photos they refer to.
    struct Layout {
        let rows: [Row]
        let photos: [Photo.Item]

        init(_ state: ScreenState, width: Int) {
            guard !state.showingHelp else {
                rows = ["Keys"].map(Row.section) + ScreenRenderer.keyHelp.map { Row.help("  " + $0) }
                photos = []
                return
            }
            let linesPerPhoto = state.imagesEnabled ? ScreenRenderer.thumbnailRows : 2
            var rows: [Row] = []
            var photos: [Photo.Item] = []
            for section in state.shownSections {
                let count = section.photos.count
                let title = "── Section \(section.number) · \(count) photo\(count == 1 ? "" : "s") "
                rows.append(.section(title + String(repeating: "─", count: max(0, width - TerminalText.columns(of: title)))))
                for photo in section.photos {
                    for line in 0..<linesPerPhoto { rows.append(.photo(photos.count, line: line)) }
                    photos.append(photo)
                }
            }
            self.rows = rows
            self.photos = photos
        }
    }

    private static func render(
        _ row: Row, layout: Layout, state: ScreenState, width: Int, style: TextStyle,
        thumbnails: [String: ThumbnailCell], blocks: [Int: [String]]
    ) -> String {
        switch row {
        case .section(let text):
            return style.accent(TerminalText.fitted(text, to: width))
        case .help(let text):
            return TerminalText.fitted(text, to: width)
        case .photo(let index, let line):
            let item = layout.photos[index]
            let selected = index == state.selection
            let marker = selected && line == 0 ? "▸ " : "  "
            let text: String
            if state.imagesEnabled {
                let fields = [PhotoText.title(item), "\(PhotoText.author(item)) · \(PhotoText.date(item))",
                              PhotoText.tags(item), PhotoText.link(item)]
                text = line < fields.count ? fields[line] : ""
            } else {
                text = line == 0 ? PhotoText.title(item) : "  \(PhotoText.author(item)) · \(PhotoText.date(item)) · \(PhotoText.link(item))"
            }
            let box = state.imagesEnabled && width > thumbnailColumns + 4
            let prefix = marker + (box ? thumbnailLine(thumbnails[item.media.m], blocks: blocks[index], line: line, style: style) + " " : "")
            let prefixColumns = 2 + (box ? thumbnailColumns + 1 : 0)
            let body = TerminalText.fitted(text, to: max(0, width - prefixColumns))
            let styledBody = line == 0 ? (selected ? style.inverse(body) : style.bold(body)) : style.dim(body)
            if prefixColumns > width { return TerminalText.fitted(marker, to: width) }
            return (selected ? style.accent(marker) : marker) + String(prefix.dropFirst(2)) + styledBody
        }
    }

    /// Line `line` of a thumbnail box: the picture's half blocks (`blocks`), blanks for the
    /// graphics protocols to draw over, or a dim placeholder with the state in one word.
    private static func thumbnailLine(_ cell: ThumbnailCell?, blocks: [String]?, line: Int, style: TextStyle) -> String {
        switch cell {
        case .loaded?:
            guard let blocks, blocks.indices.contains(line) else { return String(repeating: " ", count: thumbnailColumns) }
            return blocks[line]
        case .failed(let reason)?:
            return placeholder(line == 1 ? reason : "", style: style)
        case .loading?, nil:
            return placeholder(line == 1 ? "···" : "", style: style)
        }
    }

    private static func placeholder(_ word: String, style: TextStyle) -> String {
        let text = TerminalText.truncated(TerminalText.sanitized(word), to: thumbnailColumns - 2)
        let padding = thumbnailColumns - TerminalText.columns(of: text)
        let left = padding / 2
        let line = "░" + String(repeating: " ", count: max(0, left - 1)) + text
            + String(repeating: " ", count: max(0, padding - left - 1)) + "░"
        return style.dim(line)
    }
}
