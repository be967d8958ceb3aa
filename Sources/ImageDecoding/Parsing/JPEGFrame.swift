/// The frame header (SOF): size, coding process and components, with the MCU geometry derived
/// from them.
struct JPEGFrame {
    let width: Int
    let height: Int
    /// SOF2: progressive; otherwise sequential (baseline or extended, Huffman).
    let progressive: Bool
    let components: [FrameComponent]
    let maxHorizontal: Int
    let maxVertical: Int
    /// MCUs across and down for interleaved scans.
    let mcusWide: Int
    let mcusHigh: Int
    /// The smallest IDCT block edge among the components (8 unless scaled): output size is
    /// `ceil(width * minimumBlockSize / 8)`.
    var minimumBlockSize = 8

    init(width: Int, height: Int, progressive: Bool, components: [FrameComponent]) {
        self.width = width
        self.height = height
        self.progressive = progressive
        self.components = components
        maxHorizontal = components.map(\.horizontal).max() ?? 1
        maxVertical = components.map(\.vertical).max() ?? 1
        mcusWide = Self.divideRoundingUp(width, 8 * maxHorizontal)
        mcusHigh = Self.divideRoundingUp(height, 8 * maxVertical)
        for component in components {
            component.blocksWide = mcusWide * component.horizontal
            component.blocksHigh = mcusHigh * component.vertical
            component.usedBlocksWide = Self.divideRoundingUp(
                Self.divideRoundingUp(width * component.horizontal, maxHorizontal), 8)
            component.usedBlocksHigh = Self.divideRoundingUp(
                Self.divideRoundingUp(height * component.vertical, maxVertical), 8)
        }
    }

    /// Output width and height at the chosen IDCT scale.
    var outputWidth: Int { Self.divideRoundingUp(width * minimumBlockSize, 8) }
    var outputHeight: Int { Self.divideRoundingUp(height * minimumBlockSize, 8) }

    /// Chooses the IDCT block size of every component for an output scale of
    /// `minimumBlockSize / 8`, the way libjpeg-turbo does: subsampled components get a larger
    /// IDCT instead of upsampling where the ratios allow. Then sizes the sample planes.
    mutating func choose(minimumBlockSize: Int) {
        self.minimumBlockSize = minimumBlockSize
        for component in components {
            var size = minimumBlockSize
            while size < 8,
                  (maxHorizontal * minimumBlockSize) % (component.horizontal * size * 2) == 0,
                  (maxVertical * minimumBlockSize) % (component.vertical * size * 2) == 0 {
                size *= 2
            }
            component.blockSize = size
            component.sampledWidth = Self.divideRoundingUp(width * component.horizontal * size, maxHorizontal * 8)
            component.sampledHeight = Self.divideRoundingUp(height * component.vertical * size, maxVertical * 8)
        }
    }

    static func divideRoundingUp(_ value: Int, _ divisor: Int) -> Int {
        (value + divisor - 1) / divisor
    }
}
