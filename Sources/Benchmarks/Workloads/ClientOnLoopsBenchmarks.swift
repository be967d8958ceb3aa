import Foundation
import FeedServer
import HTTPClient

/// p.client.on-loops: `await HTTPClient.execute` from tasks that prefer the client's loops
/// (`HTTPClient.taskExecutor`), at 1 and 32 in flight, beside the same requests from tasks on the
/// concurrency pool (the default), rounds alternated. Same targets and settings as `p.client`
/// (`BENCH_HTTP_URL`, `BENCH_REQUESTS`); against the in-process `FeedServer` both sides carry the
/// server's CPU, so read it as an A/B.
enum ClientOnLoopsBenchmarks {
    static let levels = [1, 32]

    static func run(_ context: BenchmarkContext) {
        let names = levels.map { "p.client.on-loops.in-flight-\($0)" }
        guard names.contains(where: context.selects) else { return }
        guard let (url, server) = ClientAloneBenchmarks.target(for: "p.client.on-loops", configuration: FeedServer.Configuration()) else {
            return
        }
        defer { server?.stop() }
        let client = HTTPClient(configuration: .init(maximumConnectionsPerHost: levels.max() ?? 32))
        defer { client.closeIdleConnections() }
        let request = HTTPClientRequest(url: url)
        let requests = ProcessInfo.processInfo.environment["BENCH_REQUESTS"].flatMap { Int($0) } ?? context.size(20_000)
        for (name, level) in zip(names, levels) where context.selects(name) {
            // At 1 in flight a request waits its round trip: a quarter as many keep the time alike.
            let count = level == 1 ? max(1, requests / 4) : requests
            let send = { (executor: (any TaskExecutor)?, count: Int) in
                ClientAloneBenchmarks.execute(client, request, count: count, inFlight: level, preferring: executor)
            }
            _ = send(client.taskExecutor, min(2_000, count))
            _ = send(nil, min(2_000, count))
            var onLoops: [HTTPBenchmarks.Phase] = []
            var onPool: [HTTPBenchmarks.Phase] = []
            for loopsFirst in [true, false, false, true] {
                if loopsFirst {
                    onLoops.append(send(client.taskExecutor, count / 4))
                } else {
                    onPool.append(send(nil, count / 4))
                }
            }
            report(context, name, HTTPBenchmarks.Phase(combining: onLoops), HTTPBenchmarks.Phase(combining: onPool))
        }
    }

    /// `onLoops` as `name` (req/s) and `name.cpu` (µs of process CPU a request), beside `onPool`.
    private static func report(_ context: BenchmarkContext, _ name: String, _ onLoops: HTTPBenchmarks.Phase, _ onPool: HTTPBenchmarks.Phase) {
        if onLoops.failed > 0 || onPool.failed > 0 {
            FileHandle.standardError.write(Data("\(name): on the loops \(onLoops.failed) failed, on the pool \(onPool.failed) failed\n".utf8))
        }
        let baseline = "the same requests from tasks on the concurrency pool"
        context.report(BenchmarkResult(name: name, unit: "req/s", value: onLoops.requestsPerSecond,
                                       baseline: onPool.requestsPerSecond, baselineName: baseline))
        context.report(BenchmarkResult(name: name + ".cpu", unit: "us/req", value: onLoops.cpuMicrosecondsPerRequest,
                                       baseline: onPool.cpuMicrosecondsPerRequest, baselineName: baseline))
        Checksum.fold(onLoops.completed &+ onPool.completed)
    }
}
