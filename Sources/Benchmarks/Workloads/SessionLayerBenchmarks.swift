import Dispatch
import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking

/// n (the session layer with its defaults): what `SessionOptions()` costs a request as an app
/// gets it, an empty cookie storage and the default fields, beside the same with the session off.
/// - `n.session-request.default`: the session's work on one request before the client gets it
///   (`SocketTransport.sessionRequest(for:)`: the default fields, the storage read, the head's
///   field list), ns per request; the cache left out (it has its own rows).
/// - `n.session-request.own-fields`: the same for a request with fields of its own, as a Moya
///   target's (`Content-Type`, `Authorization`, `Cache-Control: no-store`), which the defaults are
///   merged into; the baseline is the session off with the same request.
/// - `n.session-request.allocations`: the same work's allocations per request (only where
///   allocations are counted: `scripts/count-allocations.sh --filter n.session-request`).
/// - `n.provider-session.concurrent-32.cpu`: GETs of `/bytes/2048` through `NetworkProvider` at 32 in
///   flight with `SessionOptions()` (the shared storage and cache), in alternated rounds beside the
///   session off; µs of process CPU per request (the in-process server's included, on both sides).
enum SessionLayerBenchmarks {
    static func run(_ context: BenchmarkContext) {
        sessionRequest(context)
        providerAtThirtyTwo(context)
    }

    /// An empty storage of its own (ephemeral: it writes no file), as the shared one is in a new process.
    private static var emptyStorage: HTTPCookieStorage? { URLSessionConfiguration.ephemeral.httpCookieStorage }

    private static func sessionRequest(_ context: BenchmarkContext) {
        let names = ["n.session-request.default", "n.session-request.allocations", "n.session-request.own-fields"]
        guard names.contains(where: context.selects), let storage = emptyStorage else { return }
        let on = SocketTransport(session: SessionOptions(cookieStorage: storage, cache: nil))
        let off = SocketTransport(session: SessionOptions(headers: [:], cookieStorage: nil, cache: nil))
        let request = URLRequest(url: URL(string: "http://127.0.0.1:8080/echo")!)
        let count = context.size(200_000)
        let prepareEach = { (transport: SocketTransport, request: URLRequest, count: Int) -> Int in
            var total = 0
            for _ in 0..<count { total &+= transport.sessionRequestFieldCount(for: request) }
            return total
        }
        let prepare = { (transport: SocketTransport, count: Int) -> Int in prepareEach(transport, request, count) }
        context.compare("n.session-request.default", operations: count, baselineName: "session off",
                        ours: { prepare(on, count) }, baseline: { prepare(off, count) })
        var own = request
        own.allHTTPHeaderFields = ["Content-Type": "application/json", "Authorization": "Bearer 0123456789abcdef",
                                   "Cache-Control": "no-store"]
        context.compare("n.session-request.own-fields", operations: count, baselineName: "session off",
                        ours: { prepareEach(on, own, count) }, baseline: { prepareEach(off, own, count) })
        if context.selects(names[1]) {
            guard ResourceUsage.allocationCount != nil else {
                FileHandle.standardError.write(Data("\(names[1]) skipped: allocations are not counted in this build\n".utf8))
                return
            }
            let counted = 10_000
            let allocations = { (transport: SocketTransport) -> Double in
                _ = prepare(transport, 100)
                let before = ResourceUsage.allocationCount ?? 0
                Checksum.fold(prepare(transport, counted))
                return Double((ResourceUsage.allocationCount ?? 0) - before) / Double(counted)
            }
            context.report(BenchmarkResult(name: names[1], unit: "allocations/request", value: allocations(on),
                                           baseline: allocations(off), baselineName: "session off"))
        }
    }

    private static func providerAtThirtyTwo(_ context: BenchmarkContext) {
        let name = "n.provider-session.concurrent-32.cpu"
        guard context.selects(name), let server = BenchmarkServer.start(for: "n") else { return }
        defer { server.stop() }
        let configuration = SocketTransport.Configuration(maximumConnectionsPerHost: HTTPBenchmarks.inFlight)
        var bare = configuration
        bare.proxy = .none
        let on = SocketTransport(configuration: configuration, session: SessionOptions())
        let off = SocketTransport(configuration: bare, session: SessionOptions(headers: [:], cookieStorage: nil, cache: nil))
        defer {
            on.close()
            off.close()
        }
        // A fixed answer (2 KB, as the lead's nginx file): `/echo` would make the server echo the default fields too.
        let target = HTTPBenchmarks.FeedTarget(baseURL: server.baseURL, path: "bytes/2048")
        func through(_ transport: SocketTransport) -> HTTPBenchmarks.Send {
            let provider = NetworkProvider<HTTPBenchmarks.FeedTarget>(transport: transport)
            return { done in
                _ = provider.rx.request(target).subscribe(
                    onSuccess: { done($0.statusCode == 200 && !$0.data.isEmpty) },
                    onFailure: { _ in done(false) })
            }
        }
        let sides = [through(on), through(off)]
        let round = context.size(10_000)
        for send in sides { _ = HTTPBenchmarks.concurrent(min(1_000, round), send, limit: 30) }
        var samples: [[Double]] = [[], []]
        var failed = 0
        for run in 0..<context.options.runs {
            // ours, off, then off, ours: drift in the machine's load falls on both alike.
            for side in run % 2 == 0 ? [0, 1] : [1, 0] {
                let phase = HTTPBenchmarks.concurrent(round, sides[side], limit: 60)
                failed += phase.failed
                samples[side].append(phase.cpuMicrosecondsPerRequest)
            }
        }
        if failed > 0 { FileHandle.standardError.write(Data("\(name): \(failed) requests failed\n".utf8)) }
        let spread = { (values: [Double]) in
            String(format: "%.1f–%.1f", values.min() ?? .nan, values.max() ?? .nan)
        }
        let differences = zip(samples[0], samples[1]).map { $0 - $1 }
        FileHandle.standardError.write(Data(("\(name): rounds on \(spread(samples[0])), off \(spread(samples[1])), "
                                             + "on − off per round \(spread(differences)), median "
                                             + String(format: "%.1f", Measurement.median(differences)) + " µs\n").utf8))
        context.report(BenchmarkResult(name: name, unit: "us/req", value: Measurement.median(samples[0]),
                                       baseline: Measurement.median(samples[1]), baselineName: "session off (no fields, cookies, cache, proxy)"))
    }
}
