import ImageDecoding

/// A loaded thumbnail fully on screen, for the graphics protocols that draw over the text:
/// its top-left cell (1-based, as cursor positions are) and its size in cells.
package struct ThumbnailPlacement: Equatable, Sendable {
    /// The screen row of its top line (1-based).
    package let row: Int
    /// The screen column of its left edge (1-based).
    package let column: Int
    /// Its width in cells.
    package let columns: Int
    /// Its height in cells.
    package let rows: Int
    /// The picture.
    package let image: RGBImage
    /// A number for the picture stable while it stays on screen (its photo's index), for kitty's image ids.
    package let id: Int

    /// A placement of `image` at (`row`, `column`) over `columns` x `rows` cells.
    package init(row: Int, column: Int, columns: Int, rows: Int, image: RGBImage, id: Int) {
        self.row = row
        self.column = column
        self.columns = columns
        self.rows = rows
        self.image = image
        self.id = id
    }

    /// The bytes that draw `placements` in `graphics` (nothing for half blocks, which are in
    /// the lines, and for `.none`); kitty's placements of the last frame are removed first.
    package static func overlay(_ placements: [ThumbnailPlacement], graphics: ThumbnailProtocol) -> String {
        var out = ""
        switch graphics {
        case .kitty:
            out = KittyImageRenderer.clearPlacements
            for placement in placements {
                out += placement.cursor + KittyImageRenderer.sequence(for: placement.image, columns: placement.columns,
                                                                     rows: placement.rows, id: placement.id + 1)
            }
        case .iterm:
            for placement in placements {
                out += placement.cursor + ITermImageRenderer.sequence(for: placement.image, columns: placement.columns, rows: placement.rows)
            }
        case .sixel:
            for placement in placements {
                out += placement.cursor + SixelRenderer.sequence(for: placement.image, columns: placement.columns, rows: placement.rows)
            }
        case .halfBlocks, .none:
            break
        }
        return out
    }

    private var cursor: String { "\u{1B}[\(row);\(column)H" }
}
