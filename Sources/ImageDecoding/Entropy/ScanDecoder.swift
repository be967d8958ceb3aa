/// Decodes one scan (SOS to the next marker) of a Huffman-coded frame: sequential scans go
/// straight through the IDCT into the component planes; progressive scans (DC or AC, first pass
/// or refinement) update the stored coefficients.
struct ScanDecoder {
    /// A component taking part in the scan, with the tables the scan header chose for it.
    struct Member {
        let component: FrameComponent
        let dc: HuffmanTable?
        let ac: HuffmanTable?
    }

    /// What the block loops read of a member: its tables, buffers and geometry read once (the
    /// loops then touch no class properties) and no reference, so copying one per block retains
    /// and releases nothing.
    private struct Target {
        let dc: HuffmanTable?
        let ac: HuffmanTable?
        let samples: UnsafeMutablePointer<UInt8>
        let coefficients: UnsafeMutablePointer<Int16>?
        let quantization: UnsafeMutablePointer<Int32>
        let stride: Int
        /// Sample row `r` is at `samples + (r & rowMask) * stride` (whole plane or ring).
        let rowMask: Int
        let blockSize: Int
        let blocksWide: Int
        let horizontal: Int
        let vertical: Int

        init(_ member: Member) {
            let component = member.component
            dc = member.dc
            ac = member.ac
            samples = component.samples.baseAddress.unsafelyUnwrapped
            coefficients = component.coefficients.baseAddress
            quantization = component.quantization
            stride = component.stride
            rowMask = component.rowMask
            blockSize = component.blockSize
            blocksWide = component.blocksWide
            horizontal = component.horizontal
            vertical = component.vertical
        }
    }

    /// The scan header's spectral selection and successive approximation.
    struct Selection {
        let start: Int
        let end: Int
        let high: Int
        let low: Int
    }

    private(set) var reader: EntropyReader
    private let frame: JPEGFrame
    /// Keeps the members' components alive while `targets` points into their buffers.
    private let members: [Member]
    private let targets: [Target]
    private let selection: Selection
    private let restartInterval: Int
    /// For a scan streamed into rings: renders each MCU row as the scan passes it.
    private let stage: OutputStage?
    private var endOfBandRun = 0
    /// The DC prediction of each member, reset at restarts.
    private var predictors: (Int, Int, Int, Int) = (0, 0, 0, 0)

    init(reader: EntropyReader, frame: JPEGFrame, members: [Member], selection: Selection, restartInterval: Int,
         stage: OutputStage? = nil) {
        self.reader = reader
        self.stage = stage
        self.frame = frame
        self.members = members
        targets = members.map(Target.init)
        self.selection = selection
        self.restartInterval = restartInterval
    }

    private func failure(_ reason: ImageDecodingError.Reason) -> ImageDecodingError {
        ImageDecodingError(reason, offset: reader.position)
    }

    /// Decodes every MCU of the scan; throws at the first corrupt code, bad restart marker, or
    /// when the data ends early. The picture keeps whatever was decoded before the error.
    mutating func decode() throws(ImageDecodingError) {
        let block = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
        block.initialize(repeating: 0, count: 64)
        let workspace = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        workspace.initialize(repeating: 0, count: 64)
        let zigzag = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        zigzag.initialize(from: ZigZag.order, count: 64)
        defer {
            block.deallocate()
            workspace.deallocate()
            zigzag.deallocate()
        }
        let scratch = Scratch(block: block, workspace: workspace, zigzag: zigzag)

        predictors = (0, 0, 0, 0)
        let single = members.count == 1
        let first = members[0].component
        let only = targets[0]
        // A single-component scan codes only the blocks holding picture data, one per MCU.
        let columns = single ? first.usedBlocksWide : frame.mcusWide
        let rows = single ? first.usedBlocksHigh : frame.mcusHigh
        var mcu = 0
        var nextRestart = 0
        for mcuRow in 0..<rows {
            stage?.prepare(mcuRow: mcuRow)
            for mcuColumn in 0..<columns {
                if restartInterval > 0, mcu > 0, mcu % restartInterval == 0 {
                    guard reader.restart(expected: nextRestart) else { throw failure(.badRestartMarker) }
                    nextRestart += 1
                    endOfBandRun = 0
                    predictors = (0, 0, 0, 0)
                }
                if single {
                    try decodeBlock(only, 0, column: mcuColumn, row: mcuRow, scratch)
                } else {
                    for index in targets.indices {
                        let member = targets[index]
                        for v in 0..<member.vertical {
                            for h in 0..<member.horizontal {
                                try decodeBlock(member, index, column: mcuColumn * member.horizontal + h,
                                                row: mcuRow * member.vertical + v, scratch)
                            }
                        }
                    }
                }
                if reader.overran { throw failure(.truncated) }
                mcu += 1
            }
            stage?.finish(mcuRow: mcuRow)
        }
    }

