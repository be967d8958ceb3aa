import FeedServer
import Foundation
import ImageDecoding
import Networking
import PhotoFeed
import Reactive
import ReactiveTesting
import TestSupport
import XCTest

/// The thumbnail pipeline in virtual time: one tick is one second; the transport answers on the
/// test scheduler and decoding runs there too.
final class ThumbnailLoaderTests: LeakCheckingTestCase {
    private struct Outcome: Sendable {
        let time: Int
        let index: Int
        let result: Result<RGBImage, any Error>

        var image: RGBImage? { try? result.get() }
        var error: (any Error)? {
            if case .failure(let error) = result { return error }
            return nil
        }
    }

    private func item(_ number: Int, url: String? = nil) -> Photo.Item {
        Photo.Item(title: "Photo \(number)", link: "https://www.flickr.com/photos/test/\(number)/",
                   media: .init(m: url ?? mediaURL(number)), author: "nobody@flickr.com (\"tester\")",
                   authorID: "1@N01", published: "2026-11-20T08:00:00Z", tags: "test", description: "")
    }

    private func mediaURL(_ number: Int) -> String {
        "https://images.test/65535/\(number)_m.jpg"
    }

    private func makeLoader(
        _ transport: ScheduledImageTransport, scheduler: TestScheduler, concurrent: Int = 2,
        memoryLimit: Int = 1 << 20, timeout: Duration? = nil, cache: ResponseCache? = nil
    ) -> ThumbnailLoader {
        let provider = NetworkProvider<PhotoImage>(transport: transport, trackInflights: true, scheduler: scheduler,
                                                   requestTimeout: timeout)
        return ThumbnailLoader(provider: provider, maximumConcurrentLoads: concurrent, memoryLimit: memoryLimit,
                               responseCache: cache, decodeScheduler: scheduler)
    }

    /// Subscribes to the thumbnail of each item at `time`, recording answers; returns the subscriptions.
    @discardableResult
    private func load(
        _ items: [Photo.Item], with loader: ThumbnailLoader, at time: Int, on scheduler: TestScheduler,
        size: Int = 48, into outcomes: Recorder<Outcome>
    ) -> Recorder<any Disposable> {
        let subscriptions = Recorder<any Disposable>()
        scheduler.scheduleAt(time) {
            for (index, item) in items.enumerated() {
                subscriptions.append(loader.thumbnail(for: item, maxPixelSize: size).subscribe { result in
                    outcomes.append(Outcome(time: scheduler.clock, index: index, result: result))
                })
            }
        }
        return subscriptions
    }

    func testAtMostNLoadsRunAtOnceAndTheRestWaitInOrder() {
        let scheduler = TestScheduler()
        let transport = ScheduledImageTransport(scheduler: scheduler, defaultDelay: 10)
        let loader = makeLoader(transport, scheduler: scheduler, concurrent: 2)
        let outcomes = Recorder<Outcome>()
        load((1...5).map { item($0) }, with: loader, at: 0, on: scheduler, into: outcomes)

        scheduler.advanceTo(0)
        XCTAssertEqual(transport.sends.count, 2)
        XCTAssertEqual(loader.waitingLoads, 3)
        scheduler.start()

        XCTAssertEqual(transport.sends, [0, 0, 10, 10, 20].enumerated().map {
            ScheduledImageTransport.Call(time: $0.element, url: mediaURL($0.offset + 1))
        })
        XCTAssertEqual(outcomes.values.map(\.time), [10, 10, 20, 20, 30])
        XCTAssertEqual(outcomes.values.map(\.index), [0, 1, 2, 3, 4])
        for outcome in outcomes.values {
            let image = outcome.image
            XCTAssertEqual(image.map { max($0.width, $0.height) }, 48, "decoded to the asked size")
        }
        XCTAssertEqual(loader.waitingLoads, 0)
    }

    func testIdenticalURLsShareOneRequest() {
        let scheduler = TestScheduler()
        let transport = ScheduledImageTransport(scheduler: scheduler, defaultDelay: 10)
        let loader = makeLoader(transport, scheduler: scheduler, concurrent: 1)
        let shared = mediaURL(7)
        let outcomes = Recorder<Outcome>()
        load([item(1, url: shared), item(2, url: shared), item(3)], with: loader, at: 0, on: scheduler, into: outcomes)
        scheduler.start()

        XCTAssertEqual(transport.sends.map(\.url), [shared, mediaURL(3)])
        XCTAssertEqual(transport.sends.map(\.time), [0, 10], "the sharer takes no slot of its own")
        let images = outcomes.values.sorted { $0.index < $1.index }.map(\.image)
        XCTAssertEqual(images.count, 3)
        XCTAssertNotNil(images[0])
        XCTAssertEqual(images[0], images[1])
        XCTAssertNotEqual(images[0], images[2])
    }

