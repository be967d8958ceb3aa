/// One decode: walks the marker segments of a JPEG, decodes its scans, and renders the frame to
/// RGB. Every read is bounds-checked against `bytes`; every failure names the byte offset.
struct JPEGDecoding {
    /// More scans than this is refused: a progressive file needs about ten, and each scan walks
    /// the whole picture, so a small file of many empty scans could burn CPU for minutes.
    static let scanLimit = 1_000

    private let bytes: UnsafeBufferPointer<UInt8>
    private let options: JPEGDecoder
    private var dcTables: [HuffmanTable?] = [nil, nil, nil, nil]
    private var acTables: [HuffmanTable?] = [nil, nil, nil, nil]
    private var quantizationTables: [[Int32]?] = [nil, nil, nil, nil]
    private var restartInterval = 0
    private var frame: JPEGFrame?
    /// Whether the components' sample buffers exist: progressive frames get whole planes with
    /// the frame header, sequential ones with their first scan, which decides between planes
    /// and rings.
    private var allocated = false
    /// Renders the picture: made with the rings for a streamed frame, at the end otherwise.
    private var stage: OutputStage?
    /// The memory of a streamed frame's rings and of the Huffman tables, held until the
    /// decoding ends.
    private var rings: ReusedBlock?
    private var tableMemory: ReusedBlock?
    private var adobeTransform: Int?
    private var sawJFIF = false
    private var orientation = ImageOrientation.up
    private var scans = 0

    init(bytes: UnsafeBufferPointer<UInt8>, options: JPEGDecoder) {
        self.bytes = bytes
        self.options = options
    }

    private func failure(_ reason: ImageDecodingError.Reason, _ offset: Int) -> ImageDecodingError {
        ImageDecodingError(reason, offset: offset)
    }

