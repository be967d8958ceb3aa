import EventLoopIO
import Foundation
@testable import HTTPClient
import TestSupport
import XCTest

/// Happy Eyeballs on loopback: a name whose first address drops the handshake (a listener that
/// never accepts, its queue full) and whose second is a working server. Sequential attempts would
/// wait on the first until the connect timeout and fail; staggered ones start the second 250 ms
/// later and succeed. No name resolves to two addresses on these machines, so the test hands the
/// client its addresses through the resolver seam.
final class HappyEyeballsTests: HTTPClientTestCase {
    private var blackHole: TCPSocket?
    private var queued: [TCPSocket] = []

    override func tearDown() {
        queued.forEach { $0.close() }
        queued = []
        blackHole?.close()
        blackHole = nil
        super.tearDown()
    }

    /// A listener with the shortest queue, filled by connections nobody accepts: the kernel drops
    /// the next handshake (its SYN) instead of completing or refusing it.
    private func makeBlackHole() throws -> UInt16 {
        let listener = try TCPSocket.listen(backlog: 0)
        blackHole = listener
        let port = try listener.localPort()
        // Fill the accept queue; a connection that no longer completes shows it is full.
        for _ in 0..<4 {
            let (socket, inProgress) = try TCPSocket.startConnect(to: try XCTUnwrap(SocketAddress.resolve(host: "127.0.0.1", port: port, numericOnly: true).first))
            queued.append(socket)
            if inProgress, try !socket.wait(for: Int16(POLLOUT), timeout: .milliseconds(300)) { return port }
        }
        throw XCTSkip("the kernel kept completing handshakes to a listener with a full queue")
    }

    /// A client on a loop of its own whose lookups of any name answer 127.0.0.1 at `ports`, in order.
    private func client(resolvingTo ports: [UInt16], label: String) throws -> HTTPClient {
        try client(resolvingTo: ports.map { ("127.0.0.1", $0) }, label: label)
    }

