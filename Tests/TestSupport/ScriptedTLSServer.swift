import EventLoopIO
import Foundation
import Synchronization
import SystemTLS

/// A TLS server on 127.0.0.1 that fails during the handshake, for fault tests (`FeedServer`
/// serves TLS that works): a `ThreadedListener` serves each connection on a thread, and a
/// `TLSMachine(server:)` with the fixture `localhost` makes the real handshake's records.
/// Bounded: it polls every 50 ms, and stops on `stop()` or after `lifetime`.
public final class ScriptedTLSServer: Sendable {
    /// What each connection meets.
    public enum Behavior: Sendable, Equatable {
        /// The ClientHello is read and never answered: the client's handshake waits until it
        /// gives up (or until `stop()`).
        case stallHandshake
        /// The ClientHello is read, the first record of the server's answer (its ServerHello)
        /// sent, then the connection reset (`SO_LINGER` 0) in the middle of the handshake.
        case resetMidHandshake
    }

    private let behavior: Behavior
    private let context: TLSServerContext
    private let listener: ThreadedListener
    private let helloCount = Atomic<Int>(0)

    /// Starts listening on a free port. Throws when no OpenSSL loads, the fixture cannot be read,
    /// or no port can be bound.
    public init(_ behavior: Behavior, lifetime: Duration = .seconds(30)) throws {
        context = try TLSServerContext(configuration: TLSFixtures.server())
        listener = try ThreadedListener(lifetime: lifetime)
        self.behavior = behavior
        listener.start { [self] client, _ in serve(client) }
    }

    deinit {
        stop()
    }

    /// The listening port.
    public var port: UInt16 { listener.port }

    /// `https://localhost:PORT/`: the name the fixture's certificate carries.
    public var baseURL: URL {
        let text = "https://localhost:\(port)/"
        guard let url = URL(string: text) else { preconditionFailure("not a URL: \(text)") }
        return url
    }

    /// ClientHellos read so far (each on its own connection).
    public var clientHelloCount: Int { helloCount.load(ordering: .acquiring) }

    /// Stops accepting, waits for the connections' threads (each closes its socket), closes the
    /// listener. Idempotent.
    public func stop() {
        listener.stop()
    }

    private func serve(_ client: TCPSocket) {
        guard let hello = readClientHello(client) else { return }
        helloCount.add(1, ordering: .acquiringAndReleasing)
        switch behavior {
        case .stallHandshake:
            listener.waitUntilStopped()
        case .resetMidHandshake:
            guard let machine = try? TLSMachine(server: context) else { return }
            let answer = machine.receive(ciphertext: hello).reduce(into: [UInt8]()) { bytes, action in
                if case .write(let records) = action { bytes += records }
            }
            guard let first = Self.firstRecord(of: answer) else { return }
            _ = try? client.write(first, timeout: .seconds(5))
            client.setLingerZero()
        }
    }

    /// Reads the client's first TLS record, which must be a ClientHello (bounded: 5 s and the
    /// server's lifetime); nil when it is not, or the client went away.
    private func readClientHello(_ client: TCPSocket) -> [UInt8]? {
        var bytes: [UInt8] = []
        let readDeadline = min(listener.deadline, ContinuousClock.now + .seconds(5))
        while !listener.isStopped, ContinuousClock.now < readDeadline {
            if let record = Self.firstRecord(of: bytes) {
                // A handshake record (22) whose first message is a ClientHello (1).
                return record[0] == 22 && record[5] == 1 ? record : nil
            }
            guard let more = try? client.read(timeout: .milliseconds(50)) else { continue }
            if more.isEmpty { return nil }
            bytes += more
        }
        return nil
    }

    /// The first whole TLS record of `bytes` (a 5-byte header whose last two bytes are the
    /// length, then the body), nil while it is incomplete.
    static func firstRecord(of bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 5 else { return nil }
        let length = Int(bytes[3]) << 8 | Int(bytes[4])
        guard length > 0, bytes.count >= 5 + length else { return nil }
        return Array(bytes[0..<5 + length])
    }
}