    func testDisposingCancelsTheRequestAndAWaitingLoadNeverStarts() {
        let scheduler = TestScheduler()
        let transport = ScheduledImageTransport(scheduler: scheduler, defaultDelay: 10)
        let loader = makeLoader(transport, scheduler: scheduler, concurrent: 1)
        let outcomes = Recorder<Outcome>()
        let subscriptions = load([item(1), item(2), item(3)], with: loader, at: 0, on: scheduler, into: outcomes)
        scheduler.scheduleAt(4) {
            subscriptions.values[1].dispose()   // waiting: never sent
            subscriptions.values[0].dispose()   // running: its request is cancelled
        }
        scheduler.start()

        XCTAssertEqual(transport.cancels, [.init(time: 4, url: mediaURL(1))])
        XCTAssertEqual(transport.sends, [.init(time: 0, url: mediaURL(1)), .init(time: 4, url: mediaURL(3))])
        XCTAssertEqual(outcomes.values.map(\.index), [2])
        XCTAssertEqual(outcomes.values.map(\.time), [14])
    }

    func testACachedThumbnailAnswersAtOnceWithoutARequest() {
        let scheduler = TestScheduler()
        let transport = ScheduledImageTransport(scheduler: scheduler, defaultDelay: 10)
        let loader = makeLoader(transport, scheduler: scheduler)
        let outcomes = Recorder<Outcome>()
        load([item(1)], with: loader, at: 0, on: scheduler, into: outcomes)
        load([item(1)], with: loader, at: 20, on: scheduler, into: outcomes)
        load([item(1)], with: loader, at: 30, on: scheduler, size: 24, into: outcomes)
        scheduler.start()

        XCTAssertEqual(transport.sends.map(\.time), [0, 30], "the same size is cached; another size is a new load")
        XCTAssertEqual(outcomes.values.map(\.time), [10, 20, 40])
        XCTAssertEqual(outcomes.values[0].image, outcomes.values[1].image)
        XCTAssertGreaterThan(loader.memoryCacheBytes, 0)
    }

    func testTheMemoryCacheStaysWithinItsByteLimitDroppingTheLeastRecentlyUsed() throws {
        let scheduler = TestScheduler()
        let transport = ScheduledImageTransport(scheduler: scheduler, defaultDelay: 1)
        // a 48-pixel thumbnail of a 240-wide picture is 48 x 32...48: at most 6912 bytes; room for two
        let loader = makeLoader(transport, scheduler: scheduler, memoryLimit: 14_000)
        let outcomes = Recorder<Outcome>()
        load([item(1)], with: loader, at: 0, on: scheduler, into: outcomes)
        load([item(2)], with: loader, at: 10, on: scheduler, into: outcomes)
        load([item(1)], with: loader, at: 20, on: scheduler, into: outcomes)   // hit: 1 is now the most recent
        load([item(3)], with: loader, at: 30, on: scheduler, into: outcomes)   // evicts 2
        load([item(1)], with: loader, at: 40, on: scheduler, into: outcomes)   // still a hit
        load([item(2)], with: loader, at: 50, on: scheduler, into: outcomes)   // a new request
        scheduler.start()

        XCTAssertEqual(transport.sends.map(\.url), [mediaURL(1), mediaURL(2), mediaURL(3), mediaURL(2)])
        XCTAssertLessThanOrEqual(loader.memoryCacheBytes, 14_000)
        XCTAssertEqual(outcomes.values.compactMap(\.image).count, 6)
    }

    func testASlowImageTimesOutWithoutHoldingUpTheOthers() {
        let scheduler = TestScheduler()
        let transport = ScheduledImageTransport(scheduler: scheduler, defaultDelay: 10, delays: [mediaURL(1): 1_000])
        let loader = makeLoader(transport, scheduler: scheduler, concurrent: 2, timeout: .seconds(25))
        let outcomes = Recorder<Outcome>()
        load((1...4).map { item($0) }, with: loader, at: 0, on: scheduler, into: outcomes)
        scheduler.start()

        let byIndex = Dictionary(uniqueKeysWithValues: outcomes.values.map { ($0.index, $0) })
        XCTAssertEqual(byIndex[1]?.time, 10)
        XCTAssertEqual(byIndex[2]?.time, 20)
        XCTAssertEqual(byIndex[3]?.time, 30)
        XCTAssertEqual(byIndex[0]?.time, 25)
        XCTAssertTrue(byIndex[0]?.error?.isTimeout ?? false, "\(String(describing: byIndex[0]?.error))")
        XCTAssertEqual(transport.cancels, [.init(time: 25, url: mediaURL(1))], "the timed-out request is cancelled")
        XCTAssertEqual(transport.sends.map(\.time), [0, 0, 10, 20])
    }

