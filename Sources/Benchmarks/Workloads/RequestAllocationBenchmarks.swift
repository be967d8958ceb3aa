import CMallocInfo
import EventLoopIO
import FeedServer
import Foundation
import HTTPClient
import Networking

/// f.allocations-per-request: allocations per GET of a loopback `FeedServer`'s `/echo`, through
/// `NetworkProvider` over `SocketTransport` (and, in the `.client` rows, through
/// `HTTPClient.execute` alone), beside a plain blocking-socket loop on the same server
/// (`PlainHTTPLoop`). The server runs in this process on loops of its own, whose threads are left
/// out of the count: the figures are the client's and the harness's (a semaphore, a closure and
/// a latency a request, as the plain loop's harness has). Counted by the sanitizers' allocation
/// hooks: a build without a sanitizer skips the rows with a note, unless a preloaded library
/// provides the hooks (`scripts/count-allocations.sh` builds one and runs these rows).
///
///     swift build -c release --product benchmarks --sanitize=address --scratch-path .build-asan
///     .build-asan/release/benchmarks --filter f.allocations
enum RequestAllocationBenchmarks {
    static func run(_ context: BenchmarkContext) {
        let names = ["f.allocations-per-request.sequential", "f.allocations-per-request.concurrent-32",
                     "f.allocations-per-request.client.sequential", "f.allocations-per-request.client.concurrent-32"]
        guard names.contains(where: context.selects) else { return }
        guard ResourceUsage.allocationCount != nil else {
            FileHandle.standardError.write(Data("f.allocations-per-request skipped: allocations are counted only in a sanitizer build (--sanitize=address)\n".utf8))
            return
        }
        guard let server = BenchmarkServer.start(for: "f.allocations-per-request") else { return }
        defer { server.stop() }
        stopCountingAllocations(on: BenchmarkServer.loops)
        let transport = SocketTransport(configuration: .init(maximumConnectionsPerHost: HTTPBenchmarks.inFlight))
        defer { transport.close() }
        let provider = NetworkProvider<HTTPBenchmarks.FeedTarget>(transport: transport)
        let target = HTTPBenchmarks.FeedTarget(baseURL: server.baseURL, path: "echo")
        let send: HTTPBenchmarks.Send = { done in
            _ = provider.rx.request(target).subscribe(
                onSuccess: { done($0.statusCode == 200 && !$0.data.isEmpty) },
                onFailure: { _ in done(false) })
        }
        let client = HTTPClient(configuration: .init(maximumConnectionsPerHost: HTTPBenchmarks.inFlight))
        defer { client.closeIdleConnections() }
        let request = HTTPClientRequest(url: server.baseURL.appendingPathComponent("echo"))
        let execute: HTTPBenchmarks.Send = { done in
            client.execute(request) { result in
                guard case .success(let response) = result else { return done(false) }
                done(response.status == 200 && !response.body.isEmpty)
            }
        }
        let requests = context.size(2_000)
        let rows = zip(names, [(send, 1), (send, HTTPBenchmarks.inFlight), (execute, 1), (execute, HTTPBenchmarks.inFlight)])
        for (name, (send, inFlight)) in rows where context.selects(name) {
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

    /// Leaves the allocations of `group`'s threads out of the count (once each loop has run the task).
    private static func stopCountingAllocations(on group: EventLoopGroup?) {
        let done = DispatchGroup()
        for loop in group?.loops ?? [] {
            done.enter()
            loop.execute {
                cmallocinfo_stop_counting_this_thread()
                done.leave()
            }
        }
        done.wait()
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
