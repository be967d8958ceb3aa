import FeedServer
import Foundation
import ImageDecoding
import PhotoFeed
import PhotoFeedViewerCore
import TestSupport
import XCTest

/// 256 colours that keep the picture: the demo's pictures and two real photographs, drawn as half
/// blocks in xterm's 256 colours, measured against the same drawing in 24-bit colour
/// (``PaletteFidelity``), in the list's thumbnail box of a 140-column screen and in the `p` preview:
/// pixels within 8% of the nearest-colour floor on average and areas of 2 x 2 cells within ΔE 10,
/// on every picture and so over the demo's screen.
final class PaletteColourTests: LeakCheckingTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        try skipSingleThreadedComputationUnderThreadSanitizer()
    }

    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    func testCIELabMatchesPublishedValuesForSRGB() {
        let cases: [((UInt8, UInt8, UInt8), (Double, Double, Double))] = [
            ((255, 255, 255), (100, 0, 0)),
            ((0, 0, 0), (0, 0, 0)),
            ((255, 0, 0), (53.2408, 80.0925, 67.2032)),
            ((0, 255, 0), (87.7347, -86.1827, 83.1793)),
            ((0, 0, 255), (32.2970, 79.1875, -107.8602)),
            ((128, 128, 128), (53.5850, 0, 0)),
        ]
        for ((red, green, blue), (l, a, b)) in cases {
            let lab = CIELab(red: red, green: green, blue: blue)
            XCTAssertEqual(lab.l, l, accuracy: 0.01, "\(red) \(green) \(blue)")
            XCTAssertEqual(lab.a, a, accuracy: 0.01, "\(red) \(green) \(blue)")
            XCTAssertEqual(lab.b, b, accuracy: 0.01, "\(red) \(green) \(blue)")
        }
    }

    func testThePaletteIsXtermsCubeAndGreyRamp() {
        XCTAssertTrue(XtermPalette.colour(16) == (0, 0, 0))
        XCTAssertTrue(XtermPalette.colour(21) == (0, 0, 255))
        XCTAssertTrue(XtermPalette.colour(67) == (95, 135, 175))
        XCTAssertTrue(XtermPalette.colour(196) == (255, 0, 0))
        XCTAssertTrue(XtermPalette.colour(231) == (255, 255, 255))
        XCTAssertTrue(XtermPalette.colour(232) == (8, 8, 8))
        XCTAssertTrue(XtermPalette.colour(255) == (238, 238, 238))
    }

    func testTheNearestColourIsTheNearestOfAll240InCIELAB() {
        let entries = (16...255).map { XtermPalette.lab[$0] }
        // Every 15th sample of each channel, and the dark blues whose nearest lies two levels
        // from each channel's nearest.
        let samples = Array(stride(from: 0, through: 255, by: 15)) + [45, 105, 195]
        for red in samples {
            for green in samples {
                for blue in samples {
                    let lab = CIELab(red: UInt8(red), green: UInt8(green), blue: UInt8(blue))
                    let found = XtermPalette.nearest(to: lab, linearRed: CIELab.linear[red], green: CIELab.linear[green],
                                                     blue: CIELab.linear[blue])
                    let best = entries.map { lab.squaredDistance(to: $0) }.min() ?? 0
                    XCTAssertEqual(lab.squaredDistance(to: XtermPalette.lab[found]), best, accuracy: 1e-9, "\(red) \(green) \(blue)")
                }
            }
        }
    }

    func testGreyOnlyWhereItIsNearerSoDarkGreensAndPurplesKeepTheirHue() {
        // The old mapping (each channel's nearest level, or the grey of the mean) drew these grey;
        // a cube colour is nearer in CIELAB and has their hue.
        for colour: (red: UInt8, green: UInt8, blue: UInt8) in [(45, 80, 40), (60, 35, 75), (70, 40, 90)] {
            let wanted = CIELab(red: colour.red, green: colour.green, blue: colour.blue)
            let index = XtermPalette.nearest(to: wanted, linearRed: CIELab.linear[Int(colour.red)], green: CIELab.linear[Int(colour.green)],
                                             blue: CIELab.linear[Int(colour.blue)])
            XCTAssertLessThan(index, 232, "\(colour)")
            let drawn = XtermPalette.lab[index]
            let hue = { (lab: CIELab) in atan2(lab.b, lab.a) * 180 / .pi }
            var turn = abs(hue(drawn) - hue(wanted))
            turn = min(turn, 360 - turn)
            XCTAssertLessThan(turn, 30, "\(colour) drawn as \(XtermPalette.colour(index))")
            XCTAssertEqual(PaletteQuantizer.indices(for: RGBImage(width: 1, height: 1, pixels: [colour.red, colour.green, colour.blue])), [UInt8(index)],
                           "a lone pixel has no area to mix for")
        }
        XCTAssertEqual(PaletteQuantizer.indices(for: RGBImage(width: 1, height: 1, pixels: [128, 128, 128])), [244], "a grey stays grey")
    }

    func testTheDemoScreenIn256ColoursStaysNearItsTruecolourRendering() throws {
        var thumbnails: [PaletteFidelity] = [], previews: [PaletteFidelity] = []
        // The first page's 20 thumbnails at 140 columns, and the 8 photos of the first screen
        // previewed on an 80 x 24 terminal (larger previews cost the thread sanitizer's pass
        // minutes; the photographs below are previewed at 140 x 45).
        for (position, (name, jpeg)) in try Self.demoPictures().enumerated() {
            let fidelity = try Self.fidelity(of: jpeg, preview: position < 8 ? (80, 24) : nil)
            thumbnails.append(fidelity.thumbnail)
            previews += fidelity.preview.map { [$0] } ?? []
            for (label, measured) in [("thumbnail", fidelity.thumbnail), ("preview", fidelity.preview)] {
                guard let measured else { continue }
                XCTAssertLessThanOrEqual(measured.pixelError, 1.08 * measured.floor, "\(name) \(label): \(measured)")
                XCTAssertLessThanOrEqual(measured.areaError, 10, "\(name) \(label): \(measured)")
            }
        }
        for (label, screen) in [("thumbnails", thumbnails), ("previews", previews)] {
            let pixels = screen.map { $0.pixelError * Double($0.pixelCount) }.reduce(0, +)
            let floor = screen.map { $0.floor * Double($0.pixelCount) }.reduce(0, +)
            let areas = screen.map { $0.areaError * Double($0.areaCount) }.reduce(0, +) / Double(screen.map(\.areaCount).reduce(0, +))
            XCTAssertLessThanOrEqual(pixels, 1.08 * floor, "\(label): ΔE per pixel \(pixels / floor)x the floor")
            XCTAssertLessThanOrEqual(areas, 10, "\(label): ΔE per area \(areas)")
        }
    }

    func testRealPhotographsIn256ColoursStayNearTheirTruecolourRendering() throws {
        for name in ["rocket-240x160", "chelsea-240x160"] {
            let jpeg = try Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".jpg"))
            let fidelity = try Self.fidelity(of: jpeg, preview: (140, 45))
            for (label, measured) in [("thumbnail", fidelity.thumbnail), ("preview", try XCTUnwrap(fidelity.preview))] {
                XCTAssertLessThanOrEqual(measured.pixelError, 1.08 * measured.floor, "\(name) \(label): \(measured)")
                XCTAssertLessThanOrEqual(measured.areaError, 10, "\(name) \(label): \(measured)")
            }
        }
    }

    /// The pictures of the demo's first page, as `FeedServer` serves them, by file name.
    private static func demoPictures() throws -> [(String, Data)] {
        let prefix = "http://127.0.0.1/images/"
        let page = try Photo.decode(feed: FeedGenerator().page(number: 0, imageBaseURL: prefix))
        XCTAssertEqual(page.items.count, 20)
        return page.items.map { item in
            let name = String(item.media.m.dropFirst(prefix.count))
            return (name, Data(DemoPicture(name: name).jpeg()))
        }
    }

    /// The picture `jpeg` in 256 colours against truecolour: as a list thumbnail at 140 columns
    /// (decoded to 48 pixels, as the viewer asks for half blocks) and, if asked, as the preview on
    /// a screen of `preview` columns and lines.
    private static func fidelity(of jpeg: Data, preview screen: (width: Int, height: Int)?) throws
        -> (thumbnail: PaletteFidelity, preview: PaletteFidelity?) {
        func measure(_ image: RGBImage, columns: Int, rows: Int) throws -> PaletteFidelity {
            try PaletteFidelity(truecolor: HalfBlockPixels(lines: HalfBlockRenderer.lines(for: image, columns: columns, rows: rows, depth: .truecolor)),
                                palette: HalfBlockPixels(lines: HalfBlockRenderer.lines(for: image, columns: columns, rows: rows, depth: .palette256)))
        }
        let box = ScreenRenderer.thumbnailSize(width: 140)
        let thumbnail = try measure(JPEGDecoder().decode(jpeg, maxPixelSize: 48), columns: box.columns, rows: box.rows)
        guard let screen else { return (thumbnail, nil) }
        let full = try JPEGDecoder().decode(jpeg)
        let state = ScreenState(request: PhotoRequest(), sourceLabel: "demo")
        let previewBox = try XCTUnwrap(ScreenRenderer.previewBox(state, width: screen.width, height: screen.height, cell: .loaded(full)))
        return (thumbnail, try measure(full, columns: previewBox.columns, rows: previewBox.rows))
    }
}