    /// Buffers reused by every block of the scan.
    private struct Scratch {
        let block: UnsafeMutablePointer<Int32>
        let workspace: UnsafeMutablePointer<Int>
        let zigzag: UnsafeMutablePointer<Int>
    }

    @inline(__always)
    private mutating func decodeBlock(_ member: Target, _ index: Int, column: Int, row: Int,
                                      _ scratch: Scratch) throws(ImageDecodingError) {
        if !frame.progressive {
            try decodeSequential(member, index, column: column, row: row, scratch)
            return
        }
        let coefficients = member.coefficients.unsafelyUnwrapped + (row * member.blocksWide + column) * 64
        if selection.start == 0 {
            if selection.high == 0 {
                try decodeDCFirst(member, index, coefficients)
            } else {
                reader.ensure()
                if reader.bit() { coefficients[0] |= Int16(truncatingIfNeeded: 1 << selection.low) }
            }
        } else if selection.high == 0 {
            try decodeACFirst(member, coefficients, scratch.zigzag)
        } else {
            try decodeACRefinement(member, coefficients, scratch.zigzag)
        }
    }

    /// Decodes a DC difference and returns the member's new DC value.
    @inline(__always)
    private mutating func decodeDC(_ table: HuffmanTable?, _ index: Int) throws(ImageDecodingError) -> Int {
        reader.ensure()
        guard let table, let size = reader.decode(table), size <= 15 else { throw failure(.invalidHuffmanCode) }
        let difference = size == 0 ? 0 : reader.signed(size)
        switch index {
        case 0: predictors.0 = predictors.0 &+ difference; return predictors.0
        case 1: predictors.1 = predictors.1 &+ difference; return predictors.1
        case 2: predictors.2 = predictors.2 &+ difference; return predictors.2
        default: predictors.3 = predictors.3 &+ difference; return predictors.3
        }
    }

    private mutating func decodeSequential(_ member: Target, _ memberIndex: Int, column: Int, row: Int,
                                           _ scratch: Scratch) throws(ImageDecodingError) {
        let block = scratch.block
        let quantization = member.quantization
        let dc = try decodeDC(member.dc, memberIndex)
        block[0] = Int32(Int16(truncatingIfNeeded: dc)) &* quantization[0]
        guard let ac = member.ac else { throw failure(.missingHuffmanTable) }
        var k = 1
        var last = 0
        let fast = ac.coefficientLookup
        while k < 64 {
            reader.ensure()
            let entry = Int(fast[reader.lookupIndex])
            if entry != 0 {
                reader.skip(entry & 0xFF)
                k += (entry >> 8) & 0xFF
                guard k < 64 else { throw failure(.invalidHuffmanCode) }
                let index = scratch.zigzag[k]
                block[index] = Int32(truncatingIfNeeded: entry >> 16) &* quantization[index]
                last = k
                k += 1
                continue
            }
            guard let symbol = reader.decode(ac) else { throw failure(.invalidHuffmanCode) }
            let run = symbol >> 4, size = symbol & 15
            if size == 0 {
                if run == 15 {
                    k += 16
                    continue
                }
                break
            }
            k += run
            guard k < 64 else { throw failure(.invalidHuffmanCode) }
            let index = scratch.zigzag[k]
            block[index] = Int32(Int16(truncatingIfNeeded: reader.signed(size))) &* quantization[index]
            last = k
            k += 1
        }
        let size = member.blockSize, stride = member.stride
        let output = member.samples + (((row * size) & member.rowMask) * stride + column * size)
        if last == 0 {
            InverseDCT.fillDC(block[0], size: size, output: output, stride: stride)
            block[0] = 0
        } else {
            InverseDCT.transform(block, size: size, workspace: scratch.workspace, output: output, stride: stride)
            block.update(repeating: 0, count: 64)
        }
    }

