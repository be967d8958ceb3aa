import FeedServer
import Foundation
import ImageDecoding
import Networking
import PhotoFeed
import Reactive
import TestSupport
import XCTest

/// The thumbnail pipeline against `FeedServer` over real sockets on 127.0.0.1.
final class ThumbnailLoaderServerTests: LeakCheckingTestCase {
    private var servers: [FeedServer] = []

    override func tearDown() {
        servers.forEach { $0.stop() }
        servers = []
        super.tearDown()
    }

    private func startServer(_ configuration: FeedServer.Configuration = .init()) throws -> FeedServer {
        let server = try FeedServer(configuration: configuration)
        servers.append(server)
        return server
    }

    private func makeLoader(concurrent: Int = 4, timeout: Duration? = nil) -> ThumbnailLoader {
        let provider = NetworkProvider<PhotoImage>(trackInflights: true, scheduler: ConcurrentDispatchQueueScheduler(qos: .default),
                                                   requestTimeout: timeout)
        return ThumbnailLoader(provider: provider, maximumConcurrentLoads: concurrent)
    }

    private func item(media: String) -> Photo.Item {
        Photo.Item(title: "t", link: media, media: .init(m: media), author: "a", authorID: "1", published: "", tags: "", description: "")
    }

    private func result(_ single: Single<RGBImage>) async -> Result<RGBImage, any Error> {
        do { return .success(try await single.value) } catch { return .failure(error) }
    }

    func testTheDemoFeedsPicturesDecodeToWhatTheServerPainted() async throws {
        let server = try startServer()
        let store = PhotoFeedStore(provider: NetworkProvider<FlickrAPI>(endpointClosure: FlickrAPI.endpointClosure(baseURL: server.baseURL),
                                                                        scheduler: ConcurrentDispatchQueueScheduler(qos: .default)))
        let photo = try await store.load().value
        let loader = makeLoader()

        let images = try await withThrowingTaskGroup(of: (Int, RGBImage).self) { group in
            for (index, item) in photo.items.enumerated() {
                group.addTask { (index, try await loader.thumbnail(for: item, maxPixelSize: 240).value) }
            }
            return try await group.reduce(into: [Int: RGBImage]()) { $0[$1.0] = $1.1 }
        }

        XCTAssertEqual(images.count, 20)
        XCTAssertEqual(server.imageRequestCount, 20)
        for (index, item) in photo.items.enumerated() {
            let name = try XCTUnwrap(item.media.m.components(separatedBy: "/images/").last)
            let painted = DemoPicture(name: name)
            let image = try XCTUnwrap(images[index])
            XCTAssertEqual(image.width, painted.width)
            XCTAssertEqual(image.height, painted.height)
            let reference = painted.pixels()
            XCTAssertEqual(image.pixels.count, reference.count)
            XCTAssertLessThan(BulkBytes.meanAbsoluteDifference(image.pixels, reference), 8, "mean error per sample of \(name)")
        }
    }

    func testThumbnailsArriveOffTheCallersThreadAtTheAskedSize() async throws {
        let server = try startServer()
        let loader = makeLoader()
        let media = server.imageURL(named: "65535/1_abc_m.jpg")
        let thread = Recorder<Bool>()
        let image = try await loader.thumbnail(for: item(media: media), maxPixelSize: 40)
            .do(onSuccess: { _ in thread.append(Thread.isMainThread) }).value
        XCTAssertEqual(max(image.width, image.height), 40)
        XCTAssertEqual(thread.values, [false])
    }

    func testBrokenPicturesFailWithTheDecodersReason() async throws {
        let server = try startServer()
        let loader = makeLoader()
        let truncated = await result(loader.thumbnail(for: item(media: server.imageURL(named: "truncated/65535/1_m.jpg")), maxPixelSize: 40))
        let notJPEG = await result(loader.thumbnail(for: item(media: server.imageURL(named: "not-jpeg/65535/1_m.jpg")), maxPixelSize: 40))
        let missing = await result(loader.thumbnail(for: item(media: "\(server.baseURL.absoluteString)nothing.jpg"), maxPixelSize: 40))

        XCTAssertThrowsError(try truncated.get()) { XCTAssertEqual(($0 as? ImageDecodingError)?.reason, .truncated) }
        XCTAssertThrowsError(try notJPEG.get()) { XCTAssertEqual(($0 as? ImageDecodingError)?.reason, .notJPEG) }
        XCTAssertThrowsError(try missing.get()) { XCTAssertEqual(($0 as? ProviderError)?.response?.statusCode, 404) }
    }

    func testDisposingASlowPictureClosesItsConnection() throws {
        let server = try startServer()
        let loader = makeLoader()
        let subscription = loader.thumbnail(for: item(media: server.imageURL(named: "slow/10000/65535/1_m.jpg")), maxPixelSize: 40)
            .subscribe()
        XCTAssertTrue(waitUntil { server.imageRequestCount == 1 })
        subscription.dispose()
        XCTAssertTrue(waitUntil { server.abandonedImageCount == 1 }, "the server saw the client go")
    }

    func testASlowPictureTimesOutWhileTheOthersArrive() async throws {
        let server = try startServer()
        // The server paints each picture on its first request: do that first, without a timeout.
        let warm = makeLoader()
        for number in 2...5 {
            _ = try await warm.thumbnail(for: item(media: server.imageURL(named: "65535/\(number)_m.jpg")), maxPixelSize: 40).value
        }
        // The timeout leaves room for a picture to be sent and decoded under the thread sanitizer
        // on a busy machine; the slow one answers far past it.
        let loader = makeLoader(concurrent: 2, timeout: .seconds(4))
        let slow = loader.thumbnail(for: item(media: server.imageURL(named: "slow/30000/65535/1_m.jpg")), maxPixelSize: 40)
        let slowTask = Task { () -> Result<RGBImage, any Error> in
            do { return .success(try await slow.value) } catch { return .failure(error) }
        }
        for number in 2...5 {
            let image = try await loader.thumbnail(for: item(media: server.imageURL(named: "65535/\(number)_m.jpg")), maxPixelSize: 40).value
            XCTAssertEqual(max(image.width, image.height), 40)
        }
        let outcome = await slowTask.value
        XCTAssertThrowsError(try outcome.get()) { XCTAssertTrue($0.isTimeout, "\($0)") }
    }
}
