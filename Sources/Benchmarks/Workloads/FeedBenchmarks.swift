import FeedServer
import Foundation
import PhotoFeed

/// i: escape repair on a 10 MB feed, and decoding a feed page.
enum FeedBenchmarks {
    static func run(_ context: BenchmarkContext) {
        let feed = jsonpFeed(bytes: context.size(10_000_000))
        if context.selects("i.sanitize") || context.selects("i.replacing") {
            sanitize(context, feed)
        }
        if context.selects("i.photo-decode") {
            decode(context, pages: context.size(2_000))
        }
    }

    /// A Flickr-style JSONP feed (`jsonFlickrFeed(...)`) of at least `bytes` bytes: `\/`, `\"`,
    /// `\uXXXX` and invalid `\'` escapes throughout.
    static func jsonpFeed(bytes: Int) -> Data {
        let page = FeedGenerator(seed: 7, itemsPerPage: 100).page(number: 0)
        let items = max(100, bytes / max(1, page.count / 100))
        var feed = Data("jsonFlickrFeed(".utf8)
        feed.append(FeedGenerator(seed: 7, itemsPerPage: items).page(number: 0))
        feed.append(Data(")".utf8))
        return feed
    }

    private static func sanitize(_ context: BenchmarkContext, _ feed: Data) {
        let megabytes = Double(feed.count) / 1_000_000
        let sanitizer = context.measurement.compare(operations: 1, ours: {
            guard let output = try? FeedSanitizer.sanitize(feed) else { return -1 }
            return output.count &+ Int(output.last ?? 0)
        }, baseline: {
            let copy = feed.withUnsafeBytes { Data($0) }
            return copy.count &+ Int(copy.last ?? 0)
        })
        let replacing = context.measurement.nanosecondsPerOperation(operations: 1) {
            let text = String(decoding: feed, as: UTF8.self)
            let repaired = Data(text.removedEscapeCharacters.utf8)
            return repaired.count &+ Int(repaired.last ?? 0)
        }
        func rate(_ nanoseconds: Double) -> Double { megabytes / (nanoseconds / 1e9) }
        context.report(BenchmarkResult(name: "i.sanitize", unit: "MB/s", value: rate(sanitizer.ours),
                                       baseline: rate(sanitizer.baseline), baselineName: "byte copy (the limit)"))
        context.report(BenchmarkResult(name: "i.sanitize-vs-replacing", unit: "MB/s", value: rate(sanitizer.ours),
                                       baseline: rate(replacing), baselineName: "two replacingOccurrences passes"))
        context.report(BenchmarkResult(name: "i.replacing-occurrences", unit: "MB/s", value: rate(replacing),
                                       baseline: rate(sanitizer.baseline), baselineName: "byte copy (the limit)"))
    }

    /// `Photo.decode(feed:)` against `JSONDecoder` alone on one already-valid 20-item page.
    private static func decode(_ context: BenchmarkContext, pages: Int) {
        let raw = FeedGenerator(seed: 11, itemsPerPage: 20).page(number: 0)
        guard let valid = try? FeedSanitizer.sanitize(raw),
              (try? JSONDecoder().decode(Photo.self, from: valid)) != nil else {
            FileHandle.standardError.write(Data("i.photo-decode: the generated page does not decode\n".utf8))
            return
        }
        context.compare("i.photo-decode", operations: pages, baselineName: "JSONDecoder alone, valid JSON", ours: {
            var total = 0
            for _ in 0..<pages { total &+= (try? Photo.decode(feed: valid))?.items.count ?? -1 }
            return total
        }, baseline: {
            var total = 0
            for _ in 0..<pages { total &+= (try? JSONDecoder().decode(Photo.self, from: valid))?.items.count ?? -1 }
            return total
        })
    }
}