    /// A client on a loop of its own whose lookups of any name answer `addresses` (host literal and
    /// port), in order.
    private func client(resolvingTo addresses: [(host: String, port: UInt16)], label: String) throws -> HTTPClient {
        let resolver = HostResolver(
            literal: { _, _ in nil },
            lookUp: { _, _ throws(SocketError) in
                var resolved: [SocketAddress] = []
                for (host, port) in addresses { resolved += try SocketAddress.resolve(host: host, port: port, numericOnly: true) }
                return resolved
            }
        )
        let group = try EventLoopGroup(count: 1, label: label)
        return HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5)), loops: group, resolver: resolver)
    }

    func testASecondAddressConnectsWhileTheFirstDropsTheHandshake() throws {
        let silentPort = try makeBlackHole()
        let serverPort = server.port
        let client = try client(resolvingTo: [silentPort, serverPort], label: "HappyEyeballsTests")
        defer { client.closeIdleConnections() }
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://eyeballs.test:\(serverPort)/echo")))
        let started = ContinuousClock.now
        let (result, _) = try executeAsync(request, on: client)
        let took = ContinuousClock.now - started
        XCTAssertEqual(try result.get().status, 200, "the second address answered")
        XCTAssertEqual(server.requestCount(path: "/echo"), 1)
        XCTAssertGreaterThanOrEqual(took, ConnectAttempts.staggerDelay, "the second attempt waited its turn behind the first")
        let attempts = try result.get().timings.connectAttempts
        XCTAssertEqual(attempts.map(\.address), ["127.0.0.1:\(silentPort)", "127.0.0.1:\(serverPort)"])
        XCTAssertEqual(attempts.map(\.outcome), [.abandoned, .connected], "the first was closed when the second won")
        XCTAssertGreaterThanOrEqual(attempts[1].started - attempts[0].started, ConnectAttempts.staggerDelay)
        XCTAssertEqual(attempts[0].ended, attempts[1].ended)
    }

    /// A name whose lookup gives two IPv6 addresses that refuse (ports nothing listens on at
    /// `::1`), then the IPv4 one of a working server: the families take turns (RFC 8305 §4), so
    /// the IPv4 address is the second attempt, not the third.
    func testTheOtherFamilyIsTriedSecond() throws {
        let closed = try (0..<2).map { _ in
            let listener = try TCPSocket.listen(backlog: 1)
            defer { listener.close() }
            return try listener.localPort()
        }
        let serverPort = server.port
        let client = try client(resolvingTo: [("::1", closed[0]), ("::1", closed[1]), ("127.0.0.1", serverPort)],
                                label: "HappyEyeballsTests.families")
        defer { client.closeIdleConnections() }
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://eyeballs.test:\(serverPort)/echo")))
        let response = try executeAsync(request, on: client).0.get()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.timings.connectAttempts.map(\.address), ["[::1]:\(closed[0])", "127.0.0.1:\(serverPort)"],
                       "the IPv4 address went second, before the other IPv6 one")
        XCTAssertEqual(response.timings.connectAttempts.map(\.outcome), [.failed(errno: ECONNREFUSED), .connected])
    }

    /// A name whose first address refuses (a closed port) and whose second accepts: the timings
    /// list both attempts, the refused one ending before the second starts, and the winner
    /// ending as the connection is made; a kept-alive request after it lists none.
    func testTheTimingsListARefusedAttemptThenTheOneThatConnected() throws {
        let closed = try TCPSocket.listen(backlog: 1)
        let closedPort = try closed.localPort()
        closed.close()
        let serverPort = server.port
        let client = try client(resolvingTo: [closedPort, serverPort], label: "HappyEyeballsTests.refused")
        defer { client.closeIdleConnections() }
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://eyeballs.test:\(serverPort)/echo")))
        let timings = try executeAsync(request, on: client).0.get().timings
        let attempts = timings.connectAttempts
        XCTAssertEqual(attempts.map(\.address), ["127.0.0.1:\(closedPort)", "127.0.0.1:\(serverPort)"])
        XCTAssertEqual(attempts.map(\.outcome), [.failed(errno: ECONNREFUSED), .connected])
        XCTAssertEqual(attempts.last?.address, timings.remoteAddress)
        let instants = [attempts[0].started, attempts[0].ended, attempts[1].started, attempts[1].ended, timings.connected]
        let known = instants.compactMap { $0 }
        XCTAssertEqual(known.count, instants.count, "every instant is known")
        XCTAssertEqual(known, known.sorted(), "the refused attempt, then the one that connected")
        XCTAssertLessThanOrEqual(try XCTUnwrap(timings.resolved), attempts[1].started)
        XCTAssertLessThan(try XCTUnwrap(attempts[1].started) - (try XCTUnwrap(attempts[0].ended)), ConnectAttempts.staggerDelay,
                          "the refusal started the next at once, not after the stagger")
        let again = try executeAsync(request, on: client).0.get().timings
        XCTAssertTrue(again.reusedConnection)
        XCTAssertEqual(again.connectAttempts, [], "a kept-alive connection made no attempt")
    }

    /// With one address only, a dropped handshake is a connect timeout (the second attempt of the
    /// test above is what saved it).
    func testASingleAddressThatDropsTheHandshakeTimesOut() throws {
        let silentPort = try makeBlackHole()
        let resolver = HostResolver(
            literal: { _, _ in nil },
            lookUp: { _, _ throws(SocketError) in try SocketAddress.resolve(host: "127.0.0.1", port: silentPort, numericOnly: true) }
        )
        let group = try EventLoopGroup(count: 1, label: "HappyEyeballsTests.single")
        let client = HTTPClient(configuration: .init(connectTimeout: .milliseconds(800)), loops: group, resolver: resolver)
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: "http://eyeballs.test:\(silentPort)/echo")))
        let (result, _) = try executeAsync(request, on: client)
        guard case .failure(.timedOut(.connect, let after, let host, _)) = result else {
            return XCTFail("expected a connect timeout, got \(result)")
        }
        XCTAssertEqual(after, .milliseconds(800))
        XCTAssertEqual(host, "eyeballs.test")
    }
}
