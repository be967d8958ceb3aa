/// Turns a decoded frame's component samples into RGB pixels: upsamples each component per
/// output row and converts the colours with libjpeg's fixed-point formulas.
///
/// Either all at once from whole planes (progressive frames, scans of some components only), or
/// streamed as libjpeg does: while a sequential scan decodes into rings of a few MCU rows
/// (`FrameComponent.useRings`), each MCU row is rendered once the row below it is in (its
/// upsampling reads the neighbouring rows), so the output is the only buffer the size of the
/// picture.
final class OutputStage {
    /// What the components hold.
    enum ColorSpace {
        case grey, yCbCr, rgb, cmyk, ycck
    }

    /// MCU rows a ring holds: the row being rendered, the one above and the one below it.
    static let ringMCURows = 3

    private let frame: JPEGFrame
    private let colorSpace: ColorSpace
    /// Whether the components are rings filled MCU row by MCU row.
    private let streamed: Bool
    /// One upsampled row per component.
    private let rows: UnsafeMutablePointer<UInt8>
    private let upsamplers: [Upsampler]
    private var pixels: [UInt8]
    /// Output rows per MCU row.
    private let rowsPerMCU: Int
    /// MCU rows whose ring rows were made mid-grey, and of those, how many were decoded.
    private var prepared = 0
    private var decoded = 0

    /// A stage for `frame`, whose components are allocated (whole planes or rings).
    init(frame: JPEGFrame, colorSpace: ColorSpace) {
        self.frame = frame
        self.colorSpace = colorSpace
        let components = frame.components
        streamed = components.contains { $0.rowMask != -1 }
        let rowCapacity = frame.outputWidth + 8
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: rowCapacity * components.count)
        rows.initialize(repeating: 0, count: rowCapacity * components.count)
        self.rows = rows
        upsamplers = components.indices.map {
            Upsampler(component: components[$0], frame: frame, row: rows + $0 * rowCapacity)
        }
        pixels = [UInt8](repeating: 0, count: frame.outputWidth * frame.outputHeight * 3)
        rowsPerMCU = frame.maxVertical * frame.minimumBlockSize
    }

    deinit {
        rows.deallocate()
    }

    /// Streamed: before MCU row `mcuRow` is decoded, makes its rows in the rings mid-grey (what
    /// a whole plane holds where decoding stopped early).
    func prepare(mcuRow: Int) {
        guard streamed else { return }
        for component in frame.components {
            let rows = component.rowsPerMCU
            for y in (mcuRow * rows)..<(mcuRow * rows + rows) {
                component.sampleRow(y).update(repeating: 128, count: component.stride)
            }
        }
        prepared = mcuRow + 1
    }

    /// Streamed: after MCU row `mcuRow` is decoded, renders the row above it, whose upsampling
    /// context is now complete (and the last row with it).
    func finish(mcuRow: Int) {
        guard streamed else { return }
        decoded = mcuRow + 1
        if mcuRow > 0 { render(mcuRow: mcuRow - 1) }
        if decoded == frame.mcusHigh { render(mcuRow: mcuRow) }
    }

    /// The picture: renders what is not yet rendered, rows never decoded mid-grey.
    func image() -> RGBImage {
        if streamed {
            while decoded < frame.mcusHigh {
                // A row cut short keeps the blocks decoded before the cut.
                if prepared == decoded { prepare(mcuRow: decoded) }
                finish(mcuRow: decoded)
            }
        } else {
            render(rows: 0..<frame.outputHeight)
        }
        return RGBImage(width: frame.outputWidth, height: frame.outputHeight, pixels: pixels)
    }

    private func render(mcuRow: Int) {
        render(rows: (mcuRow * rowsPerMCU)..<min(mcuRow * rowsPerMCU + rowsPerMCU, frame.outputHeight))
    }

    private func render(rows: Range<Int>) {
        let width = frame.outputWidth, colorSpace = colorSpace, upsamplers = upsamplers
        ColorTables.shared.withPointers { tables in
            pixels.withUnsafeMutableBufferPointer { buffer in
                let output = buffer.baseAddress.unsafelyUnwrapped
                for y in rows {
                    let out = output + y * width * 3
                    switch colorSpace {
                    case .grey:
                        ColorConversion.grey(upsamplers[0].row(y), out, width)
                    case .rgb:
                        ColorConversion.rgb(upsamplers[0].row(y), upsamplers[1].row(y), upsamplers[2].row(y), out, width)
                    case .yCbCr:
                        ColorConversion.yCbCr(upsamplers[0].row(y), upsamplers[1].row(y), upsamplers[2].row(y),
                                              out, width)
                    case .cmyk, .ycck:
                        ColorConversion.cmyk(upsamplers[0].row(y), upsamplers[1].row(y), upsamplers[2].row(y),
                                             upsamplers[3].row(y), out, width, ycck: colorSpace == .ycck, tables)
                    }
                }
            }
        }
    }
}
