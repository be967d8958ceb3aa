import Dispatch
import Foundation
import Synchronization

/// The limit for benchmark h: the same GETs written and read with blocking libc socket calls,
/// no framework at all. Each of `inFlight` threads keeps one connection and sends its share of
/// the requests one after another (HTTP/1.1 keep-alive), reading each response by its
/// `Content-Length`. Only for the loopback `FeedServer`, whose answers always carry one.
enum PlainHTTPLoop {
    /// Sends `count` GETs of `path` to 127.0.0.1:`port`, `inFlight` at a time.
    static func run(port: UInt16, path: String, count: Int, inFlight: Int, limit: Double) -> HTTPBenchmarks.Phase {
        let recorder = HTTPBenchmarks.Recorder()
        let group = DispatchGroup()
        let cpu = ResourceUsage.processCPUSeconds
        let start = MonotonicClock.now()
        let deadline = start &+ UInt64(limit * 1e9)
        let request = Array("GET /\(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: */*\r\n\r\n".utf8)
        let threads = max(1, min(inFlight, count))
        for index in 0..<threads {
            let share = count / threads + (index < count % threads ? 1 : 0)
            group.enter()
            // A thread of its own each: blocking calls on 256 dispatch workers would starve the pool.
            Thread.detachNewThread {
                worker(port: port, request: request, count: share, deadline: deadline, recorder: recorder)
                group.leave()
            }
        }
        _ = group.wait(timeout: .now() + limit + 10)
        let seconds = Double(MonotonicClock.now() &- start) / 1e9
        let (latencies, failed) = recorder.snapshot
        return HTTPBenchmarks.Phase(completed: latencies.count, failed: failed, seconds: seconds, latenciesMicroseconds: latencies,
                                    cpuSeconds: ResourceUsage.processCPUSeconds - cpu)
    }

    private static func worker(port: UInt16, request: [UInt8], count: Int, deadline: UInt64, recorder: HTTPBenchmarks.Recorder) {
        var fd = connectLoopback(port: port)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        for _ in 0..<count where MonotonicClock.now() < deadline {
            if fd < 0 { fd = connectLoopback(port: port) }
            let sent = MonotonicClock.now()
            let ok = fd >= 0 && exchange(fd, request: request, buffer: &buffer)
            recorder.record(startedAt: sent, ok: ok)
            if !ok, fd >= 0 {
                _ = SystemLibrary.closeDescriptor(fd)
                fd = -1
            }
        }
        if fd >= 0 { _ = SystemLibrary.closeDescriptor(fd) }
    }

    static func connectLoopback(port: UInt16) -> Int32 {
        let fd = SystemLibrary.streamSocket()
        guard fd >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                SystemLibrary.connectDescriptor(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            _ = SystemLibrary.closeDescriptor(fd)
            return -1
        }
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Writes the request and reads one response with a non-empty 200 body; false otherwise.
    private static func exchange(_ fd: Int32, request: [UInt8], buffer: inout [UInt8]) -> Bool {
        let written = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, SystemLibrary.noSignal) }
        guard written == request.count else { return false }
        var received: [UInt8] = []
        var headEnd: Int?
        var needed = Int.max
        while received.count < needed {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            received.append(contentsOf: buffer[0..<count])
            if headEnd == nil, let end = find(received) {
                headEnd = end
                guard let length = contentLength(received[..<end]) else { return false }
                needed = end + length
            }
        }
        guard let headEnd, received.count >= 12 else { return false }
        return received[9] == UInt8(ascii: "2") && received[10] == UInt8(ascii: "0") && received[11] == UInt8(ascii: "0")
            && needed > headEnd
    }

    static func find(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count where bytes[index] == 10 && bytes[index - 1] == 13 && bytes[index - 2] == 10 && bytes[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    static func contentLength(_ head: ArraySlice<UInt8>) -> Int? {
        let text = String(decoding: head, as: UTF8.self).lowercased()
        guard let range = text.range(of: "\r\ncontent-length:") else { return nil }
        let digits = text[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber }
        return Int(digits)
    }
}
