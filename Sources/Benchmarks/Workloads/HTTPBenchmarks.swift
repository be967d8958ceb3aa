import Dispatch
import FeedServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Networking
import Reactive
import Synchronization

/// h: GETs from a loopback `FeedServer`, through `NetworkProvider` and through a bare
/// `URLSession` data task, 1, 32 and 256 in flight; `h.limit.` is a plain blocking-socket loop
/// on the same routes (`PlainHTTPLoop`), the most the server gives, beside SocketTransport. `h.` asks for the feed route (the
/// viewer's request; the server's feed generation bounds every side), `h.echo.` for `/echo`
/// (a tiny answer, so the client stacks' own cost shows). `.socket.scaling-256` times
/// SocketTransport at 256 in flight against itself at 32.
enum HTTPBenchmarks {
    /// A route of the loopback server.
    struct FeedTarget: TargetType {
        let baseURL: URL
        let path: String
        var method: HTTPMethod { .get }
        var task: RequestTask { .requestPlain }
        var headers: [String: String]? { nil }
    }

    /// Sends one request and reports whether a 200 with a body came back.
    typealias Send = @Sendable (@escaping @Sendable (Bool) -> Void) -> Void

    /// What one phase measured.
    struct Phase {
        let completed: Int
        let failed: Int
        let seconds: Double
        let latenciesMicroseconds: [Double]
        /// The processor time the whole process used during the phase (the in-process server's
        /// included, which both sides of a row share), in seconds.
        let cpuSeconds: Double

        var requestsPerSecond: Double { Double(completed) / max(seconds, 1e-9) }
        var p50: Double { Measurement.percentile(latenciesMicroseconds, 0.50) }
        var p99: Double { Measurement.percentile(latenciesMicroseconds, 0.99) }
        /// Processor time per request completed, in microseconds.
        var cpuMicrosecondsPerRequest: Double { cpuSeconds * 1e6 / Double(max(completed, 1)) }

        init(completed: Int, failed: Int, seconds: Double, latenciesMicroseconds: [Double], cpuSeconds: Double) {
            self.completed = completed
            self.failed = failed
            self.seconds = seconds
            self.latenciesMicroseconds = latenciesMicroseconds
            self.cpuSeconds = cpuSeconds
        }

        /// Rounds of one side added together.
        init(combining rounds: [Phase]) {
            self.init(completed: rounds.reduce(0) { $0 + $1.completed }, failed: rounds.reduce(0) { $0 + $1.failed },
                      seconds: rounds.reduce(0) { $0 + $1.seconds },
                      latenciesMicroseconds: rounds.flatMap(\.latenciesMicroseconds),
                      cpuSeconds: rounds.reduce(0) { $0 + $1.cpuSeconds })
        }
    }

    /// Latencies and failures, recorded from URLSession's delegate threads.
    final class Recorder: Sendable {
        private let state = Lock<(latencies: [Double], failed: Int)>(([], 0))

        func record(startedAt start: UInt64, ok: Bool) {
            let micros = Double(MonotonicClock.now() &- start) / 1_000
            state.withLock { state in
                if ok { state.latencies.append(micros) } else { state.failed += 1 }
            }
        }

        var snapshot: (latencies: [Double], failed: Int) { state.withLock { $0 } }
    }

    static let inFlight = 32
    /// The in-flight levels measured beside one at a time.
    static let levels = [32, 256]

    static func run(_ context: BenchmarkContext) {
        let requests = context.size(2_000)
        let phaseLimit: Double = context.options.quick ? 20 : 60
        // Room for the plain loop's 256 connections beside both clients' pools.
        var serverConfiguration = FeedServer.Configuration()
        serverConfiguration.maxConnections = 1_024
        guard let server = BenchmarkServer.start(for: "h", configuration: serverConfiguration) else { return }
        defer { server.stop() }

        let socketTransport = SocketTransport(configuration: .init(maximumConnectionsPerHost: inFlight))
        defer { socketTransport.close() }
        let sessionTransport = URLSessionTransport(maximumConnectionsPerHost: inFlight)
        let configuration = URLSessionConfiguration.default
        configuration.httpMaximumConnectionsPerHost = inFlight
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }

