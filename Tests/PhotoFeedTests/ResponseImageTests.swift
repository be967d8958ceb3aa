import FeedServer
import Foundation
import ImageDecoding
import Networking
import PhotoFeed
import Reactive
import TestSupport
import XCTest

#if !canImport(UIKit) && !canImport(AppKit)
/// Moya's `mapImage()` on Linux: the body decoded into an `RGBImage`, `ProviderError.imageMapping`
/// for a body that is not a picture, on `Response`, `Single<Response>` and `Observable<Response>`,
/// through a provider and `FeedServer` over a real socket.
final class ResponseImageTests: LeakCheckingTestCase {
    private func fetch(_ server: FeedServer, _ path: String) async throws -> Response {
        try await NetworkProvider<PhotoImage>().request(PhotoImage(url: server.baseURL.appendingPathComponent(path)))
    }

    func testAPictureMapsToItsDecodedImage() async throws {
        let server = try FeedServer()
        defer { server.stop() }
        let response = try await fetch(server, "images/moon.jpg")
        let expected = try JPEGDecoder().decode(response.data)
        let image = try response.mapImage()
        XCTAssertEqual(image, expected)
        XCTAssertGreaterThan(image.width, 0)
        XCTAssertEqual(image.pixels.count, image.width * image.height * 3)
        let provider = NetworkProvider<PhotoImage>()
        let target = PhotoImage(url: server.baseURL.appendingPathComponent("images/moon.jpg"))
        let fromSingle = try await provider.rx.request(target).mapImage().value
        XCTAssertEqual(fromSingle, expected)
        let fromObservable = try await provider.rx.request(target).asObservable().mapImage().asSingle().value
        XCTAssertEqual(fromObservable, expected)
    }

    func testABodyThatIsNotAPictureFailsWithImageMapping() async throws {
        let server = try FeedServer()
        defer { server.stop() }
        for path in ["images/not-jpeg/moon.jpg", "images/truncated/moon.jpg"] {
            let response = try await fetch(server, path)
            XCTAssertThrowsError(try response.mapImage(), path) { error in
                guard case ProviderError.imageMapping(let carried)? = error as? ProviderError else {
                    return XCTFail("\(path): \(error)")
                }
                XCTAssertEqual(carried.data, response.data, "the response that failed")
                XCTAssertEqual((error as? ProviderError)?.response?.statusCode, 200)
                XCTAssertEqual((error as? ProviderError)?.errorDescription, "Failed to map data to an Image.")
            }
        }
        let provider = NetworkProvider<PhotoImage>()
        let failing = provider.rx.request(PhotoImage(url: server.baseURL.appendingPathComponent("images/not-jpeg/x.jpg"))).mapImage()
        do {
            _ = try await failing.value
            XCTFail("an HTML page is no picture")
        } catch ProviderError.imageMapping {
        } catch {
            XCTFail("\(error)")
        }
    }
}
#endif
