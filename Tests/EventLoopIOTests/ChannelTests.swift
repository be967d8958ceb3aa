import EventLoopIO
import Locking
import TestSupport
import XCTest

/// A channel on a real loop and a real socket: output the peer does not read yet survives
/// partial writes and goes out whole, in order, as the peer reads; the wait's timer reaches the
/// owner; the close path sends the last bytes, then the end of stream.
final class ChannelTests: XCTestCase {
    /// Flushes again whenever the socket has room, and records what the channel told it.
    private final class Owner: ChannelHandler, @unchecked Sendable {
        // @unchecked: `channel` is set once before the loop calls it; `events` is locked.
        var channel: Channel?
        let events = Lock<[String]>([])

        func socketReadable() {
            events.withLock { $0.append("readable") }
            channel?.setReading(false)
        }

        func socketWritable() {
            guard let channel else { return }
            let flush = channel.flush()
            if flush != .wouldBlock { events.withLock { $0.append("\(flush)") } }
        }

        func channelDeadlinePassed() {
            events.withLock { $0.append("deadline") }
        }

        var log: [String] { events.withLock { $0 } }
    }

    private var loops: [EventLoop] = []
    private var peers: [TCPSocket] = []

    /// A channel on a loop of its own over one end of a loopback connection, and the other end.
    /// Reads `peer` until `sent.count` bytes came (or its stream ended) and checks they are
    /// `sent`, whole and in order.
    private func assertReceives(_ sent: [UInt8], from peer: TCPSocket, file: StaticString = #filePath, line: UInt = #line) throws {
        var received: [UInt8] = []
        while received.count < sent.count {
            let bytes = try peer.read(timeout: .seconds(5))
            XCTAssertFalse(bytes.isEmpty, "the channel ended its stream early", file: file, line: line)
            if bytes.isEmpty { break }
            received += bytes
        }
        XCTAssertTrue(BulkBytes.equal(received, sent), "\(received.count) bytes of \(sent.count), or not in order", file: file, line: line)
    }

    private func makeChannel() throws -> (channel: Channel, owner: Owner, peer: TCPSocket) {
        let loop = try EventLoop(label: "ChannelTests")
        loops.append(loop)
        let listener = try TCPSocket.listen()
        defer { listener.close() }
        let peer = try TCPSocket.connect(host: "127.0.0.1", port: try listener.localPort(), timeout: .seconds(2))
        peers.append(peer)
        let ours = try XCTUnwrap(try listener.accept(timeout: .seconds(2)))
        let owner = Owner()
        let channel = Channel(socket: ours, loop: loop, handler: owner)
        owner.channel = channel
        return (channel, owner, peer)
    }

    override func tearDown() {
        for peer in peers { peer.close() }
        for loop in loops { loop.stop() }
        peers = []
        loops = []
        super.tearDown()
    }

    func testOutputThePeerDoesNotReadYetGoesOutWholeAndInOrderAsItReads() throws {
        let (channel, owner, peer) = try makeChannel()
        let loop = channel.loop
        // More than the kernel's buffers take: the first flush writes part and waits for room.
        let sent = BulkBytes.make(8 << 20)
        let first = Recorder<Channel.Flush>()
        loop.execute {
            channel.queue(sent[...])
            first.append(channel.flush())
        }
        XCTAssertTrue(waitUntil { first.count == 1 })
        XCTAssertEqual(first.values, [.wouldBlock])
        try assertReceives(sent, from: peer)
        XCTAssertTrue(waitUntil { owner.log == ["done"] }, "\(owner.log)")
        loop.execute {
            channel.queue(Array("bye".utf8)[...])
            channel.close()
        }
        var tail: [UInt8] = []
        while true {
            let bytes = try peer.read(timeout: .seconds(5))
            if bytes.isEmpty { break }
            tail += bytes
        }
        XCTAssertEqual(tail, Array("bye".utf8), "the close path writes what is queued, then the end of stream")
    }

