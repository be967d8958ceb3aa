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

    /// The scan header's spectral selection and successive approximation.
    struct Selection {
        let start: Int
        let end: Int
        let high: Int
        let low: Int
    }

    private(set) var reader: EntropyReader
    private let frame: JPEGFrame
    private let members: [Member]
    private let selection: Selection
    private let restartInterval: Int
    private var endOfBandRun = 0

    init(reader: EntropyReader, frame: JPEGFrame, members: [Member], selection: Selection, restartInterval: Int) {
        self.reader = reader
        self.frame = frame
        self.members = members
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

        for member in members { member.component.dcPredictor = 0 }
        let single = members.count == 1
        let first = members[0].component
        let mcuCount = single ? first.usedBlocksWide * first.usedBlocksHigh : frame.mcusWide * frame.mcusHigh
        var nextRestart = 0
        for mcu in 0..<mcuCount {
            if restartInterval > 0, mcu > 0, mcu % restartInterval == 0 {
                guard reader.restart(expected: nextRestart) else { throw failure(.badRestartMarker) }
                nextRestart += 1
                endOfBandRun = 0
                for member in members { member.component.dcPredictor = 0 }
            }
            if single {
                try decodeBlock(members[0], column: mcu % first.usedBlocksWide, row: mcu / first.usedBlocksWide, scratch)
            } else {
                let mcuColumn = mcu % frame.mcusWide, mcuRow = mcu / frame.mcusWide
                for member in members {
                    let component = member.component
                    for v in 0..<component.vertical {
                        for h in 0..<component.horizontal {
                            try decodeBlock(member, column: mcuColumn * component.horizontal + h,
                                            row: mcuRow * component.vertical + v, scratch)
                        }
                    }
                }
            }
            if reader.overran { throw failure(.truncated) }
        }
    }

    /// Buffers reused by every block of the scan.
    private struct Scratch {
        let block: UnsafeMutablePointer<Int32>
        let workspace: UnsafeMutablePointer<Int>
        let zigzag: UnsafeMutablePointer<Int>
    }

    @inline(__always)
    private mutating func decodeBlock(_ member: Member, column: Int, row: Int, _ scratch: Scratch) throws(ImageDecodingError) {
        let component = member.component
        if !frame.progressive {
            try decodeSequential(member, column: column, row: row, scratch)
            return
        }
        let coefficients = component.coefficients.baseAddress.unsafelyUnwrapped
            + (row * component.blocksWide + column) * 64
        if selection.start == 0 {
            if selection.high == 0 {
                try decodeDCFirst(member, coefficients)
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

    @inline(__always)
    private mutating func decodeDC(_ table: HuffmanTable?) throws(ImageDecodingError) -> Int {
        reader.ensure()
        guard let table, let size = reader.decode(table), size <= 15 else { throw failure(.invalidHuffmanCode) }
        return size == 0 ? 0 : reader.signed(size)
    }

    private mutating func decodeSequential(_ member: Member, column: Int, row: Int, _ scratch: Scratch) throws(ImageDecodingError) {
        let component = member.component
        let block = scratch.block
        let quantization = component.quantization
        component.dcPredictor = component.dcPredictor &+ (try decodeDC(member.dc))
        block[0] = Int32(Int16(truncatingIfNeeded: component.dcPredictor)) &* quantization[0]
        guard let ac = member.ac else { throw failure(.missingHuffmanTable) }
        var k = 1
        var last = 0
        while k < 64 {
            reader.ensure()
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
        let output = component.sampleOrigin(column: column, row: row)
        if last == 0 {
            InverseDCT.fillDC(block[0], size: component.blockSize, output: output, stride: component.stride)
            block[0] = 0
        } else {
            InverseDCT.transform(block, size: component.blockSize, workspace: scratch.workspace,
                                 output: output, stride: component.stride)
            block.update(repeating: 0, count: 64)
        }
    }

    private mutating func decodeDCFirst(_ member: Member, _ coefficients: UnsafeMutablePointer<Int16>) throws(ImageDecodingError) {
        let component = member.component
        component.dcPredictor = component.dcPredictor &+ (try decodeDC(member.dc))
        coefficients[0] = Int16(truncatingIfNeeded: component.dcPredictor &<< selection.low)
    }

    private mutating func decodeACFirst(_ member: Member, _ coefficients: UnsafeMutablePointer<Int16>,
                                        _ zigzag: UnsafeMutablePointer<Int>) throws(ImageDecodingError) {
        if endOfBandRun > 0 {
            endOfBandRun -= 1
            return
        }
        guard let ac = member.ac else { throw failure(.missingHuffmanTable) }
        var k = selection.start
        while k <= selection.end {
            reader.ensure()
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

    private mutating func decodeACRefinement(_ member: Member, _ coefficients: UnsafeMutablePointer<Int16>,
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
