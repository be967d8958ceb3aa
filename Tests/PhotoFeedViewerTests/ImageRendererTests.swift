import Foundation
import ImageDecoding
import PhotoFeed
import PhotoFeedViewerCore
import TestSupport
import XCTest

/// The thumbnail renderers are pure functions from an image and a size to terminal bytes:
/// golden outputs for each protocol.
final class ImageRendererTests: LeakCheckingTestCase {
    private let esc = "\u{1B}"

    /// Red, green / blue, white.
    private let quad = RGBImage(width: 2, height: 2, pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])

    private func solid(_ red: UInt8, _ green: UInt8, _ blue: UInt8, width: Int = 1, height: Int = 1) -> RGBImage {
        RGBImage(width: width, height: height, pixels: Array((0..<(width * height)).map { _ in [red, green, blue] }.joined()))
    }

    func testHalfBlocksInTrueColourPutTheUpperPixelInFrontAndTheLowerBehind() {
        XCTAssertEqual(HalfBlockRenderer.lines(for: quad, columns: 2, rows: 1, depth: .truecolor),
                       ["\(esc)[38;2;255;0;0;48;2;0;0;255m▀\(esc)[38;2;0;255;0;48;2;255;255;255m▀\(esc)[0m"])
    }

    func testHalfBlocksIn256ColoursDrawPaletteColoursExactlyAsTheyAre() {
        XCTAssertEqual(HalfBlockRenderer.lines(for: quad, columns: 2, rows: 1, depth: .palette256),
                       ["\(esc)[38;5;196;48;5;21m▀\(esc)[38;5;46;48;5;231m▀\(esc)[0m"])
        XCTAssertEqual(PaletteQuantizer.indices(for: solid(128, 128, 128, width: 3, height: 2)), Array(repeating: 244, count: 6),
                       "greys use the grey ramp")
        XCTAssertEqual(PaletteQuantizer.indices(for: solid(0, 0, 0)), [16])
    }

    func testHalfBlocksRepeatAColourOnlyWhenItChanges() {
        let lines = HalfBlockRenderer.lines(for: solid(10, 20, 30, width: 4, height: 4), columns: 3, rows: 2, depth: .truecolor)
        XCTAssertEqual(lines, Array(repeating: "\(esc)[38;2;10;20;30;48;2;10;20;30m▀▀▀\(esc)[0m", count: 2))
        XCTAssertEqual(HalfBlockRenderer.lines(for: quad, columns: 0, rows: 2, depth: .truecolor), [])
    }

    func testKittySendsRGBPixelsBase64AtTheCursorWithoutMovingIt() {
        let sequence = KittyImageRenderer.sequence(for: solid(10, 20, 30), columns: 1, rows: 1, id: 7)
        XCTAssertEqual(sequence, "\(esc)_Ga=T,f=24,s=8,v=16,i=7,c=1,r=1,C=1,q=2,m=0;" + String(repeating: "ChQe", count: 128) + "\(esc)\\")
    }

    func testKittySplitsLargePayloadsInto4096ByteChunks() {
        let sequence = KittyImageRenderer.sequence(for: solid(1, 2, 3), columns: 6, rows: 4, id: 1)
        let chunks = sequence.components(separatedBy: "\(esc)\\").filter { !$0.isEmpty }
        XCTAssertEqual(chunks.count, 3, "48 x 64 x 3 bytes = 12288 base64 characters")
        XCTAssertTrue(chunks[0].hasPrefix("\(esc)_Ga=T,f=24,s=48,v=64,i=1,c=6,r=4,C=1,q=2,m=1;"))
        XCTAssertTrue(chunks[1].hasPrefix("\(esc)_Gm=1;"))
        XCTAssertTrue(chunks[2].hasPrefix("\(esc)_Gm=0;"))
        let payload = chunks.map { String($0.split(separator: ";", maxSplits: 1)[1]) }
        XCTAssertEqual(payload.map(\.count), [4096, 4096, 4096])
        XCTAssertEqual(Data(base64Encoded: payload.joined()), Data(Array(repeating: [UInt8]([1, 2, 3]), count: 48 * 64).joined()))
    }

    func testITermSendsAJPEGFileStretchedOverTheCells() throws {
        let sequence = ITermImageRenderer.sequence(for: quad, columns: 3, rows: 2)
        let header = "\(esc)]1337;File=inline=1;size="
        XCTAssertTrue(sequence.hasPrefix(header))
        XCTAssertTrue(sequence.hasSuffix("\u{7}"))
        let fields = sequence.dropFirst(header.count).dropLast()
        let parts = fields.split(separator: ":", maxSplits: 1)
        XCTAssertEqual(parts.count, 2)
        let size = try XCTUnwrap(Int(parts[0].prefix { $0.isNumber }))
        XCTAssertTrue(parts[0].hasSuffix(";width=3;height=2;preserveAspectRatio=0"), String(parts[0]))
        let file = try XCTUnwrap(Data(base64Encoded: String(parts[1])))
        XCTAssertEqual(file.count, size)
        let decoded = try JPEGDecoder().decode(file)
        XCTAssertEqual([decoded.width, decoded.height], [24, 32])
    }

    func testSixelDrawsBandsOfSixRowsInAPaletteColour() {
        XCTAssertEqual(SixelRenderer.sequence(for: solid(255, 0, 0), columns: 1, rows: 1),
                       "\(esc)P0;1;0q\"1;1;8;16#180;2;100;0;0#180!8~-#180!8~-#180!8N-\(esc)\\")
    }

    func testSixelOverlaysOneRunPerColourInABand() {
        // top half red, bottom half blue: the band across the middle (rows 6-11) holds both
        let image = RGBImage(width: 1, height: 2, pixels: [255, 0, 0, 0, 0, 255])
        let sequence = SixelRenderer.sequence(for: image, columns: 1, rows: 1)
        XCTAssertTrue(sequence.contains("#5;2;0;0;100#180;2;100;0;0"), sequence)
        XCTAssertTrue(sequence.contains("#180!8~-#5!8{$#180!8B-#5!8N-"), sequence)
    }

    func testResamplingCropsTheMiddleToTheBoxShape() {
        // 4 x 2, columns black, red, green, black: a square box keeps the middle two columns, averaged
        let row: [UInt8] = [0, 0, 0, 200, 0, 0, 0, 100, 0, 0, 0, 0]
        let strip = RGBImage(width: 4, height: 2, pixels: row + row)
        XCTAssertEqual(CenterCrop.filled(strip, width: 1, height: 1).pixels, [100, 50, 0])
        XCTAssertEqual(CenterCrop.filled(quad, width: 2, height: 2), quad)
    }

    func testTheProtocolComesFromTheEnvironmentUnlessAsked() {
        let cases: [([String: String], ImageMode, ThumbnailProtocol)] = [
            (["TERM": "xterm-kitty"], .auto, .kitty),
            (["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"], .auto, .iterm),
            (["TERM": "foot"], .auto, .sixel),
            (["TERM": "xterm-256color", "COLORTERM": "truecolor"], .auto, .halfBlocks(.truecolor)),
            (["TERM": "xterm-256color"], .auto, .halfBlocks(.palette256)),
            (["TERM": "dumb"], .auto, .none),
            (["TERM": "xterm-kitty", "NO_COLOR": "1"], .auto, .none),
            (["TERM": "xterm", "NO_COLOR": "1", "COLORTERM": "24bit"], .blocks, .halfBlocks(.truecolor)),
            (["TERM": "xterm-kitty"], .sixel, .sixel),
            (["TERM": "xterm-kitty"], .none, .none),
        ]
        for (environment, mode, expected) in cases {
            XCTAssertEqual(ThumbnailProtocol.resolve(mode, environment: environment), expected, "\(environment) \(mode)")
        }
    }

    func testTheScreenDrawsThumbnailsBesideTheTitlesAndPlaceholdersForTheRest() {
        var state = ScreenState(request: PhotoRequest(), sourceLabel: "demo")
        state.sections = [section([1, 2, 3])]
        state.imagesEnabled = true
        let cells: [String: ThumbnailCell] = [photo(1).media.m: .loaded(quad), photo(2).media.m: .failed("timeout")]
        let lines = ScreenRenderer.lines(for: state, width: 60, height: 15, style: .none, thumbnails: cells,
                                         graphics: .halfBlocks(.truecolor))
        XCTAssertEqual(lines.count, 15)
        for line in lines {
            XCTAssertEqual(TerminalText.columns(of: TerminalText.strippingEscapes(line)), 60, line)
        }
        XCTAssertTrue(lines[2].hasPrefix("▸ \(esc)[38;2;255;0;0;48;2;"), lines[2])
        XCTAssertEqual(TerminalText.strippingEscapes(lines[2]), "▸ ▀▀▀▀▀▀▀▀▀▀▀▀ Photo 1" + String(repeating: " ", count: 60 - 22))
        XCTAssertEqual(TerminalText.strippingEscapes(lines[3]).prefix(31), "  ▀▀▀▀▀▀▀▀▀▀▀▀ Ana Lima · 2026-")
        XCTAssertEqual(TerminalText.strippingEscapes(lines[4]).prefix(28), "  ▀▀▀▀▀▀▀▀▀▀▀▀ #sea #sky    ")
        XCTAssertEqual(TerminalText.strippingEscapes(lines[7]).prefix(23), "  ░ timeout  ░ Ana Lima", "a failure says why")
        XCTAssertEqual(TerminalText.strippingEscapes(lines[11]).prefix(23), "  ░   ···    ░ Ana Lima", "still loading")
        XCTAssertEqual(ScreenRenderer.visiblePhotos(state, width: 60, height: 15).map(\.link), [1, 2, 3].map { photo($0).link })
        XCTAssertEqual(ScreenRenderer.placements(for: state, width: 60, height: 15, thumbnails: cells),
                       [ThumbnailPlacement(row: 3, column: 3, columns: 12, rows: 4, image: quad, id: 0)])
        XCTAssertEqual(ScreenRenderer.lines(for: state, width: 60, height: 15, style: .none, thumbnails: cells, graphics: .kitty)[2],
                       "▸ " + String(repeating: " ", count: 12) + " Photo 1" + String(repeating: " ", count: 60 - 22),
                       "graphics protocols draw over a blank box")
    }

    func testOverlaysPutEachPictureAtItsCell() {
        let placement = ThumbnailPlacement(row: 3, column: 3, columns: 1, rows: 1, image: solid(255, 0, 0), id: 4)
        XCTAssertEqual(ThumbnailPlacement.overlay([placement], graphics: .sixel),
                       "\(esc)[3;3H" + SixelRenderer.sequence(for: solid(255, 0, 0), columns: 1, rows: 1))
        XCTAssertEqual(ThumbnailPlacement.overlay([placement], graphics: .kitty),
                       KittyImageRenderer.clearPlacements + "\(esc)[3;3H" + KittyImageRenderer.sequence(for: solid(255, 0, 0), columns: 1, rows: 1, id: 5))
        XCTAssertEqual(ThumbnailPlacement.overlay([], graphics: .kitty), KittyImageRenderer.clearPlacements, "placements of the last frame go")
        XCTAssertEqual(ThumbnailPlacement.overlay([placement], graphics: .halfBlocks(.truecolor)), "")
        XCTAssertEqual(ThumbnailPlacement.overlay([placement], graphics: .none), "")
    }
}