    func testTheResponseCacheOnDiskServesAnotherLoaderWithoutARequest() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("thumbs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let scheduler = TestScheduler()
        let transport = ScheduledImageTransport(scheduler: scheduler, defaultDelay: 5)
        let first = makeLoader(transport, scheduler: scheduler, cache: ResponseCache(capacity: 0, directory: directory))
        let outcomes = Recorder<Outcome>()
        load([item(1)], with: first, at: 0, on: scheduler, into: outcomes)
        scheduler.start()
        XCTAssertEqual(transport.sends.count, 1)

        let second = makeLoader(transport, scheduler: scheduler, cache: ResponseCache(capacity: 0, directory: directory))
        load([item(1)], with: second, at: 20, on: scheduler, into: outcomes)
        scheduler.start()

        XCTAssertEqual(transport.sends.count, 1, "read from the file the first loader stored")
        XCTAssertEqual(outcomes.values.map(\.time), [5, 20])
        XCTAssertNotNil(outcomes.values.last?.image)
        XCTAssertEqual(outcomes.values.first?.image, outcomes.values.last?.image)
    }

    /// A demo JPEG whose frame header claims `width` x `height`.
    private func jpegClaiming(width: Int, height: Int) throws -> Data {
        var bytes = DemoPicture(name: "1_m.jpg").jpeg()
        let frame = try XCTUnwrap((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[frame + 5] = UInt8(height >> 8)
        bytes[frame + 6] = UInt8(height & 0xFF)
        bytes[frame + 7] = UInt8(width >> 8)
        bytes[frame + 8] = UInt8(width & 0xFF)
        return Data(bytes)
    }

    func testAPictureOverTheThumbnailPixelLimitIsRefusedUnlessTheDecoderAllowsIt() throws {
        let scheduler = TestScheduler()
        let huge = try jpegClaiming(width: 3_000, height: 2_000)
        let transport = ScheduledImageTransport(scheduler: scheduler, defaultDelay: 1, bodies: [mediaURL(1): huge])
        let provider = NetworkProvider<PhotoImage>(transport: transport, trackInflights: true, scheduler: scheduler)
        let outcomes = Recorder<Outcome>()
        load([item(1)], with: ThumbnailLoader(provider: provider, decodeScheduler: scheduler), at: 0, on: scheduler, into: outcomes)
        let lenient = ThumbnailLoader(provider: provider, decodeScheduler: scheduler, decoder: JPEGDecoder(maximumPixelCount: 8_000_000))
        load([item(1)], with: lenient, at: 10, on: scheduler, into: outcomes)
        scheduler.start()

        let reasons = outcomes.values.map { ($0.error as? ImageDecodingError)?.reason }
        XCTAssertEqual(reasons.count, 2)
        XCTAssertEqual(reasons.first, .imageTooLarge(pixels: 6_000_000, limit: ThumbnailLoader.defaultMaximumPixelCount))
        XCTAssertNotNil(reasons.last ?? nil, "the claimed size passes the lenient limit; the short data then fails to decode")
        XCTAssertNotEqual(reasons.last, .imageTooLarge(pixels: 6_000_000, limit: 8_000_000))
    }

    func testABadAddressOrSizeFailsWithoutARequest() {
        let scheduler = TestScheduler()
        let transport = ScheduledImageTransport(scheduler: scheduler, defaultDelay: 1)
        let loader = makeLoader(transport, scheduler: scheduler)
        let outcomes = Recorder<Outcome>()
        load([item(1, url: "file:///etc/passwd"), item(2, url: "")], with: loader, at: 0, on: scheduler, into: outcomes)
        load([item(3)], with: loader, at: 0, on: scheduler, size: 0, into: outcomes)
        scheduler.start()

        XCTAssertEqual(outcomes.values.compactMap { $0.error as? ThumbnailError },
                       [.invalidURL("file:///etc/passwd"), .invalidURL(""), .invalidSize(0)])
        XCTAssertEqual(transport.sends.count, 0)
    }
}
