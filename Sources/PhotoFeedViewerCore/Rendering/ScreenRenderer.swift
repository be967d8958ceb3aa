import PhotoFeed

/// The full-screen view: a header, the photos of the sections scrolled by `state.scroll` (each
/// with its thumbnail box when images are on), an error banner, and a footer with where the
/// selection is, a notice, or the prompt being typed. Exactly `height` lines, each `width`
/// columns wide once escapes are removed.
package enum ScreenRenderer {
    /// The spinner's frames.
    package static let spinnerFrames = ["|", "/", "-", "\\"]
    /// The width of the smallest thumbnail box in cells (at 96 columns and below).
    package static let thumbnailColumns = 12
    /// The height of the smallest thumbnail box in cells.
    package static let thumbnailRows = 4
    /// The largest thumbnail box, reached at 240 columns.
    package static let largestThumbnail = (columns: 30, rows: 10)

    /// The thumbnail box on a screen `width` columns wide: an eighth of the width in steps of
    /// three columns, from 12 x 4 to 30 x 10 cells (two pixels per cell in height, so 3:2 pictures).
    package static func thumbnailSize(width: Int) -> (columns: Int, rows: Int) {
        let columns = min(largestThumbnail.columns, max(thumbnailColumns, width / 8 / 3 * 3))
        return (columns, columns / 3)
    }

    /// The lines of each photo in the list: the thumbnail's height (at least the four text
    /// lines) when images are on, else two.
    package static func linesPerPhoto(_ state: ScreenState, width: Int) -> Int {
        state.imagesEnabled ? max(4, thumbnailSize(width: width).rows) : 2
    }
    /// The keys, as `?` shows them in `state` (`KeyTable`): `i` and `p` only where the screen can
    /// show pictures, else in their place why it cannot (naming `NO_COLOR` when that is the
    /// reason), as the footer offers only what the current mode can do.
    package static func keyHelp(_ state: ScreenState) -> [String] {
        KeyTable.lines(picturesAvailable: state.imagesAvailable, picturesOff: state.picturesOff.notice)
    }

    /// The lines of the screen; `thumbnails` by media URL, drawn as `graphics` says (half blocks
    /// go into the lines; other protocols leave the box blank for ``placements(for:width:height:thumbnails:preview:)``).
    /// While `state.previewing`, the body is the selected photo's `preview` picture instead.
    package static func lines(
        for state: ScreenState, width: Int, height: Int, style: TextStyle,
        thumbnails: [String: ThumbnailCell] = [:], graphics: ThumbnailProtocol = .none, preview: ThumbnailCell? = nil
    ) -> [String] {
        guard width > 0, height > 0 else { return [] }
        var lines = [style.inverse(TerminalText.fitted(header(state), to: width))]
        if state.previewing, !state.showingHelp, let photo = state.selectedPhoto {
            lines += PreviewRenderer.lines(for: photo, cell: preview, box: previewBox(state, width: width, height: height, cell: preview),
                                           width: width, height: bodyHeight(state, height: height), style: style, graphics: graphics)
            return finished(lines, state: state, width: width, height: height, style: style)
        }
        let layout = Layout(state, width: width)
        let visible = bodyHeight(state, height: height)
        let first = min(max(0, state.scroll), max(0, layout.rows.count - visible))
        var blocks: [Int: [String]] = [:]
        let box = thumbnailSize(width: width)
        if state.imagesEnabled, case .halfBlocks(let depth) = graphics {
            for index in first..<min(layout.rows.count, first + visible) {
                guard case .photo(let photo, _) = layout.rows[index], blocks[photo] == nil,
                      case .loaded(let image)? = thumbnails[layout.photos[photo].media.m] else { continue }
                blocks[photo] = HalfBlockRenderer.lines(for: image, columns: box.columns, rows: box.rows, depth: depth)
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
        return finished(lines, state: state, width: width, height: height, style: style)
    }

    /// `lines` (header and body) with the error banner and the footer below.
    private static func finished(_ lines: [String], state: ScreenState, width: Int, height: Int, style: TextStyle) -> [String] {
        var lines = lines
        if let message = state.errorMessage, height >= 3 {
            lines.append(style.alert(TerminalText.fitted(" ! " + TerminalText.sanitized(message), to: width)))
        }
        if height >= 2 {
            lines.append(footer(state, width: width, style: style))
        }
        return Array(lines.prefix(height))
    }

    /// The loaded thumbnails whose whole box is on screen, where they go; while previewing,
    /// the loaded `preview` picture in its box.
    package static func placements(
        for state: ScreenState, width: Int, height: Int, thumbnails: [String: ThumbnailCell], preview: ThumbnailCell? = nil
    ) -> [ThumbnailPlacement] {
        if state.previewing, !state.showingHelp, state.selectedPhoto != nil {
            guard case .loaded(let image)? = preview, let box = previewBox(state, width: width, height: height, cell: preview) else { return [] }
            return [ThumbnailPlacement(row: 2 + box.row, column: 1 + box.column, columns: box.columns, rows: box.rows,
                                       image: image, id: state.selection)]
        }
        let size = thumbnailSize(width: width)
        guard state.imagesEnabled, !state.showingHelp, width > size.columns + 4 else { return [] }
        let layout = Layout(state, width: width)
        let visible = bodyHeight(state, height: height)
        let first = min(max(0, state.scroll), max(0, layout.rows.count - visible))
        var placements: [ThumbnailPlacement] = []
        for index in first..<min(layout.rows.count, first + visible) {
            guard case .photo(let photo, 0) = layout.rows[index], index + size.rows <= first + visible,
                  case .loaded(let image)? = thumbnails[layout.photos[photo].media.m] else { continue }
            placements.append(ThumbnailPlacement(row: 2 + index - first, column: 3, columns: size.columns,
                                                 rows: size.rows, image: image, id: photo))
        }
        return placements
    }

    /// Where the preview picture goes in the body (0-based row and column) and its size in cells:
    /// as large as the body allows with the picture's aspect ratio (a cell is two pixels high),
    /// centred; nil until the picture is loaded.
    package static func previewBox(_ state: ScreenState, width: Int, height: Int, cell: ThumbnailCell?)
        -> (row: Int, column: Int, columns: Int, rows: Int)? {
        guard case .loaded(let image)? = cell, image.width > 0, image.height > 0 else { return nil }
        let body = bodyHeight(state, height: height) - 1  // one line for the title below
        guard body >= 1, width >= 1 else { return nil }
        var rows = body
        var columns = (2 * rows * image.width + image.height / 2) / image.height
        if columns > width {
            columns = width
            rows = max(1, (columns * image.height + image.width) / (2 * image.width))
        }
        columns = max(1, columns)
        return ((body - rows) / 2, (width - columns) / 2, columns, rows)
    }

    /// The photos with at least one line on screen, top first: the thumbnails to load.
    package static func visiblePhotos(_ state: ScreenState, width: Int, height: Int) -> [Photo.Item] {
        guard !state.showingHelp, !state.previewing else { return [] }
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
        if state.previewing {
            return style.dim(TerminalText.fitted(" " + (parts + ["any key returns to the list"]).joined(separator: " · "), to: width))
        }
        let status = parts.isEmpty ? "" : " " + parts.joined(separator: " · ") + "  │"
        return style.dim(TerminalText.fitted(status + keyHints(fitting: width - TerminalText.columns(of: status), pictures: state.imagesAvailable),
                                             to: width))
    }

    /// The key hints of the footer, each whole: as many as fit in `columns`, in order, with
    /// `? keys  q quit` kept at the end while they fit; `p` and `i` only where there are `pictures`.
    static func keyHints(fitting columns: Int, pictures: Bool) -> String {
        let hints = ["↑/↓ select", "Enter open", "p preview", "y copy", "/ filter", "i images", "n more", "r reload", "t tags"]
            .filter { pictures || !($0.hasPrefix("p ") || $0.hasPrefix("i ")) }
        let last = ["? keys  q quit", "? keys"].first { TerminalText.columns(of: " " + $0) <= columns } ?? ""
        var text = ""
        for hint in hints where TerminalText.columns(of: text + "  " + hint + "  " + last) + 1 <= columns {
            text += (text.isEmpty ? " " : "  ") + hint
        }
        guard !last.isEmpty else { return text }
        return text + (text.isEmpty ? " " : "  ") + last
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
                rows = ["Keys"].map(Row.section) + ScreenRenderer.keyHelp(state).flatMap { line in
                    TerminalText.wrapped("  " + line, to: width, indent: 15).map(Row.help)
                }
                photos = []
                return
            }
            let linesPerPhoto = ScreenRenderer.linesPerPhoto(state, width: width)
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
                let tags = PhotoText.tags(item)
                text = line == 0 ? PhotoText.title(item)
                    : "  \(PhotoText.author(item)) · \(PhotoText.date(item))\(tags.isEmpty ? "" : " · " + tags) · \(PhotoText.link(item))"
            }
            let size = thumbnailSize(width: width)
            let box = state.imagesEnabled && width > size.columns + 4
            let prefix = marker + (box ? thumbnailLine(thumbnails[item.media.m], blocks: blocks[index], line: line, columns: size.columns,
                                                       style: style) + " " : "")
            let prefixColumns = 2 + (box ? size.columns + 1 : 0)
            let body = TerminalText.fitted(text, to: max(0, width - prefixColumns))
            let styledBody = line == 0 ? (selected ? style.inverse(body) : style.bold(body)) : style.dim(body)
            if prefixColumns > width { return TerminalText.fitted(marker, to: width) }
            return (selected ? style.accent(marker) : marker) + String(prefix.dropFirst(2)) + styledBody
        }
    }

    /// Line `line` of a thumbnail box: the picture's half blocks (`blocks`), blanks for the
    /// graphics protocols to draw over, or a dim placeholder with the state in one word.
    private static func thumbnailLine(_ cell: ThumbnailCell?, blocks: [String]?, line: Int, columns: Int, style: TextStyle) -> String {
        switch cell {
        case .loaded?:
            guard let blocks, blocks.indices.contains(line) else { return String(repeating: " ", count: columns) }
            return blocks[line]
        case .failed(let reason)?:
            return placeholder(line == 1 ? reason : "", columns: columns, style: style)
        case .loading?, nil:
            return placeholder(line == 1 ? "···" : "", columns: columns, style: style)
        }
    }

    /// A box of `columns` cells with `word` in the middle, for a picture not there.
    static func placeholder(_ word: String, columns: Int, style: TextStyle) -> String {
        let text = TerminalText.truncated(TerminalText.sanitized(word), to: columns - 2)
        let padding = columns - TerminalText.columns(of: text)
        let left = padding / 2
        let line = "░" + String(repeating: " ", count: max(0, left - 1)) + text
            + String(repeating: " ", count: max(0, padding - left - 1)) + "░"
        return style.dim(line)
    }
}