        for (routePrefix, path) in [("h", "services/feeds/photos_public.gne"), ("h.echo", "echo")] {
            let target = FeedTarget(baseURL: server.baseURL, path: path)
            func through(_ transport: any HTTPTransport) -> Send {
                let provider = NetworkProvider<FeedTarget>(transport: transport)
                return { done in
                    _ = provider.rx.request(target).subscribe(
                        onSuccess: { done($0.statusCode == 200 && !$0.data.isEmpty) },
                        onFailure: { _ in done(false) })
                }
            }
            // Over URLSessionTransport the goal is 95% of bare URLSession; over SocketTransport,
            // the default for http://, twice bare URLSession.
            let sides: [(prefix: String, send: Send)] = [
                (routePrefix, through(sessionTransport)),
                (routePrefix + ".socket", through(socketTransport)),
            ]
            let url = server.baseURL.appendingPathComponent(path)
            let bare: Send = { done in
                session.dataTask(with: URLRequest(url: url)) { data, response, error in
                    let status = (response as? HTTPURLResponse)?.statusCode
                    done(error == nil && status == 200 && !(data ?? Data()).isEmpty)
                }.resume()
            }

            let warmup = min(100, requests)
            _ = concurrent(warmup, bare, limit: phaseLimit)
            for (prefix, ours) in sides {
                _ = concurrent(warmup, ours, limit: phaseLimit)
                if context.selects("\(prefix).sequential") {
                    let (oursPhase, barePhase) = alternating(requests, ours, bare, limit: phaseLimit, sequential)
                    report(context, "\(prefix).sequential", oursPhase, barePhase)
                }
                for level in levels where context.selects("\(prefix).concurrent-\(level)") {
                    let (oursPhase, barePhase) = alternating(requests, ours, bare, limit: phaseLimit) { count, send, limit in
                        concurrent(count, send, limit: limit, inFlight: level)
                    }
                    report(context, "\(prefix).concurrent-\(level)", oursPhase, barePhase)
                }
            }
            // Scaling: SocketTransport at 256 in flight beside itself at 32, with the same 32
            // connections, in longer alternated rounds than the figures above (their rounds of
            // 500 requests are too short to tell two close figures apart).
            let socketSide = sides[1].send
            let scalingName = "\(routePrefix).socket.scaling-256"
            if context.selects(scalingName) {
                let (high, low) = alternating(requests * 4, socketSide, socketSide, limit: phaseLimit) { count, send, limit in
                    concurrent(count, send, limit: limit, inFlight: levels[1])
                } other: { count, send, limit in
                    concurrent(count, send, limit: limit, inFlight: levels[0])
                }
                if high.failed > 0 || low.failed > 0 {
                    FileHandle.standardError.write(Data("\(scalingName): \(high.failed) failed at 256, \(low.failed) at 32\n".utf8))
                }
                context.report(BenchmarkResult(name: scalingName, unit: "req/s", value: high.requestsPerSecond,
                                               baseline: low.requestsPerSecond, baselineName: "SocketTransport at 32 in flight"))
                Checksum.fold(high.completed &+ low.completed)
            }
            // The limit: SocketTransport through the provider beside a plain blocking-socket loop.
            for level in [1] + levels where context.selects("\(routePrefix).limit.in-flight-\(level)") {
                let name = "\(routePrefix).limit.in-flight-\(level)"
                var oursRounds: [Phase] = []
                var plainRounds: [Phase] = []
                for order in [true, false, false, true] {
                    if order {
                        oursRounds.append(level == 1 ? sequential(requests / 4, socketSide, limit: phaseLimit / 4)
                            : concurrent(requests / 4, socketSide, limit: phaseLimit / 4, inFlight: level))
                    } else {
                        plainRounds.append(PlainHTTPLoop.run(port: server.port, path: path, count: requests / 4,
                                                             inFlight: level, limit: phaseLimit / 4))
                    }
                }
                reportBesidePlainLoop(context, name, side: "socket", Phase(combining: oursRounds), Phase(combining: plainRounds))
            }
        }
    }

    /// `count` requests for each side in four rounds, ordered ours, bare, bare, ours, so drift
    /// in the machine's load falls on both alike; the rounds are summed.
    /// `other` times the baseline's rounds when it differs from `phase` (the default: the same).
    private static func alternating(_ count: Int, _ ours: @escaping Send, _ bare: @escaping Send, limit: Double,
                                    _ phase: (Int, @escaping Send, Double) -> Phase,
                                    other: ((Int, @escaping Send, Double) -> Phase)? = nil) -> (ours: Phase, bare: Phase) {
        let round = max(1, count / 4)
        var oursRounds: [Phase] = []
        var bareRounds: [Phase] = []
        for order in [true, false, false, true] {
            if order {
                oursRounds.append(phase(round, ours, limit / 4))
            } else {
                bareRounds.append(other.map { $0(round, bare, limit / 4) } ?? phase(round, bare, limit / 4))
            }
        }
        return (Phase(combining: oursRounds), Phase(combining: bareRounds))
    }

    private static func report(_ context: BenchmarkContext, _ name: String, _ ours: Phase, _ bare: Phase) {
        if ours.failed > 0 || bare.failed > 0 || ours.completed == 0 || bare.completed == 0 {
            FileHandle.standardError.write(Data(
                "\(name): ours \(ours.completed) ok / \(ours.failed) failed, bare \(bare.completed) ok / \(bare.failed) failed\n".utf8))
        }
        context.report(BenchmarkResult(name: name, unit: "req/s", value: ours.requestsPerSecond,
                                       baseline: bare.requestsPerSecond, baselineName: "bare URLSession data task"))
        context.report(BenchmarkResult(name: name + ".p50", unit: "us", value: ours.p50, baseline: bare.p50,
                                       baselineName: "bare URLSession data task"))
        context.report(BenchmarkResult(name: name + ".p99", unit: "us", value: ours.p99, baseline: bare.p99,
                                       baselineName: "bare URLSession data task"))
        context.report(BenchmarkResult(name: name + ".cpu", unit: "us/req", value: ours.cpuMicrosecondsPerRequest,
                                       baseline: bare.cpuMicrosecondsPerRequest, baselineName: "bare URLSession data task"))
        Checksum.fold(ours.completed &+ bare.completed)
    }

    /// One request at a time, each waited for (at most 10 s), stopping after `limit` seconds.
    static func sequential(_ count: Int, _ send: @escaping Send, limit: Double) -> Phase {
        let recorder = Recorder()
        let cpu = ResourceUsage.processCPUSeconds
        let start = MonotonicClock.now()
        let deadline = start &+ UInt64(limit * 1e9)
        for _ in 0..<count {
            let answered = DispatchSemaphore(value: 0)
            let sent = MonotonicClock.now()
            send { ok in
                recorder.record(startedAt: sent, ok: ok)
                answered.signal()
            }
            if answered.wait(timeout: .now() + 10) == .timedOut || MonotonicClock.now() > deadline { break }
        }
        let seconds = Double(MonotonicClock.now() &- start) / 1e9
        let (latencies, failed) = recorder.snapshot
        return Phase(completed: latencies.count, failed: failed, seconds: seconds, latenciesMicroseconds: latencies,
                     cpuSeconds: ResourceUsage.processCPUSeconds - cpu)
    }

    /// `inFlight` requests outstanding at all times, stopping after `limit` seconds.
    static func concurrent(_ count: Int, _ send: @escaping Send, limit: Double, inFlight: Int = inFlight) -> Phase {
        let recorder = Recorder()
        let slots = DispatchSemaphore(value: inFlight)
        let group = DispatchGroup()
        let cpu = ResourceUsage.processCPUSeconds
        let start = MonotonicClock.now()
        let deadline = start &+ UInt64(limit * 1e9)
        for _ in 0..<count {
            guard slots.wait(timeout: .now() + 10) == .success, MonotonicClock.now() < deadline else { break }
            group.enter()
            let sent = MonotonicClock.now()
            send { ok in
                recorder.record(startedAt: sent, ok: ok)
                slots.signal()
                group.leave()
            }
        }
        _ = group.wait(timeout: .now() + 10)
        let seconds = Double(MonotonicClock.now() &- start) / 1e9
        let (latencies, failed) = recorder.snapshot
        return Phase(completed: latencies.count, failed: failed, seconds: seconds, latenciesMicroseconds: latencies,
                     cpuSeconds: ResourceUsage.processCPUSeconds - cpu)
    }
}
