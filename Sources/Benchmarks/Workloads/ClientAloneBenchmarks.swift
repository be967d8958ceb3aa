import Dispatch
import FeedServer
import Foundation
import HTTPClient

/// p.client: `await HTTPClient.execute` alone (no provider, no session layer), kept-alive GETs
/// from a task group holding 32 and 128 requests in flight, beside a plain blocking-socket loop
/// (`PlainHTTPLoop`) on the same route, rounds alternated. The target is `BENCH_HTTP_URL` when set
/// (a server in another process, such as nginx on loopback, so the process's CPU is the client's
/// alone), else the in-process `FeedServer`'s `/echo` (whose CPU is then in both sides' figures:
/// read those as an A/B between trees only). `BENCH_CLIENT_ONLY` set leaves the plain loop out
/// (for `strace -c` and `perf` of the client alone; its baseline then reads 0), and
/// `BENCH_REQUESTS` sets the requests a level (20,000 by default, in four rounds).
enum ClientAloneBenchmarks {
    static let levels = [32, 128]

    static func run(_ context: BenchmarkContext) {
        let names = levels.map { "p.client.in-flight-\($0)" }
        guard names.contains(where: context.selects) else { return }
        var configuration = FeedServer.Configuration()
        configuration.maxConnections = 1_024
        guard let (url, server) = target(for: "p.client", configuration: configuration) else { return }
        defer { server?.stop() }
        let port = UInt16(url.port ?? 80)
        let path = String(url.path.dropFirst())
        let client = HTTPClient(configuration: .init(maximumConnectionsPerHost: levels.max() ?? 128))
        defer { client.closeIdleConnections() }
        let request = HTTPClientRequest(url: url)
        let requests = ProcessInfo.processInfo.environment["BENCH_REQUESTS"].flatMap { Int($0) } ?? context.size(20_000)
        let clientOnly = ProcessInfo.processInfo.environment["BENCH_CLIENT_ONLY"] != nil
        let plainLoop = { (count: Int, level: Int) in
            clientOnly ? HTTPBenchmarks.Phase(completed: 0, failed: 0, seconds: 0, latenciesMicroseconds: [], cpuSeconds: 0)
                : PlainHTTPLoop.run(port: port, path: path, count: count, inFlight: level, limit: 30)
        }
        for (name, level) in zip(names, levels) where context.selects(name) {
            _ = execute(client, request, count: min(2_000, requests), inFlight: level)
            _ = plainLoop(min(2_000, requests), level)
            var oursRounds: [HTTPBenchmarks.Phase] = []
            var plainRounds: [HTTPBenchmarks.Phase] = []
            for oursFirst in [true, false, false, true] {
                if oursFirst {
                    oursRounds.append(execute(client, request, count: requests / 4, inFlight: level))
                } else {
                    plainRounds.append(plainLoop(requests / 4, level))
                }
            }
            HTTPBenchmarks.reportBesidePlainLoop(context, name, side: "client", HTTPBenchmarks.Phase(combining: oursRounds),
                                                 HTTPBenchmarks.Phase(combining: plainRounds))
        }
    }

    /// `BENCH_HTTP_URL` when set (no server of ours), else the `/echo` of an in-process
    /// `FeedServer` started for `label` (stopped by the caller); nil when it could not start.
    static func target(for label: String, configuration: FeedServer.Configuration) -> (url: URL, server: FeedServer?)? {
        if let given = ProcessInfo.processInfo.environment["BENCH_HTTP_URL"].flatMap(URL.init(string:)) {
            return (given, nil)
        }
        guard let started = BenchmarkServer.start(for: label, configuration: configuration) else { return nil }
        return (started.baseURL.appendingPathComponent("echo"), started)
    }

    /// `count` requests from `inFlight` child tasks, each sending its share one after another,
    /// preferring `executor` when given.
    static func execute(_ client: HTTPClient, _ request: HTTPClientRequest, count: Int, inFlight: Int,
                        preferring executor: (any TaskExecutor)? = nil) -> HTTPBenchmarks.Phase {
        let recorder = HTTPBenchmarks.Recorder()
        let finished = DispatchSemaphore(value: 0)
        let cpu = ResourceUsage.processCPUSeconds
        let start = MonotonicClock.now()
        Task {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<inFlight {
                    let share = count / inFlight + (index < count % inFlight ? 1 : 0)
                    group.addTask(executorPreference: executor) {
                        for _ in 0..<share {
                            let sent = MonotonicClock.now()
                            let ok = (try? await client.execute(request)).map { $0.status == 200 && !$0.body.isEmpty } ?? false
                            recorder.record(startedAt: sent, ok: ok)
                        }
                    }
                }
            }
            finished.signal()
        }
        finished.wait()
        let seconds = Double(MonotonicClock.now() &- start) / 1e9
        let (latencies, failed) = recorder.snapshot
        return HTTPBenchmarks.Phase(completed: latencies.count, failed: failed, seconds: seconds, latenciesMicroseconds: latencies,
                                    cpuSeconds: ResourceUsage.processCPUSeconds - cpu)
    }
}

extension HTTPBenchmarks {
    /// Reports `ours` beside the plain loop's rounds as `name` (req/s) and `name.cpu` (µs of
    /// process CPU a request), saying on stderr what failed on either side.
    static func reportBesidePlainLoop(_ context: BenchmarkContext, _ name: String, side: String, _ ours: Phase, _ plain: Phase) {
        if ours.failed > 0 || plain.failed > 0 {
            FileHandle.standardError.write(Data("\(name): \(side) \(ours.failed) failed, plain loop \(plain.failed) failed\n".utf8))
        }
        context.report(BenchmarkResult(name: name, unit: "req/s", value: ours.requestsPerSecond,
                                       baseline: plain.requestsPerSecond, baselineName: "plain blocking-socket loop"))
        context.report(BenchmarkResult(name: name + ".cpu", unit: "us/req", value: ours.cpuMicrosecondsPerRequest,
                                       baseline: plain.cpuMicrosecondsPerRequest, baselineName: "plain blocking-socket loop"))
        Checksum.fold(ours.completed &+ plain.completed)
    }
}
