import Foundation
import Locking

/// A loopback HTTP/1.1 server that reads each request's `Content-Length` body and discards it,
/// answering `200` with the count of body bytes it read as the body (kept-alive connections). Its
/// threads use blocking sockets and one reused 256 KiB buffer each: it spends as little as a sink
/// can, and the same for every side measured; it counts the CPU its threads spent, so that a
/// client's own can be told from it. Stopped by `stop()`; a connection's thread ends when its
/// peer closes.
final class UploadSink: Sendable {
    let port: UInt16
    private let listener: Int32
    private let spent = Lock<UInt64>(0)

    /// The CPU its connections' threads spent up to the answers they sent, in seconds.
    var cpuSeconds: Double { Double(spent.withLock { $0 }) / 1e9 }

    /// Listens on 127.0.0.1 at a port of the system's choosing; nil when it cannot.
    init?() {
        let fd = SystemLibrary.streamSocket()
        guard fd >= 0 else { return nil }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            _ = SystemLibrary.closeDescriptor(fd)
            return nil
        }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                let serving = Thread { self.serve(connection) }
                serving.start()
            }
        }
        thread.start()
    }

    /// Stops accepting (the accepting thread ends; connections end as their peers close).
    func stop() {
        _ = shutdown(listener, Int32(SHUT_RDWR))
        _ = SystemLibrary.closeDescriptor(listener)
    }

    /// Answers requests on `fd` until the peer closes or sends what this sink does not read.
    private func serve(_ fd: Int32) {
        defer { _ = SystemLibrary.closeDescriptor(fd) }
        var counted: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: 262_144)
        var head: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            head.append(contentsOf: buffer[0..<count])
            guard let end = PlainHTTPLoop.find(head) else { continue }
            guard let length = PlainHTTPLoop.contentLength(head[..<end]) else { return }
            var read = min(head.count - end, length)
            // A pipelined request after this one is not read: the clients measured send one at a time.
            guard head.count - end <= length else { return }
            head.removeAll(keepingCapacity: true)
            while read < length {
                let wanted = min(buffer.count, length - read)
                let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, wanted, 0) }
                guard got > 0 else { return }
                read += got
            }
            let text = String(read)
            let answer = Array("HTTP/1.1 200 OK\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)".utf8)
            let now = ThreadCPUClock.now()
            spent.withLock { $0 += now - counted }
            counted = now
            guard Self.sendAll(fd, answer[...]) else { return }
        }
    }

    /// Writes all of `bytes` with blocking `send`s; false when the socket fails.
    static func sendAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, SystemLibrary.noSignal) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Reads one answer of this sink on `fd`: the count in its body, nil when it is not one.
    static func readAnswer(_ fd: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received.append(contentsOf: buffer[0..<count])
            guard let end = PlainHTTPLoop.find(received), let length = PlainHTTPLoop.contentLength(received[..<end]) else { continue }
            guard received.count >= end + length else { continue }
            return Int(String(decoding: received[end..<(end + length)], as: UTF8.self))
        }
    }
}
