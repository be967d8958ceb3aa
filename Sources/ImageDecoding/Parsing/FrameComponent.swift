/// One colour component of a frame: its sampling factors, its quantization table, and the
/// buffers the scans fill (coefficients for progressive frames, samples after the IDCT).
///
/// The buffers are allocations owned by the instance (freed in `deinit`), sized from the frame
/// header once its size passed the decoder's pixel limit; rings live in a `ReusedBlock` the
/// decoding owns.
final class FrameComponent {
    /// The identifier scans use to name this component.
    let identifier: UInt8
    /// Horizontal sampling factor (1...4).
    let horizontal: Int
    /// Vertical sampling factor (1...4).
    let vertical: Int
    /// Which DQT table (0...3) dequantizes it.
    let quantizationIndex: Int

    /// 64 dequantization multipliers in natural (row-major) order, latched at the first scan.
    let quantization = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
    /// Whether `quantization` holds a table yet.
    var hasQuantization = false
    /// Blocks across and down, padded to whole MCUs.
    var blocksWide = 0
    var blocksHigh = 0
    /// Blocks that hold picture data (a non-interleaved scan codes only these).
    var usedBlocksWide = 0
    var usedBlocksHigh = 0
    /// Edge of one block after the (scaled) IDCT: 8, 4, 2 or 1.
    var blockSize = 8
    /// Samples of this component after the IDCT at `blockSize`; only these are meaningful.
    var sampledWidth = 0
    var sampledHeight = 0
    /// The samples, `stride` per row; mid-grey until decoded. Either the whole plane
    /// (`blocksHigh * blockSize` rows) or, for a frame rendered while its scan is decoded, a ring
    /// of a power-of-two number of rows that sample row `y` reaches at `y & rowMask`.
    private(set) var samples = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    /// What sample row numbers are masked with to find their row in `samples`: all ones for a
    /// whole plane, the ring's row count minus one for a ring.
    private(set) var rowMask = -1
    /// Progressive frames only: 64 quantized coefficients per block, natural order.
    private(set) var coefficients = UnsafeMutableBufferPointer<Int16>(start: nil, count: 0)

    init(identifier: UInt8, horizontal: Int, vertical: Int, quantizationIndex: Int) {
        self.identifier = identifier
        self.horizontal = horizontal
        self.vertical = vertical
        self.quantizationIndex = quantizationIndex
        quantization.initialize(repeating: 0, count: 64)
    }

    deinit {
        quantization.deallocate()
        if rowMask == -1 { samples.deallocate() }
        coefficients.deallocate()
    }

    /// Samples per row of `samples`.
    var stride: Int { blocksWide * blockSize }

    /// Sample rows in one MCU row of the frame.
    var rowsPerMCU: Int { vertical * blockSize }

    /// Allocates the whole sample plane (and the coefficients when `progressive`), once the
    /// geometry is set.
    func allocate(progressive: Bool) {
        samples = .allocate(capacity: stride * blocksHigh * blockSize)
        samples.initialize(repeating: 128)
        rowMask = -1
        if progressive {
            coefficients = .allocate(capacity: blocksWide * blocksHigh * 64)
            coefficients.initialize(repeating: 0)
        }
    }

    /// Rows of a ring holding at least `mcuRows` consecutive MCU rows (the one being decoded
    /// and the ones its neighbours' upsampling reads): a power of two.
    func ringRows(mcuRows: Int) -> Int {
        var rows = 1
        while rows < mcuRows * rowsPerMCU { rows *= 2 }
        return rows
    }

    /// Gives each of `components` a mid-grey ring of `mcuRows` MCU rows in one block, which the
    /// caller keeps for the decode.
    static func useRings(_ components: [FrameComponent], mcuRows: Int) -> ReusedBlock {
        let rows = components.map { $0.ringRows(mcuRows: mcuRows) }
        let sizes = zip(components, rows).map { $0.stride * $1 }
        let block = ReusedBlock(capacity: sizes.reduce(0, +), for: .sampleRings)
        var offset = 0
        for (index, component) in components.enumerated() {
            component.samples = block.bytes(from: offset, count: sizes[index])
            component.samples.update(repeating: 128)
            component.rowMask = rows[index] - 1
            offset += sizes[index]
        }
        return block
    }

    /// The first sample of sample row `y` (whole plane or ring).
    func sampleRow(_ y: Int) -> UnsafeMutablePointer<UInt8> {
        samples.baseAddress.unsafelyUnwrapped + (y & rowMask) * stride
    }

    /// The first sample of block (`column`, `row`) at the IDCT's block size.
    func sampleOrigin(column: Int, row: Int) -> UnsafeMutablePointer<UInt8> {
        sampleRow(row * blockSize) + column * blockSize
    }
}
