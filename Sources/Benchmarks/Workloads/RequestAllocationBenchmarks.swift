import FeedServer
import Foundation
import Networking

/// f.allocations-per-request: allocations the whole process makes per GET of a loopback
/// `FeedServer`'s `/echo`, through `NetworkProvider` over `SocketTransport`, beside a plain
/// blocking-socket loop on the same server (`PlainHTTPLoop`). The server runs in this process, so
/// both figures include its allocations; the difference is the client's. Counted by the
/// sanitizers' allocation hooks: a build without a sanitizer skips the rows with a note.
///
///     swift build -c release --product benchmarks --sanitize=address --scratch-path .build-asan
///     .build-asan/release/benchmarks --filter f.allocations
enum RequestAllocationBenchmarks {
    static func run(_ context: BenchmarkContext) {
        let names = ["f.allocations-per-request.sequential", "f.allocations-per-request.concurrent-32"]
        guard names.contains(where: context.selects) else { return }
        guard ResourceUsage.allocationCount != nil else {
            FileHandle.standardError.write(Data("f.allocations-per-request skipped: allocations are counted only in a sanitizer build (--sanitize=address)\n".utf8))
            return
        }
        guard let server = BenchmarkServer.start(for: "f.allocations-per-request") else { return }
        defer { server.stop() }
        let transport = SocketTransport(configuration: .init(maximumConnectionsPerHost: HTTPBenchmarks.inFlight))
        defer { transport.close() }
        let provider = NetworkProvider<HTTPBenchmarks.FeedTarget>(transport: transport)
        let target = HTTPBenchmarks.FeedTarget(baseURL: server.baseURL, path: "echo")
        let send: HTTPBenchmarks.Send = { done in
            _ = provider.rx.request(target).subscribe(
                onSuccess: { done($0.statusCode == 200 && !$0.data.isEmpty) },
                onFailure: { _ in done(false) })
        }
        let requests = context.size(2_000)
        for (name, inFlight) in zip(names, [1, HTTPBenchmarks.inFlight]) where context.selects(name) {
            let ours = { (count: Int) in
                inFlight == 1 ? HTTPBenchmarks.sequential(count, send, limit: 60)
                    : HTTPBenchmarks.concurrent(count, send, limit: 60, inFlight: inFlight)
            }
            let plain = { (count: Int) in
                PlainHTTPLoop.run(port: server.port, path: "echo", count: count, inFlight: inFlight, limit: 60)
            }
            // Warm-up: connections open, caches and lazy globals filled on both sides.
            _ = ours(min(200, requests))
            _ = plain(min(200, requests))
            let oursFigure = allocationsPerRequest(requests) { ours($0) }
            let plainFigure = allocationsPerRequest(requests) { plain($0) }
            context.report(BenchmarkResult(name: name, unit: "allocations/request", value: oursFigure,
                                           baseline: plainFigure, baselineName: "plain blocking-socket loop, same server"))
        }
    }

    /// Allocations per completed request while `phase` sends `count`; NaN when a request failed.
    private static func allocationsPerRequest(_ count: Int, _ phase: (Int) -> HTTPBenchmarks.Phase) -> Double {
        let before = ResourceUsage.allocationCount ?? 0
        let result = phase(count)
        let after = ResourceUsage.allocationCount ?? 0
        guard result.failed == 0, result.completed > 0 else {
            FileHandle.standardError.write(Data("f.allocations-per-request: \(result.failed) of \(count) requests failed\n".utf8))
            return .nan
        }
        return Double(after - before) / Double(result.completed)
    }
}