    func testManySlicesQueuedGoOutWholeAndInOrderThroughPartialWrites() throws {
        let (channel, owner, peer) = try makeChannel()
        let loop = channel.loop
        // More slices than one `sendmsg` takes, of uneven sizes (partial writes end inside
        // them), and more bytes than the kernel's buffers take.
        let sizes = (0..<(3 * TCPSocket.maximumVectors)).map { [1, 7, 65_536, 1_000_003, 4_093][$0 % 5] }
        var slices: [[UInt8]] = []
        var start = 0
        for size in sizes {
            slices.append(BulkBytes.make(size, from: start))
            start += size
        }
        let sent = slices.flatMap { $0 }
        let first = Recorder<Channel.Flush>()
        let pending = Recorder<Int>()
        loop.execute { [slices] in
            for slice in slices { channel.queue(slice[...]) }
            pending.append(channel.pendingWriteCount)
            first.append(channel.flush())
            pending.append(channel.pendingWriteCount)
        }
        XCTAssertTrue(waitUntil { first.count == 1 })
        XCTAssertEqual(first.values, [.wouldBlock])
        XCTAssertEqual(pending.values.first, sent.count)
        XCTAssertTrue((pending.values.last ?? 0) > 0 && (pending.values.last ?? 0) < sent.count, "\(pending.values)")
        try assertReceives(sent, from: peer)
        XCTAssertTrue(waitUntil { owner.log == ["done"] }, "\(owner.log)")
        let left = Recorder<Int>()
        loop.execute {
            left.append(channel.pendingWriteCount)
            channel.close()
        }
        XCTAssertTrue(waitUntil { left.count == 1 })
        XCTAssertEqual(left.values, [0])
    }

    func testTheWaitsTimerReachesTheOwnerOnceAfterItWasMovedLater() throws {
        let (channel, owner, peer) = try makeChannel()
        let loop = channel.loop
        loop.execute {
            channel.setReading(true)
            channel.setTimeout(.milliseconds(20))
            // Moved later: the first timer fires early and arms itself again.
            channel.setTimeout(.milliseconds(60))
        }
        XCTAssertTrue(waitUntil { owner.log == ["deadline"] }, "\(owner.log)")
        let closed = Recorder<Bool>()
        loop.execute {
            channel.close()
            channel.close()
            closed.append(channel.isClosed)
        }
        XCTAssertTrue(waitUntil { closed.values == [true] })
        XCTAssertEqual(try peer.read(timeout: .seconds(5)), [], "closed once: the peer reads the end")
        XCTAssertEqual(owner.log, ["deadline"])
    }

    func testAHandOverMovesTheRegistrationQueueAndTimerToTheNewOwner() throws {
        let (channel, first, peer) = try makeChannel()
        let loop = channel.loop
        let second = Owner()
        second.channel = channel
        let flushed = Recorder<Channel.Flush>()
        // The first owner leaves bytes queued and a wait armed, then hands the channel over.
        let sent = [UInt8](repeating: 5, count: 8 << 20)
        loop.execute {
            channel.setReading(true)
            channel.queue(sent[...])
            flushed.append(channel.flush())
            channel.setTimeout(.milliseconds(50))
            channel.handOver(to: second)
        }
        XCTAssertTrue(waitUntil { flushed.count == 1 })
        XCTAssertEqual(flushed.values, [.wouldBlock])
        // The new owner hears the deadline and the room to write the rest.
        XCTAssertTrue(waitUntil { second.log.contains("deadline") }, "\(second.log)")
        var received = 0
        while received < sent.count {
            let bytes = try peer.read(timeout: .seconds(5))
            if bytes.isEmpty { break }
            received += bytes.count
        }
        XCTAssertEqual(received, sent.count, "the queue went out under its new owner")
        XCTAssertTrue(waitUntil { second.log.contains("done") }, "\(second.log)")
        // It reads for the new owner too.
        try peer.write(Array("ping".utf8), timeout: .seconds(5))
        XCTAssertTrue(waitUntil { second.log.contains("readable") }, "\(second.log)")
        XCTAssertEqual(first.log, [], "the first owner hears nothing after the hand-over")
        let closed = Recorder<Bool>()
        loop.execute {
            channel.close()
            closed.append(channel.isClosed)
        }
        XCTAssertTrue(waitUntil { closed.values == [true] })
    }
}
