import Dispatch
import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import PhotoFeed
import PhotoFeedViewerCore
import Reactive

/// l: the first screen of 20 thumbnails in demo mode. From the moment the feed's answer is in
/// hand to the last of its 20 thumbnails drawn (requested through `ThumbnailLoader`, six at a
/// time, decoded to 48 pixels, drawn as half blocks), beside the same 20 picture requests sent
/// one at a time on the same transport, with no decoding and no drawing. One feed page for all
/// runs (the server paints its pictures once); fresh loaders and transports every run, so no
/// run reads another's cache or reuses its connections. Decoding runs on the same
/// `.userInitiated` queue as the provider.
enum ThumbnailBenchmarks {
    static func run(_ context: BenchmarkContext) {
        guard context.selects("l.first-screen-20") else { return }
        guard let server = BenchmarkServer.start(for: "l") else { return }
        defer { server.stop() }
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let feedProvider = NetworkProvider<FlickrAPI>(endpointClosure: FlickrAPI.endpointClosure(baseURL: server.baseURL),
                                                      scheduler: scheduler)
        // one page for every run: the server paints each picture once (in the warm-up) and then
        // serves it from its cache, to both sides alike
        guard let photo = wait(for: PhotoFeedStore(provider: feedProvider).load()), photo.items.count == 20 else {
            FileHandle.standardError.write(Data("l: the demo feed did not load\n".utf8))
            return
        }
        var ours: [Double] = []
        var serial: [Double] = []
        var failures = 0
        for round in 0..<(context.measurement.runs + context.measurement.warmups) {
            let (concurrent, concurrentFailures) = firstScreen(photo.items, scheduler: scheduler)
            let (oneByOne, serialFailures) = oneAtATime(photo.items)
            failures += concurrentFailures + serialFailures
            if round >= context.measurement.warmups {
                ours.append(concurrent)
                serial.append(oneByOne)
            }
        }
        if failures > 0 {
            FileHandle.standardError.write(Data("l: \(failures) requests failed\n".utf8))
        }
        context.report(BenchmarkResult(name: "l.first-screen-20", unit: "us", value: Measurement.median(ours),
                                       baseline: Measurement.median(serial),
                                       baselineName: "the 20 requests one at a time, no decoding"))
    }

    /// Microseconds from now until the 20 thumbnails are drawn, and how many failed.
    static func firstScreen(_ items: [Photo.Item], scheduler: any SchedulerType) -> (Double, Int) {
        // No HTTP cache: every run is a first screen, its pictures fetched from the server.
        let provider = NetworkProvider<PhotoImage>(transport: SocketTransport(session: SessionOptions(cache: nil)), trackInflights: true,
                                                   scheduler: scheduler)
        let loader = ThumbnailLoader(provider: provider, maximumConcurrentLoads: 6, decodeScheduler: scheduler)
        let drawn = DispatchGroup()
        let failed = Lock(0)
        let bytes = Lock(0)
        let start = MonotonicClock.now()
        var subscriptions: [any Disposable] = []
        for item in items {
            drawn.enter()
            subscriptions.append(loader.thumbnail(for: item, maxPixelSize: 48).subscribe { result in
                switch result {
                case .success(let image):
                    let lines = HalfBlockRenderer.lines(for: image, columns: 12, rows: 4, depth: .truecolor)
                    bytes.withLock { $0 += lines.reduce(0) { $0 + $1.utf8.count } }
                case .failure:
                    failed.withLock { $0 += 1 }
                }
                drawn.leave()
            })
        }
        drawn.wait()
        let elapsed = Double(MonotonicClock.now() &- start) / 1_000
        subscriptions.forEach { $0.dispose() }
        Checksum.fold(bytes.withLock { $0 })
        return (elapsed, failed.withLock { $0 })
    }

    /// Microseconds to send the 20 picture requests one after another on a fresh `SocketTransport`.
    static func oneAtATime(_ items: [Photo.Item]) -> (Double, Int) {
        let transport = SocketTransport(session: SessionOptions(cache: nil))
        var failed = 0
        var bytes = 0
        let start = MonotonicClock.now()
        for item in items {
            guard let url = URL(string: item.media.m) else {
                failed += 1
                continue
            }
            let done = DispatchSemaphore(value: 0)
            let outcome = Lock<Int?>(nil)
            let call = transport.send(URLRequest(url: url), progress: nil) { result in
                outcome.withLock { $0 = (try? result.get())?.data.count }
                done.signal()
            }
            done.wait()
            _ = call
            if let count = outcome.withLock({ $0 }) { bytes += count } else { failed += 1 }
        }
        let elapsed = Double(MonotonicClock.now() &- start) / 1_000
        Checksum.fold(bytes)
        return (elapsed, failed)
    }

    /// The answer of `single`, waiting on this thread; `nil` on failure.
    static func wait<Element: Sendable>(for single: Single<Element>) -> Element? {
        let done = DispatchSemaphore(value: 0)
        let answer = Lock<Element?>(nil)
        let subscription = single.subscribe { result in
            answer.withLock { $0 = try? result.get() }
            done.signal()
        }
        done.wait()
        subscription.dispose()
        return answer.withLock { $0 }
    }
}
