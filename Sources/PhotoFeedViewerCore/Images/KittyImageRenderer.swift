import Foundation
import ImageDecoding

/// Thumbnails in the kitty graphics protocol: the pixels sent as 24-bit RGB (`f=24`), base64 in
/// chunks of at most 4096 bytes, shown over `columns` x `rows` cells without moving the cursor.
package enum KittyImageRenderer {
    /// Pixels per cell the picture is scaled to before sending (kitty scales it to the cells).
    package static let pixelsPerCell = (width: 8, height: 16)

    /// The escape sequences that transmit `image` as image `id` (replacing an earlier image of
    /// that id) and place it at the cursor over `columns` x `rows` cells.
    package static func sequence(for image: RGBImage, columns: Int, rows: Int, id: Int) -> String {
        guard columns > 0, rows > 0 else { return "" }
        let scaled = CenterCrop.filled(image, width: columns * pixelsPerCell.width, height: rows * pixelsPerCell.height)
        let payload = Array(Data(scaled.pixels).base64EncodedString().utf8)
        var out = ""
        var offset = 0
        repeat {
            let end = min(payload.count, offset + 4_096)
            let more = end < payload.count ? 1 : 0
            let keys = offset == 0
                ? "a=T,f=24,s=\(scaled.width),v=\(scaled.height),i=\(id),c=\(columns),r=\(rows),C=1,q=2,m=\(more)"
                : "m=\(more)"
            out += "\u{1B}_G\(keys);" + String(decoding: payload[offset..<end], as: UTF8.self) + "\u{1B}\\"
            offset = end
        } while offset < payload.count
        return out
    }

    /// Removes every placement on screen (the images stay in the terminal's memory).
    package static let clearPlacements = "\u{1B}_Ga=d,d=a,q=2\u{1B}\\"
}
