@testable import ImageDecoding
import TestSupport
import XCTest

/// Rendering MCU row by MCU row from rings, as a sequential scan is decoded, gives the pixels
/// rendering whole planes gives, for every sampling and scale the upsampler treats differently;
/// rows the scan never reached are mid-grey and a row cut short keeps what was decoded of it.
final class OutputStageTests: XCTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try skipSingleThreadedComputationUnderThreadSanitizer()
    }

    /// A frame of `samplings` (horizontal, vertical per component) at IDCT block size `blockSize`.
    private static func frame(_ width: Int, _ height: Int, _ samplings: [(Int, Int)], blockSize: Int) -> JPEGFrame {
        let components = samplings.enumerated().map { index, sampling in
            FrameComponent(identifier: UInt8(index + 1), horizontal: sampling.0, vertical: sampling.1, quantizationIndex: 0)
        }
        var frame = JPEGFrame(width: width, height: height, progressive: false, components: components)
        frame.choose(minimumBlockSize: blockSize)
        return frame
    }

    /// A sample that differs by component, column and row, covering 0...255.
    private static func sample(_ component: Int, _ x: Int, _ y: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: x &* 37 &+ y &* 91 &+ component &* 61 &+ (x &* y) % 7)
    }

    private static func colorSpace(_ frame: JPEGFrame) -> OutputStage.ColorSpace {
        switch frame.components.count {
        case 1: .grey
        case 3: .yCbCr
        default: .cmyk
        }
    }

    /// Whether the scan has decoded sample (`x`, `y`) of a component when it stopped in MCU
    /// row `cutRow`, halfway across (every row decoded when `cutRow` is nil).
    private static func decoded(_ component: FrameComponent, _ x: Int, _ y: Int, cutRow: Int?) -> Bool {
        guard let cutRow else { return true }
        let row = y / component.rowsPerMCU
        return row < cutRow || (row == cutRow && x < component.stride / 2)
    }

    /// The picture rendered from whole planes holding what the scan decoded, mid-grey elsewhere.
    private static func whole(_ frame: JPEGFrame, cutRow: Int?) -> RGBImage {
        for component in frame.components {
            component.allocate(progressive: false)
            for y in 0..<(component.blocksHigh * component.blockSize) {
                let row = component.sampleRow(y)
                for x in 0..<component.stride where decoded(component, x, y, cutRow: cutRow) {
                    row[x] = sample(Int(component.identifier), x, y)
                }
            }
        }
        return OutputStage(frame: frame, colorSpace: colorSpace(frame)).image()
    }

    /// The picture rendered from rings filled MCU row by MCU row, as `ScanDecoder` does.
    private static func streamed(_ frame: JPEGFrame, cutRow: Int?) -> RGBImage {
        let rings = FrameComponent.useRings(frame.components, mcuRows: OutputStage.ringMCURows)
        defer { withExtendedLifetime(rings) {} }
        let stage = OutputStage(frame: frame, colorSpace: colorSpace(frame))
        for mcuRow in 0..<min(frame.mcusHigh, (cutRow ?? frame.mcusHigh) + 1) {
            stage.prepare(mcuRow: mcuRow)
            for component in frame.components {
                for y in (mcuRow * component.rowsPerMCU)..<((mcuRow + 1) * component.rowsPerMCU) {
                    let row = component.sampleRow(y)
                    for x in 0..<component.stride where decoded(component, x, y, cutRow: cutRow) {
                        row[x] = sample(Int(component.identifier), x, y)
                    }
                }
            }
            if mcuRow != cutRow { stage.finish(mcuRow: mcuRow) }
        }
        return stage.image()
    }

    /// Equal pictures; otherwise names the first pixel that differs (not all of them).
    private func assertSame(_ image: RGBImage, _ expected: RGBImage, _ label: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual([image.width, image.height], [expected.width, expected.height], label, file: file, line: line)
        guard image.pixels.count == expected.pixels.count,
              let first = image.pixels.indices.first(where: { image.pixels[$0] != expected.pixels[$0] }) else { return }
        let width = max(1, expected.width)
        XCTFail("\(label): pixel (\(first / 3 % width), \(first / 3 / width)) differs", file: file, line: line)
    }

    private static let samplings: [[(Int, Int)]] = [
        [(2, 2), (1, 1), (1, 1)], [(2, 1), (1, 1), (1, 1)], [(1, 2), (1, 1), (1, 1)], [(1, 1), (1, 1), (1, 1)],
        [(4, 1), (2, 1), (1, 1)], [(1, 1), (2, 2), (1, 1)], [(2, 2), (1, 2), (2, 1)], [(1, 1)], [(1, 1), (1, 1), (1, 1), (1, 1)],
    ]

    func testRingsGiveThePixelsOfWholePlanesForEverySamplingAndScale() {
        for sampling in Self.samplings {
            for blockSize in [8, 4, 2, 1] {
                for (width, height) in [(37, 29), (17, 45), (64, 48), (1, 1)] {
                    let label = "\(sampling) at \(blockSize)/8, \(width)x\(height)"
                    let expected = Self.whole(Self.frame(width, height, sampling, blockSize: blockSize), cutRow: nil)
                    let image = Self.streamed(Self.frame(width, height, sampling, blockSize: blockSize), cutRow: nil)
                    assertSame(image, expected, label)
                    XCTAssertNotEqual(image.pixels, [UInt8](repeating: 128, count: image.pixels.count), label)
                }
            }
        }
    }

    func testAScanStoppedInARowKeepsItsDecodedHalfAndLeavesTheRestMidGrey() {
        for sampling in Self.samplings {
            for blockSize in [8, 2] {
                let frame = Self.frame(61, 70, sampling, blockSize: blockSize)
                for cutRow in 0..<frame.mcusHigh {
                    let label = "\(sampling) at \(blockSize)/8, cut in MCU row \(cutRow)"
                    let expected = Self.whole(Self.frame(61, 70, sampling, blockSize: blockSize), cutRow: cutRow)
                    let image = Self.streamed(Self.frame(61, 70, sampling, blockSize: blockSize), cutRow: cutRow)
                    assertSame(image, expected, label)
                    // Mid-grey YCbCr or grey samples are mid-grey pixels (CMYK ones are not).
                    if cutRow < frame.mcusHigh - 2, sampling.count < 4 {
                        XCTAssertEqual(Set(image.pixels.suffix(image.width * 3)), [128], "\(label): the last row")
                    }
                }
            }
        }
    }
}
