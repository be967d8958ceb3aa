import FeedServer
import Foundation
import ImageDecoding

/// Thumbnails as iTerm2 inline images (`OSC 1337 ; File=`): the picture as a JPEG file,
/// stretched over `columns` x `rows` cells.
package enum ITermImageRenderer {
    /// Pixels per cell of the file sent.
    package static let pixelsPerCell = (width: 8, height: 16)

    /// The escape sequence showing `image` at the cursor over `columns` x `rows` cells.
    package static func sequence(for image: RGBImage, columns: Int, rows: Int) -> String {
        guard columns > 0, rows > 0 else { return "" }
        let scaled = CenterCrop.filled(image, width: columns * pixelsPerCell.width, height: rows * pixelsPerCell.height)
        let file = BaselineJPEGEncoder(quality: 85).encode(width: scaled.width, height: scaled.height, rgb: scaled.pixels)
        return "\u{1B}]1337;File=inline=1;size=\(file.count);width=\(columns);height=\(rows);preserveAspectRatio=0:"
            + Data(file).base64EncodedString() + "\u{7}"
    }
}
