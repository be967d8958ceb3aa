import Dispatch
import Foundation
import HTTPClient
import Locking

/// p: a 100 MB request body uploaded through `HTTPClient.execute` from `Body.chunks(_:length:)`
/// (the same 64 KiB array yielded again and again, so producing copies nothing) to a loopback
/// sink that reads and discards it (`UploadSink`, threads of this process with blocking sockets,
/// answering with the count of body bytes it read, which each round checks). Figures: MB/s of
/// the wall clock, and the process's CPU a MB without the sink's (`UploadSink` counts its own).
/// The baseline writes the same head and bytes with a blocking socket, 64 KiB a `send`.
enum UploadBenchmarks {
    static let name = "p.upload-100mb"
    static let chunkSize = 65_536

    /// One side's round: wall-clock MB/s and process CPU a MB.
    private struct Round {
        let megabytesPerSecond: Double
        let cpuMicroseconds: Double
    }

    static func run(_ context: BenchmarkContext) {
        guard context.selects(name) else { return }
        guard let sink = UploadSink() else {
            FileHandle.standardError.write(Data("\(name): cannot start the sink\n".utf8))
            return
        }
        defer { sink.stop() }
        let bytes = context.size(100_000_000)
        guard let url = URL(string: "http://127.0.0.1:\(sink.port)/upload") else { return }
        let client = HTTPClient()
        defer { client.closeIdleConnections() }
        var ours: [Round] = []
        var plain: [Round] = []
        for run in 0..<(context.measurement.runs + 1) {
            // The first of each is a warm-up: the connection opened, the allocator settled.
            let oursRound = measure(bytes: bytes, sink: sink) { upload(bytes: bytes, to: url, on: client) }
            let plainRound = measure(bytes: bytes, sink: sink) { writePlain(bytes: bytes, port: sink.port) }
            if run > 0 {
                ours.append(oursRound)
                plain.append(plainRound)
            }
        }
        func median(_ rounds: [Round], _ figure: (Round) -> Double) -> Double { Measurement.median(rounds.map(figure)) }
        let baselineName = "a blocking socket, 64 KiB a send"
        context.report(BenchmarkResult(name: name, unit: "MB/s", value: median(ours, \.megabytesPerSecond),
                                       baseline: median(plain, \.megabytesPerSecond), baselineName: baselineName))
        context.report(BenchmarkResult(name: name + ".cpu", unit: "us/MB", value: median(ours, \.cpuMicroseconds),
                                       baseline: median(plain, \.cpuMicroseconds), baselineName: baselineName))
    }

    /// Runs `body`, which uploads `bytes` and returns how many the sink read, and takes its
    /// figures (the CPU without the sink's).
    private static func measure(bytes: Int, sink: UploadSink, _ body: () -> Int) -> Round {
        let cpu = ResourceUsage.processCPUSeconds - sink.cpuSeconds
        let start = MonotonicClock.now()
        let received = body()
        let seconds = Double(MonotonicClock.now() - start) / 1e9
        let megabytes = Double(max(received, 1)) / 1e6
        if received != bytes {
            FileHandle.standardError.write(Data("\(name): the sink read \(received) of \(bytes) bytes\n".utf8))
        }
        return Round(megabytesPerSecond: megabytes / max(seconds, 1e-9),
                     cpuMicroseconds: (ResourceUsage.processCPUSeconds - sink.cpuSeconds - cpu) * 1e6 / megabytes)
    }

    /// Uploads `bytes` with `HTTPClient`; the body bytes the sink says it read (0 on failure).
    private static func upload(bytes: Int, to url: URL, on client: HTTPClient) -> Int {
        let received = ReceivedCount()
        let done = DispatchSemaphore(value: 0)
        Task {
            let body = HTTPClientRequest.Body.chunks(RepeatedChunk(total: bytes, size: chunkSize), length: Int64(bytes))
            do {
                let response = try await client.execute(HTTPClientRequest(url: url, method: "POST", body: body))
                received.set(Int(String(decoding: response.body, as: UTF8.self)) ?? 0)
            } catch {
                FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
            }
            done.signal()
        }
        done.wait()
        return received.value
    }

    /// Uploads `bytes` with blocking calls, 64 KiB a `send`; the body bytes the sink says it read.
    private static func writePlain(bytes: Int, port: UInt16) -> Int {
        let fd = PlainHTTPLoop.connectLoopback(port: port)
        guard fd >= 0 else { return 0 }
        defer { _ = SystemLibrary.closeDescriptor(fd) }
        let head = Array("POST /upload HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(bytes)\r\n\r\n".utf8)
        guard UploadSink.sendAll(fd, head[...]) else { return 0 }
        let chunk = RepeatedChunk.chunk(size: chunkSize)
        var left = bytes
        while left > 0 {
            let count = min(left, chunk.count)
            guard UploadSink.sendAll(fd, chunk[..<count]) else { return 0 }
            left -= count
        }
        return UploadSink.readAnswer(fd) ?? 0
    }
}

/// `total` bytes as chunks of `size` (the last one shorter): the same array each time.
private struct RepeatedChunk: AsyncSequence, Sendable {
    let total: Int
    let size: Int

    static func chunk(size: Int) -> [UInt8] { [UInt8](repeating: UInt8(ascii: "u"), count: size) }

    struct AsyncIterator: AsyncIteratorProtocol {
        let chunk: [UInt8]
        var left: Int

        mutating func next() async -> [UInt8]? {
            guard left > 0 else { return nil }
            defer { left -= Swift.min(left, chunk.count) }
            return left >= chunk.count ? chunk : Array(chunk[..<left])
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunk: Self.chunk(size: size), left: total) }
}

/// The body bytes the sink said it read, for the thread waiting on the upload's task.
private final class ReceivedCount: Sendable {
    private let count = Lock(0)

    var value: Int { count.withLock { $0 } }

    func set(_ value: Int) { count.withLock { $0 = value } }
}
