/// Turns a decoded frame's component planes into RGB pixels: upsamples each component per
/// output row and converts the colours with libjpeg's fixed-point formulas.
enum OutputStage {
    /// What the components hold.
    enum ColorSpace {
        case grey, yCbCr, rgb, cmyk, ycck
    }

    static func render(_ frame: JPEGFrame, colorSpace: ColorSpace) -> RGBImage {
        let width = frame.outputWidth, height = frame.outputHeight
        let components = frame.components
        let rowCapacity = width + 8
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: rowCapacity * components.count)
        rows.initialize(repeating: 0, count: rowCapacity * components.count)
        defer { rows.deallocate() }
        let upsamplers = components.indices.map {
            Upsampler(component: components[$0], frame: frame, row: rows + $0 * rowCapacity)
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        ColorTables.shared.withPointers { tables in
            pixels.withUnsafeMutableBufferPointer { buffer in
                let output = buffer.baseAddress.unsafelyUnwrapped
                for y in 0..<height {
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
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