    private mutating func decodeDCFirst(_ member: Target, _ index: Int,
                                        _ coefficients: UnsafeMutablePointer<Int16>) throws(ImageDecodingError) {
        let dc = try decodeDC(member.dc, index)
        coefficients[0] = Int16(truncatingIfNeeded: dc &<< selection.low)
    }

    private mutating func decodeACFirst(_ member: Target, _ coefficients: UnsafeMutablePointer<Int16>,
                                        _ zigzag: UnsafeMutablePointer<Int>) throws(ImageDecodingError) {
        if endOfBandRun > 0 {
            endOfBandRun -= 1
            return
        }
        guard let ac = member.ac else { throw failure(.missingHuffmanTable) }
        var k = selection.start
        let fast = ac.coefficientLookup
        while k <= selection.end {
            reader.ensure()
            let entry = Int(fast[reader.lookupIndex])
            if entry != 0 {
                reader.skip(entry & 0xFF)
                k += (entry >> 8) & 0xFF
                guard k <= selection.end else { throw failure(.invalidHuffmanCode) }
                coefficients[zigzag[k]] = Int16(truncatingIfNeeded: (entry >> 16) &<< selection.low)
                k += 1
                continue
            }
            guard let symbol = reader.decode(ac) else { throw failure(.invalidHuffmanCode) }
            let run = symbol >> 4, size = symbol & 15
            if size != 0 {
                k += run
                guard k <= selection.end else { throw failure(.invalidHuffmanCode) }
                coefficients[zigzag[k]] = Int16(truncatingIfNeeded: reader.signed(size) &<< selection.low)
                k += 1
            } else if run == 15 {
                k += 16
            } else {
                endOfBandRun = (1 << run) - 1 + reader.bits(run)
                break
            }
        }
    }

    private mutating func decodeACRefinement(_ member: Target, _ coefficients: UnsafeMutablePointer<Int16>,
                                             _ zigzag: UnsafeMutablePointer<Int>) throws(ImageDecodingError) {
        let plus = Int16(truncatingIfNeeded: 1 << selection.low)
        let minus = Int16(truncatingIfNeeded: -1 << selection.low)
        var k = selection.start
        if endOfBandRun == 0 {
            guard let ac = member.ac else { throw failure(.missingHuffmanTable) }
            while k <= selection.end {
                reader.ensure()
                guard let symbol = reader.decode(ac) else { throw failure(.invalidHuffmanCode) }
                var run = symbol >> 4
                let size = symbol & 15
                var value: Int16 = 0
                if size != 0 {
                    value = reader.bit() ? plus : minus
                } else if run != 15 {
                    endOfBandRun = (1 << run) + reader.bits(run)
                    break
                }
                while k <= selection.end {
                    let index = zigzag[k]
                    let coefficient = coefficients[index]
                    if coefficient != 0 {
                        reader.ensure()
                        if reader.bit(), coefficient & plus == 0 {
                            coefficients[index] = coefficient &+ (coefficient >= 0 ? plus : minus)
                        }
                    } else {
                        if run == 0 { break }
                        run -= 1
                    }
                    k += 1
                }
                if size != 0, k <= selection.end { coefficients[zigzag[k]] = value }
                k += 1
            }
        }
        if endOfBandRun > 0 {
            while k <= selection.end {
                let index = zigzag[k]
                let coefficient = coefficients[index]
                if coefficient != 0 {
                    reader.ensure()
                    if reader.bit(), coefficient & plus == 0 {
                        coefficients[index] = coefficient &+ (coefficient >= 0 ? plus : minus)
                    }
                }
                k += 1
            }
            endOfBandRun -= 1
        }
    }
}
