/// How a photo must be turned to display upright: the EXIF `Orientation` tag (values 1 to 8),
/// named like `CGImagePropertyOrientation`.
public enum ImageOrientation: UInt8, Sendable, Equatable, CaseIterable {
    /// 1: stored upright.
    case up = 1
    /// 2: mirrored left to right.
    case upMirrored = 2
    /// 3: rotated 180 degrees.
    case down = 3
    /// 4: mirrored top to bottom.
    case downMirrored = 4
    /// 5: mirrored along the top-left to bottom-right diagonal (transposed).
    case leftMirrored = 5
    /// 6: must be turned 90 degrees clockwise to display.
    case right = 6
    /// 7: mirrored along the top-right to bottom-left diagonal (transversed).
    case rightMirrored = 7
    /// 8: must be turned 90 degrees counter-clockwise to display.
    case left = 8

    /// Whether displaying swaps width and height.
    public var swapsDimensions: Bool { rawValue >= 5 }
}
