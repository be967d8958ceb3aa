import ImageDecoding
import XCTest

final class RGBImageTests: XCTestCase {
    func testSubscriptReadsRowMajorTriples() {
        let image = RGBImage(width: 2, height: 2, pixels: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        XCTAssertEqual(image[x: 1, y: 0].red, 4)
        XCTAssertEqual(image[x: 0, y: 1].green, 8)
        XCTAssertEqual(image[x: 1, y: 1].blue, 12)
    }
}
