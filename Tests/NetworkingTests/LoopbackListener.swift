import Foundation
import HTTPWire
import Synchronization

/// A test-only TCP listener on 127.0.0.1 with a scripted behaviour per connection. Bounded:
/// the accept loop polls every 50 ms and ends on `stop()` or after `lifetime`.
final class LoopbackListener: Sendable {
    enum Behavior: Sendable {
        /// Accept and never answer (connections stay open until `stop()`).
        case silent
        /// Accept, then close at once without a byte.
        case acceptAndClose
        /// Read the request head, then close without answering.
        case readAndClose
        /// Read the request head, then write `bytes` and close.
        case respond(Data)
        /// Read the request head, write `bytes`, then keep the connection open without closing.
        case respondAndHold(Data)
    }

    struct SetupError: Error { let step: String; let code: Int32 }

    let port: UInt16
    private let fd: Int32
    private let behavior: Behavior
    private let stopped = Atomic<Bool>(false)
    private let accepted = Atomic<Int>(0)
    private let held = Mutex<[Int32]>([])
    private let finished = DispatchSemaphore(value: 0)

    init(_ behavior: Behavior, lifetime: TimeInterval = 20) throws {
        let (fd, port) = try Self.bindLoopback()
        guard listen(fd, 16) == 0 else {
            close(fd)
            throw SetupError(step: "listen", code: errno)
        }
        self.fd = fd
        self.port = port
        self.behavior = behavior
        let deadline = Date().addingTimeInterval(lifetime)
        Thread.detachNewThread { [self] in
            acceptLoop(until: deadline)
            finished.signal()
        }
    }

    /// Connections accepted so far.
    var acceptedCount: Int { accepted.load(ordering: .acquiring) }

    /// Stops accepting, closes every held connection and the listening socket.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = finished.wait(timeout: .now() + 5)
        for client in held.withLock({ $0 }) { close(client) }
        close(fd)
    }

    deinit { stop() }

    /// A port on 127.0.0.1 that nothing listens on: bound by us, then closed.
    static func refusedPort() throws -> UInt16 {
        let (fd, port) = try bindLoopback()
        close(fd)
        return port
    }

    private static func bindLoopback() throws -> (Int32, UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SetupError(step: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(fd)
            throw SetupError(step: "bind", code: errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw SetupError(step: "getsockname", code: errno)
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    private func acceptLoop(until deadline: Date) {
        while !stopped.load(ordering: .acquiring), Date() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let client = accept(fd, nil, nil)
            guard client >= 0 else { continue }
            accepted.wrappingAdd(1, ordering: .acquiringAndReleasing)
            handle(client)
        }
    }

    private func handle(_ client: Int32) {
        switch behavior {
        case .silent:
            held.withLock { $0.append(client) }
        case .acceptAndClose:
            close(client)
        case .readAndClose:
            readHead(client)
            close(client)
        case .respond(let bytes):
            readHead(client)
            write(bytes, to: client)
            close(client)
        case .respondAndHold(let bytes):
            readHead(client)
            write(bytes, to: client)
            held.withLock { $0.append(client) }
        }
    }

    private func readHead(_ client: Int32) {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(3)
        let terminator: [UInt8] = [13, 10, 13, 10]
        while Date() < deadline, received.count < 65_536 {
            var descriptor = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            received.append(contentsOf: buffer[0..<count])
            if received.count >= 4, received.indices.dropLast(3).contains(where: { Array(received[$0..<$0 + 4]) == terminator }) {
                return
            }
        }
    }

    private func write(_ bytes: Data, to client: Int32) {
        var offset = 0
        let array = [UInt8](bytes)
        while offset < array.count {
            let sent = array[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }
}
