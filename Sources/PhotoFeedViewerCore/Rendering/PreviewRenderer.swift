import PhotoFeed

/// The body of the screen while one photo is previewed (`p`): its picture in the box
/// ``ScreenRenderer/previewBox(_:width:height:cell:)`` gives, drawn in half blocks here or left
/// blank for a graphics protocol to draw over, with the title below; a one-word state while
/// the picture is not there.
package enum PreviewRenderer {
    /// Exactly `height` lines of `width` columns.
    package static func lines(
        for photo: Photo.Item, cell: ThumbnailCell?, box: (row: Int, column: Int, columns: Int, rows: Int)?,
        width: Int, height: Int, style: TextStyle, graphics: ThumbnailProtocol
    ) -> [String] {
        guard height > 0 else { return [] }
        let blank = String(repeating: " ", count: width)
        var lines = [String](repeating: blank, count: height)
        let title = style.bold(centred(PhotoText.title(photo), width: width))
        guard let box, case .loaded(let image)? = cell else {
            let word: String
            switch cell {
            case .failed(let reason)?: word = "The picture could not be loaded: \(reason)"
            default: word = "Loading the picture..."
            }
            lines[height / 2] = style.dim(centred(word, width: width))
            if height / 2 + 1 < height { lines[height / 2 + 1] = title }
            return lines
        }
        var picture = [String](repeating: String(repeating: " ", count: box.columns), count: box.rows)
        if case .halfBlocks(let depth) = graphics {
            picture = HalfBlockRenderer.lines(for: image, columns: box.columns, rows: box.rows, depth: depth)
        }
        let left = String(repeating: " ", count: box.column)
        let right = String(repeating: " ", count: max(0, width - box.column - box.columns))
        for (offset, line) in picture.enumerated() where box.row + offset < height {
            lines[box.row + offset] = left + line + right
        }
        if box.row + box.rows < height { lines[box.row + box.rows] = title }
        return lines
    }

    private static func centred(_ text: String, width: Int) -> String {
        let cut = TerminalText.truncated(text, to: width)
        let left = max(0, (width - TerminalText.columns(of: cut)) / 2)
        return TerminalText.fitted(String(repeating: " ", count: left) + cut, to: width)
    }
}
