import Dispatch
import FeedServer
import Foundation
import HTTPClient
import Locking

/// p: a 100 MB body streamed from the loopback `FeedServer` (`/bytes/100000000`, one kept-alive
/// connection) through `HTTPClient.stream(_:)` to a consumer that drops each chunk. Figures a MB:
/// the process's CPU (the in-process server's included, which both sides share) and its minor
/// page faults (fresh pages touched: buffers allocated per read rather than reused). The
/// baseline reads the same route with a blocking socket into one reused 256 KiB buffer.
enum StreamingBenchmarks {
    static let name = "p.stream-100mb"

    /// One side's rounds: process CPU and minor faults, each a MB.
    private struct Round {
        let cpuMicroseconds: Double
        let faults: Double
    }

    static func run(_ context: BenchmarkContext) {
        guard context.selects(name) else { return }
        guard let server = BenchmarkServer.start(for: name) else { return }
        defer { server.stop() }
        let bytes = context.size(100_000_000)
        guard let url = URL(string: "http://127.0.0.1:\(server.port)/bytes/\(bytes)") else { return }
        let client = HTTPClient()
        defer { client.closeIdleConnections() }
        let path = "bytes/\(bytes)"
        var ours: [Round] = []
        var plain: [Round] = []
        for run in 0..<(context.measurement.runs + 1) {
            // The first of each is a warm-up: the connection opened, the allocator settled.
            let oursRound = measure(bytes: bytes) { stream(url, on: client) }
            let plainRound = measure(bytes: bytes) { readPlain(port: server.port, path: path) }
            if run > 0 {
                ours.append(oursRound)
                plain.append(plainRound)
            }
        }
        func median(_ rounds: [Round], _ figure: (Round) -> Double) -> Double { Measurement.median(rounds.map(figure)) }
        let baselineName = "a blocking socket into one 256 KiB buffer"
        context.report(BenchmarkResult(name: name + ".cpu", unit: "us/MB", value: median(ours, \.cpuMicroseconds),
                                       baseline: median(plain, \.cpuMicroseconds), baselineName: baselineName))
        context.report(BenchmarkResult(name: name + ".page-faults", unit: "faults/MB", value: median(ours, \.faults),
                                       baseline: median(plain, \.faults), baselineName: baselineName))
    }

    /// Runs `body`, which reads `bytes` (or fewer on failure, returned), and takes its figures.
    private static func measure(bytes: Int, _ body: () -> Int) -> Round {
        let cpu = ResourceUsage.processCPUSeconds
        let faults = SystemLibrary.minorPageFaults
        let read = body()
        let megabytes = Double(max(read, 1)) / 1e6
        if read != bytes { FileHandle.standardError.write(Data("\(name): read \(read) of \(bytes) bytes\n".utf8)) }
        return Round(cpuMicroseconds: (ResourceUsage.processCPUSeconds - cpu) * 1e6 / megabytes,
                     faults: Double(SystemLibrary.minorPageFaults - faults) / megabytes)
    }

    /// Streams `url` to a consumer that counts and drops each chunk; the bytes read.
    private static func stream(_ url: URL, on client: HTTPClient) -> Int {
        let read = ReadCount()
        let done = DispatchSemaphore(value: 0)
        Task {
            var count = 0
            do {
                let response = try await client.stream(HTTPClientRequest(url: url))
                for try await chunk in response.body { count += chunk.count }
            } catch {
                FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
            }
            read.set(count)
            done.signal()
        }
        done.wait()
        return read.value
    }

    /// Reads `path` with blocking calls, dropping the body into one reused buffer; the body bytes read.
    private static func readPlain(port: UInt16, path: String) -> Int {
        let fd = PlainHTTPLoop.connectLoopback(port: port)
        guard fd >= 0 else { return 0 }
        defer { _ = SystemLibrary.closeDescriptor(fd) }
        let request = Array("GET /\(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: */*\r\n\r\n".utf8)
        let written = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, SystemLibrary.noSignal) }
        guard written == request.count else { return 0 }
        var buffer = [UInt8](repeating: 0, count: 262_144)
        var head: [UInt8] = []
        var remaining = Int.max
        var body = 0
        while remaining > 0 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            if remaining == .max {
                head.append(contentsOf: buffer[0..<count])
                guard let end = PlainHTTPLoop.find(head), let length = PlainHTTPLoop.contentLength(head[..<end]) else { continue }
                body = head.count - end
                remaining = length - body
            } else {
                body += count
                remaining -= count
            }
        }
        return body
    }
}

/// The bytes a streaming task read, for the thread waiting on it.
private final class ReadCount: Sendable {
    private let count = Lock(0)

    var value: Int { count.withLock { $0 } }

    func set(_ value: Int) { count.withLock { $0 = value } }
}
