import EventLoopIO
import Foundation
import Synchronization

/// The listening side of a scripted test server on 127.0.0.1: a thread of its own accepts
/// (polling every 50 ms) and hands each connection to the server's `serve` on a thread of its
/// own, closing it once `serve` returns. It stops on `stop()` or after its lifetime; scripts read
/// `isStopped` and `deadline` to end their waits, or block in `waitUntilStopped()`.
public final class ThreadedListener: Sendable {
    /// The listening port.
    public let port: UInt16
    /// When the listener stops by itself.
    public let deadline: ContinuousClock.Instant
    private let socket: TCPSocket
    private let stopped = Atomic<Bool>(false)
    private let connections = Atomic<Int>(0)
    private let group = DispatchGroup()
    /// Signalled by `stop()`; each waiter passes the signal on to the next.
    private let stopSignal = DispatchSemaphore(value: 0)

    /// Binds a free port; nothing is accepted before `start(serving:)`.
    public init(lifetime: Duration) throws {
        let socket = try TCPSocket.listen(host: "127.0.0.1", port: 0)
        do {
            port = try socket.localPort()
        } catch {
            socket.close()
            throw error
        }
        self.socket = socket
        deadline = ContinuousClock.now + lifetime
    }

    /// Starts accepting: `serve` gets each connection and its number (from 1) on a thread of its own.
    public func start(serving serve: @escaping @Sendable (_ client: TCPSocket, _ number: Int) -> Void) {
        group.enter()
        Thread.detachNewThread { [self] in
            while !isStopped, ContinuousClock.now < deadline {
                guard let client = try? socket.accept(timeout: .milliseconds(50)) else { continue }
                let number = connections.add(1, ordering: .acquiringAndReleasing).newValue
                group.enter()
                Thread.detachNewThread { [self] in
                    serve(client, number)
                    client.close()
                    group.leave()
                }
            }
            group.leave()
        }
    }

    /// Whether `stop()` was called.
    public var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// Connections accepted so far.
    public var connectionCount: Int { connections.load(ordering: .acquiring) }

    /// Returns once `stop()` is called, or at the listener's deadline: a script that holds a
    /// connection open waits here without polling.
    public func waitUntilStopped() {
        let remaining = max(.zero, deadline - ContinuousClock.now)
        let nanoseconds = remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000
        guard stopSignal.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .success else { return }
        stopSignal.signal()
    }

    /// Stops accepting, waits (up to 10 s) for the connections' threads, closes the listening
    /// socket. Idempotent.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        stopSignal.signal()
        _ = group.wait(timeout: .now() + 10)
        socket.close()
    }
}
