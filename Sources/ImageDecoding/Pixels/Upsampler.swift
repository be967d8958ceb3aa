/// Brings one component's samples up to the output resolution, one output row at a time, with
/// libjpeg-turbo's default methods: "fancy" (triangle filter) for 2:1 horizontally, vertically
/// or both, plain replication for other integral ratios and for 1/8-scale decodes.
struct Upsampler {
    private enum Method {
        case copy, fancyHorizontal, fancyVertical, fancyBoth, replicate
    }

    private let component: FrameComponent
    private let method: Method
    private let horizontalFactor: Int
    private let verticalFactor: Int
    private let outputWidth: Int
    /// One output row for the methods that compute it (owned by the caller's `rows` buffer).
    private let row: UnsafeMutablePointer<UInt8>

    /// `row` must hold `outputWidth + 8` samples and outlive the upsampler.
    init(component: FrameComponent, frame: JPEGFrame, row: UnsafeMutablePointer<UInt8>) {
        self.component = component
        self.row = row
        outputWidth = frame.outputWidth
        // How many output samples one input sample spans, as libjpeg's h_out_group / h_in_group.
        let horizontalIn = component.horizontal * component.blockSize / frame.minimumBlockSize
        let verticalIn = component.vertical * component.blockSize / frame.minimumBlockSize
        horizontalFactor = max(1, frame.maxHorizontal / max(1, horizontalIn))
        verticalFactor = max(1, frame.maxVertical / max(1, verticalIn))
        let fancy = frame.minimumBlockSize > 1
        switch (horizontalFactor, verticalFactor) {
        case (1, 1): method = .copy
        case (2, 1): method = fancy && component.sampledWidth > 2 ? .fancyHorizontal : .replicate
        case (1, 2): method = fancy ? .fancyVertical : .replicate
        case (2, 2): method = fancy && component.sampledWidth > 2 ? .fancyBoth : .replicate
        default: method = .replicate
        }
    }

    /// The samples of output row `y` (at least `outputWidth` of them).
    func row(_ y: Int) -> UnsafePointer<UInt8> {
        let base = component.samples.baseAddress.unsafelyUnwrapped
        let stride = component.stride
        // Whole plane or ring: sample row `r` is at `base + (r & mask) * stride`.
        let mask = component.rowMask
        let width = component.sampledWidth
        let lastRow = component.sampledHeight - 1
        switch method {
        case .copy:
            return UnsafePointer(base + (y & mask) * stride)
        case .fancyHorizontal:
            let input = base + (y & mask) * stride
            row[0] = input[0]
            row[1] = UInt8(truncatingIfNeeded: (Int(input[0]) * 3 + Int(input[1]) + 2) >> 2)
            for column in 1..<(width - 1) {
                let center = Int(input[column]) * 3
                row[2 * column] = UInt8(truncatingIfNeeded: (center + Int(input[column - 1]) + 1) >> 2)
                row[2 * column + 1] = UInt8(truncatingIfNeeded: (center + Int(input[column + 1]) + 2) >> 2)
            }
            row[2 * width - 2] = UInt8(truncatingIfNeeded: (Int(input[width - 1]) * 3 + Int(input[width - 2]) + 1) >> 2)
            row[2 * width - 1] = input[width - 1]
        case .fancyVertical:
            let nearest = y >> 1
            let upper = y & 1 == 0
            let other = upper ? max(nearest - 1, 0) : min(nearest + 1, lastRow)
            let bias = upper ? 1 : 2
            let near = base + (nearest & mask) * stride, far = base + (other & mask) * stride
            for column in 0..<width {
                row[column] = UInt8(truncatingIfNeeded: (Int(near[column]) * 3 + Int(far[column]) + bias) >> 2)
            }
        case .fancyBoth:
            let nearest = y >> 1
            let other = y & 1 == 0 ? max(nearest - 1, 0) : min(nearest + 1, lastRow)
            let near = base + (nearest & mask) * stride, far = base + (other & mask) * stride
            // The column sums 3 * near + far, each computed where it is needed (no value carried
            // from one column to the next), so the compiler vectorizes the loop.
            @inline(__always) func sum(_ column: Int) -> Int16 {
                Int16(near[column]) &* 3 &+ Int16(far[column])
            }
            row[0] = UInt8(truncatingIfNeeded: (sum(0) &* 4 &+ 8) &>> 4)
            row[1] = UInt8(truncatingIfNeeded: (sum(0) &* 3 &+ sum(1) &+ 7) &>> 4)
            for column in 1..<(width - 1) {
                let this = sum(column) &* 3
                row[2 &* column] = UInt8(truncatingIfNeeded: (this &+ sum(column &- 1) &+ 8) &>> 4)
                row[2 &* column &+ 1] = UInt8(truncatingIfNeeded: (this &+ sum(column &+ 1) &+ 7) &>> 4)
            }
            row[2 * width - 2] = UInt8(truncatingIfNeeded: (sum(width - 1) &* 3 &+ sum(width - 2) &+ 8) &>> 4)
            row[2 * width - 1] = UInt8(truncatingIfNeeded: (sum(width - 1) &* 4 &+ 7) &>> 4)
        case .replicate:
            let input = base + ((y / verticalFactor) & mask) * stride
            if horizontalFactor == 1 { return UnsafePointer(input) }
            var column = 0
            var source = 0
            while column < outputWidth {
                let value = input[source]
                let end = min(column + horizontalFactor, outputWidth)
                while column < end {
                    row[column] = value
                    column += 1
                }
                source += 1
            }
        }
        return UnsafePointer(row)
    }
}