    /// Decodes the picture, at a reduced IDCT scale when `maxPixelSize` allows, with the EXIF
    /// orientation found on the way (not yet applied).
    mutating func run(maxPixelSize: Int?) throws(ImageDecodingError) -> Decoded {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw failure(.notJPEG, 0) }
        var position = 2
        loop: while true {
            guard let (marker, offset) = nextMarker(from: position) else {
                if options.allowPartial, scans > 0 { break loop }
                throw failure(.truncated, bytes.count)
            }
            position = offset + 2
            switch marker {
            case 0xD9:
                guard scans > 0 else { throw failure(.unexpectedMarker(marker), offset) }
                break loop
            case 0xD0...0xD7, 0x01:
                continue  // parameterless; a stray restart marker between segments is harmless
            case 0xD8:
                throw failure(.unexpectedMarker(marker), offset)
            default:
                break
            }
            let payload: Range<Int>
            do {
                payload = try segment(marker: marker, at: offset)
            } catch {
                // The data ends inside a segment between scans: what the scans gave is the picture.
                if options.allowPartial, scans > 0, error.reason == .truncated { break loop }
                throw error
            }
            position = payload.upperBound
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                try readFrame(payload, marker: marker, offset: offset, maxPixelSize: maxPixelSize)
            case 0xC3:
                throw failure(.unsupported(.lossless), offset)
            case 0xC5, 0xC6, 0xC7, 0xDE, 0xDF:
                throw failure(.unsupported(.hierarchical), offset)
            case 0xC9, 0xCA, 0xCB, 0xCC, 0xCD, 0xCE, 0xCF:
                throw failure(.unsupported(.arithmeticCoding), offset)
            case 0xC4:
                try readHuffmanTables(payload)
            case 0xDB:
                try readQuantizationTables(payload)
            case 0xDD:
                guard payload.count == 2 else { throw failure(.malformedSegment(marker: marker), offset) }
                restartInterval = Int(bytes[payload.lowerBound]) << 8 | Int(bytes[payload.lowerBound + 1])
            case 0xE0:
                if payload.count >= 5, Array(bytes[payload.prefix(5)]) == Array("JFIF\0".utf8) { sawJFIF = true }
            case 0xE1:
                if let found = ExifOrientationReader.orientation(inSegment: UnsafeBufferPointer(rebasing: bytes[payload])) {
                    orientation = found
                }
            case 0xEE:
                if payload.count >= 12, Array(bytes[payload.prefix(5)]) == Array("Adobe".utf8) {
                    adobeTransform = Int(bytes[payload.lowerBound + 11])
                }
            case 0xDA:
                do {
                    position = try decodeScan(payload, offset: offset)
                } catch {
                    if options.allowPartial, scans > 0, Self.isDataError(error.reason) { break loop }
                    throw error
                }
            default:
                break  // APPn, COM, DNL and reserved markers: skipped
            }
        }
        guard let frame else { throw failure(.truncated, bytes.count) }
        if !allocated { allocate(frame, streamed: false) }
        if frame.progressive { Self.finishProgressive(frame) }
        let image = (stage ?? OutputStage(frame: frame, colorSpace: colorSpace(frame))).image()
        return Decoded(image: image, orientation: orientation, width: frame.width, height: frame.height)
    }

    /// The rendered picture (possibly IDCT-scaled), its EXIF orientation (not yet applied) and
    /// the frame's full size.
    struct Decoded {
        let image: RGBImage
        let orientation: ImageOrientation
        let width: Int
        let height: Int
    }

    /// Errors in the entropy-coded data (as opposed to the headers), after which the rows
    /// decoded so far are still a picture.
    private static func isDataError(_ reason: ImageDecodingError.Reason) -> Bool {
        switch reason {
        case .truncated, .invalidHuffmanCode, .badRestartMarker: true
        default: false
        }
    }

    /// The next marker at or after `position`: skips bytes that are not `FF`, fill `FF`s and
    /// stuffed `FF 00`. Returns the marker code and the offset of its `FF`.
    private func nextMarker(from position: Int) -> (UInt8, Int)? {
        var index = position
        while true {
            while index < bytes.count, bytes[index] != 0xFF { index += 1 }
            while index + 1 < bytes.count, bytes[index + 1] == 0xFF { index += 1 }
            guard index + 1 < bytes.count else { return nil }
            let code = bytes[index + 1]
            if code != 0 { return (code, index) }
            index += 2
        }
    }

    /// The payload (after the length field) of the segment whose marker is at `offset`.
    private func segment(marker: UInt8, at offset: Int) throws(ImageDecodingError) -> Range<Int> {
        guard offset + 4 <= bytes.count else { throw failure(.truncated, bytes.count) }
        let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        guard length >= 2 else { throw failure(.malformedSegment(marker: marker), offset + 2) }
        guard offset + 2 + length <= bytes.count else { throw failure(.truncated, bytes.count) }
        return (offset + 4)..<(offset + 2 + length)
    }

    private mutating func readFrame(_ payload: Range<Int>, marker: UInt8, offset: Int,
                                    maxPixelSize: Int?) throws(ImageDecodingError) {
        guard frame == nil else { throw failure(.unexpectedMarker(marker), offset) }
        let malformed = failure(.malformedSegment(marker: marker), offset)
        guard payload.count >= 6 else { throw malformed }
        let start = payload.lowerBound
        let precision = Int(bytes[start])
        guard precision == 8 else { throw failure(.unsupported(.precision(precision)), offset) }
        let height = Int(bytes[start + 1]) << 8 | Int(bytes[start + 2])
        let width = Int(bytes[start + 3]) << 8 | Int(bytes[start + 4])
        let count = Int(bytes[start + 5])
        guard payload.count == 6 + 3 * count, count > 0 else { throw malformed }
        guard count == 1 || count == 3 || count == 4 else { throw failure(.unsupported(.componentCount(count)), offset) }
        guard width > 0, height > 0 else { throw failure(.invalidDimensions, offset) }
        let pixels = width * height
        guard pixels <= options.maximumPixelCount else {
            throw failure(.imageTooLarge(pixels: pixels, limit: options.maximumPixelCount), offset)
        }
        var components: [FrameComponent] = []
        for index in 0..<count {
            let base = start + 6 + 3 * index
            let sampling = bytes[base + 1]
            let horizontal = Int(sampling >> 4), vertical = Int(sampling & 15)
            let table = Int(bytes[base + 2])
            guard (1...4).contains(horizontal), (1...4).contains(vertical), table <= 3 else { throw malformed }
            components.append(FrameComponent(identifier: bytes[base], horizontal: horizontal, vertical: vertical,
                                             quantizationIndex: table))
        }
        var frame = JPEGFrame(width: width, height: height, progressive: marker == 0xC2, components: components)
        for component in components
        where frame.maxHorizontal % component.horizontal != 0 || frame.maxVertical % component.vertical != 0 {
            throw failure(.unsupported(.fractionalSampling), offset)
        }
        frame.choose(minimumBlockSize: Self.blockSize(width: width, height: height, maxPixelSize: maxPixelSize))
        self.frame = frame
        if frame.progressive { allocate(frame, streamed: false) }
    }

    /// Gives the components their sample buffers: rings and a stage rendering MCU rows as the
    /// scan decodes them when `streamed`, whole planes (and coefficients when progressive)
    /// otherwise.
    private mutating func allocate(_ frame: JPEGFrame, streamed: Bool) {
        allocated = true
        guard streamed else {
            for component in frame.components { component.allocate(progressive: frame.progressive) }
            return
        }
        rings = FrameComponent.useRings(frame.components, mcuRows: OutputStage.ringMCURows)
        stage = OutputStage(frame: frame, colorSpace: colorSpace(frame))
    }

    /// The smallest IDCT block (8, 4, 2, 1 for scales 1, 1/2, 1/4, 1/8) whose output still has a
    /// longer side of at least `maxPixelSize`.
    static func blockSize(width: Int, height: Int, maxPixelSize: Int?) -> Int {
        guard let maxPixelSize else { return 8 }
        let longer = max(width, height)
        for size in [1, 2, 4] where JPEGFrame.divideRoundingUp(longer * size, 8) >= maxPixelSize {
            return size
        }
        return 8
    }

    private mutating func readHuffmanTables(_ payload: Range<Int>) throws(ImageDecodingError) {
        var index = payload.lowerBound
        while index < payload.upperBound {
            let malformed = failure(.malformedSegment(marker: 0xC4), index)
            let kind = Int(bytes[index] >> 4), slot = Int(bytes[index] & 15)
            guard kind <= 1, slot <= 3, index + 17 <= payload.upperBound else { throw malformed }
            let counts = Array(bytes[(index + 1)..<(index + 17)])
            let total = counts.reduce(0) { $0 + Int($1) }
            guard index + 17 + total <= payload.upperBound else { throw malformed }
            let symbols = Array(bytes[(index + 17)..<(index + 17 + total)])
            guard let codes = HuffmanCodeTable(counts: counts, symbols: symbols) else { throw malformed }
            // Each of the eight slots has its place; a table redefined between scans replaces
            // one no scan uses any more.
            let memory = tableMemory ?? ReusedBlock(capacity: 8 * HuffmanTable.byteCount, for: .huffmanTables)
            tableMemory = memory
            let table = HuffmanTable(codes, storage: memory.memory + (kind * 4 + slot) * HuffmanTable.byteCount)
            if kind == 0 { dcTables[slot] = table } else { acTables[slot] = table }
            index += 17 + total
        }
    }

    private mutating func readQuantizationTables(_ payload: Range<Int>) throws(ImageDecodingError) {
        var index = payload.lowerBound
        while index < payload.upperBound {
            let precision = Int(bytes[index] >> 4), slot = Int(bytes[index] & 15)
            let size = precision == 0 ? 1 : 2
            guard precision <= 1, slot <= 3, index + 1 + 64 * size <= payload.upperBound else {
                throw failure(.malformedSegment(marker: 0xDB), index)
            }
            var table = [Int32](repeating: 0, count: 64)
            for k in 0..<64 {
                let at = index + 1 + k * size
                let value = size == 1 ? Int(bytes[at]) : Int(bytes[at]) << 8 | Int(bytes[at + 1])
                // libjpeg multiplies with 16-bit signed multipliers; do the same.
                table[ZigZag.order[k]] = Int32(Int16(truncatingIfNeeded: value))
            }
            quantizationTables[slot] = table
            index += 1 + 64 * size
        }
    }

    /// Reads a scan header, decodes the scan, and returns where the entropy-coded data stopped.
    private mutating func decodeScan(_ payload: Range<Int>, offset: Int) throws(ImageDecodingError) -> Int {
        guard let frame else { throw failure(.unexpectedMarker(0xDA), offset) }
        scans += 1
        guard scans <= Self.scanLimit else { throw failure(.tooManyScans(limit: Self.scanLimit), offset) }
        let malformed = failure(.malformedSegment(marker: 0xDA), offset)
        let start = payload.lowerBound
        guard payload.count >= 1 else { throw malformed }
        let count = Int(bytes[start])
        guard (1...4).contains(count), payload.count == 4 + 2 * count else { throw malformed }
        let spectral = start + 1 + 2 * count
        let selection = ScanDecoder.Selection(start: Int(bytes[spectral]), end: Int(bytes[spectral + 1]),
                                              high: Int(bytes[spectral + 2] >> 4), low: Int(bytes[spectral + 2] & 15))
        if frame.progressive {
            let dc = selection.start == 0
            guard dc ? selection.end == 0 : (selection.end >= selection.start && selection.end <= 63 && count == 1),
                  selection.high <= 13, selection.low <= 13,
                  selection.high == 0 || selection.low == selection.high - 1 else { throw malformed }
        }
        var chosen: [(component: FrameComponent, dc: HuffmanTable?, ac: HuffmanTable?)] = []
        var blocksInMCU = 0
        for index in 0..<count {
            let identifier = bytes[start + 1 + 2 * index]
            let tables = bytes[start + 2 + 2 * index]
            guard let component = frame.components.first(where: { $0.identifier == identifier }),
                  !chosen.contains(where: { $0.component === component }) else { throw malformed }
            blocksInMCU += component.horizontal * component.vertical
            let dcIndex = Int(tables >> 4), acIndex = Int(tables & 15)
            guard dcIndex <= 3, acIndex <= 3 else { throw malformed }
            let needsDC = !frame.progressive || (selection.start == 0 && selection.high == 0)
            let needsAC = !frame.progressive || selection.start > 0
            let dc = dcTables[dcIndex], ac = acTables[acIndex]
            if (needsDC && dc == nil) || (needsAC && ac == nil) { throw failure(.missingHuffmanTable, offset) }
            if !component.hasQuantization {
                guard let table = quantizationTables[component.quantizationIndex] else {
                    throw failure(.missingQuantizationTable, offset)
                }
                component.quantization.update(from: table, count: 64)
                component.hasQuantization = true
            }
            chosen.append((component, dc, ac))
        }
        guard count == 1 || blocksInMCU <= 10 else { throw malformed }
        // A sequential frame whose first scan holds every component (and whose MCUs are whole
        // rows of blocks when it is alone) is rendered while that scan is decoded (a later scan,
        // which no valid file has, decodes into the rings and changes nothing).
        let streamed = !allocated && !frame.progressive && count == frame.components.count
            && (count > 1 || (frame.maxHorizontal == 1 && frame.maxVertical == 1))
        if !allocated { allocate(frame, streamed: streamed) }
        let members = chosen.map { ScanDecoder.Member(component: $0.component, dc: $0.dc, ac: $0.ac) }
        var decoder = ScanDecoder(reader: EntropyReader(bytes: bytes, position: payload.upperBound), frame: frame,
                                  members: members, selection: selection, restartInterval: restartInterval,
                                  stage: streamed ? stage : nil)
        try decoder.decode()
        return decoder.reader.position
    }

    /// Runs the IDCT over every block of a progressive frame's coefficients.
    private static func finishProgressive(_ frame: JPEGFrame) {
        let block = UnsafeMutablePointer<Int32>.allocate(capacity: 64)
        let workspace = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        workspace.initialize(repeating: 0, count: 64)
        defer {
            block.deallocate()
            workspace.deallocate()
        }
        for component in frame.components where component.hasQuantization {
            let quantization = component.quantization
            let base = component.coefficients.baseAddress.unsafelyUnwrapped
            for row in 0..<component.usedBlocksHigh {
                for column in 0..<component.usedBlocksWide {
                    let coefficients = base + (row * component.blocksWide + column) * 64
                    var onlyDC = true
                    for index in 0..<64 {
                        let value = Int32(coefficients[index])
                        if index > 0, value != 0 { onlyDC = false }
                        block[index] = value &* quantization[index]
                    }
                    let output = component.sampleOrigin(column: column, row: row)
                    if onlyDC {
                        InverseDCT.fillDC(block[0], size: component.blockSize, output: output, stride: component.stride)
                    } else {
                        InverseDCT.transform(block, size: component.blockSize, workspace: workspace,
                                             output: output, stride: component.stride)
                    }
                }
            }
        }
    }

    /// How the components map to RGB, decided the way libjpeg does: JFIF means YCbCr; an Adobe
    /// marker's transform flag decides between RGB/YCbCr and CMYK/YCCK; otherwise component
    /// identifiers `R`, `G`, `B` mean RGB.
    private func colorSpace(_ frame: JPEGFrame) -> OutputStage.ColorSpace {
        let identifiers = frame.components.map(\.identifier)
        switch frame.components.count {
        case 1:
            return .grey
        case 3:
            if sawJFIF { return .yCbCr }
            if let adobeTransform { return adobeTransform == 0 ? .rgb : .yCbCr }
            return identifiers == [0x52, 0x47, 0x42] ? .rgb : .yCbCr
        default:
            if let adobeTransform { return adobeTransform == 0 ? .cmyk : .ycck }
            return .cmyk
        }
    }
}
