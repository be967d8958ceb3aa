import Foundation
@testable import HTTPClient
import EventLoopIO
import HTTPWire
import XCTest

/// `ExchangeMachine`, every decision of one exchange, driven event by event as `SocketExchange`
/// feeds it: no socket, no loop, no timer. Each event returns one `Action`.
final class ExchangeMachineTests: XCTestCase {
    private typealias Machine = ExchangeMachine

    private func machine(_ url: String = "http://a.test/start", method: String = "GET", headers: [String: String] = [:],
                         body: HTTPClientRequest.Body? = nil, downloadFile: URL? = nil,
                         maximumRedirects: Int = 5, hasOverallDeadline: Bool = false) throws -> Machine {
        let request = HTTPClientRequest(url: try XCTUnwrap(URL(string: url)), method: method, headers: headers,
                                        body: body, downloadFile: downloadFile)
        return Machine(request: request, maximumRedirects: maximumRedirects, hasOverallDeadline: hasOverallDeadline)
    }

    /// The current request's target, read as the driver reads it.
    private func target(_ exchange: Machine) throws -> SocketRequestTarget {
        try SocketRequestTarget.read(exchange.request.url).get()
    }

    private func loopback(_ last: Int = 1) throws -> SocketAddress {
        try XCTUnwrap(SocketAddress.resolve(host: "127.0.0.\(last)", port: 80, numericOnly: true).first)
    }

    /// A download file the machine names but never touches.
    private var downloadFile: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("ExchangeMachineTests-\(UUID().uuidString)")
    }

    /// Reads the target and asks the pool: the exchange waits for a lease.
    private func wait(_ exchange: inout Machine) throws {
        let target = try self.target(exchange)
        XCTAssertEqual(exchange.begin(.success(target)), .acquire(target.key, armWaitTimer: !exchange.hasOverallDeadline))
        XCTAssertEqual(exchange.phase, .waiting)
    }

    /// Connects the fresh slot to a literal address that connects at once; what follows.
    private func connectAtOnce(_ exchange: inout Machine) throws -> Machine.Action {
        let address = try loopback()
        XCTAssertEqual(exchange.beginConnect(literal: [address]), .connectStep(.start(address, index: 0)))
        return exchange.connectStarted(index: 0, inProgress: false)
    }

    /// Gives the waiting exchange `lease` (a kept connection still open) and gets it to send a
    /// request with no body or one in memory.
    private func lease(_ exchange: inout Machine, _ lease: Machine.Lease) throws {
        let action = exchange.leased(lease) { false }
        guard lease == .fresh else { return XCTAssertEqual(action, .send(attempt: nil, body: .sendHead)) }
        XCTAssertEqual(action, .connect(closingCurrent: false))
        XCTAssertEqual(try connectAtOnce(&exchange), .send(attempt: 0, body: .sendHead))
    }

    /// Makes the head as the driver does (framed for `body`), telling the machine whether it asks to close.
    private func makeHead(_ exchange: inout Machine, body: [UInt8]? = nil) throws {
        let framing = exchange.headPrepared(hasBody: body != nil, length: body.map { Int64($0.count) })
        XCTAssertEqual(framing, .length(Int64(body?.count ?? 0)))
        let head = SocketRequestEncoding.head(exchange.request, target: try target(exchange), framing: framing,
                                              acceptsCompression: exchange.acceptsCompression)
        exchange.headMade(asksToClose: head.asksToClose)
        XCTAssertTrue(exchange.writable)
    }

    /// Writes the head and `body` (one piece, from memory) until only the answer is left.
    private func write(_ exchange: inout Machine, body: [UInt8]? = nil) {
        guard let body else {
            return XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: nil, next: .awaitAnswer))
        }
        let generation = exchange.generation
        XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: nil, next: .readNow(generation: generation)))
        XCTAssertEqual(exchange.pieceRead(body, generation: generation), .write(body))
        XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: Int64(body.count), next: .readNow(generation: generation)))
        XCTAssertEqual(exchange.pieceRead([], generation: generation), .write([]))
        XCTAssertEqual(exchange.outputWritten(), .outputWritten(progress: nil, next: .awaitAnswer))
        XCTAssertEqual(exchange.phase, .receiving)
    }

    /// A bodyless request on a connection of `lease`'s kind, its head made, not written yet.
    private func sending(_ lease: Machine.Lease = .fresh, method: String = "GET", headers: [String: String] = [:],
                         downloadFile: URL? = nil, maximumRedirects: Int = 5) throws -> Machine {
        var exchange = try machine(method: method, headers: headers, downloadFile: downloadFile, maximumRedirects: maximumRedirects)
        try wait(&exchange)
        try self.lease(&exchange, lease)
        try makeHead(&exchange)
        XCTAssertTrue(exchange.isSending)
        return exchange
    }

    /// `sending(...)` with the request all out: only the answer is left.
    private func sent(_ lease: Machine.Lease = .fresh, method: String = "GET", headers: [String: String] = [:],
                      downloadFile: URL? = nil, maximumRedirects: Int = 5) throws -> Machine {
        var exchange = try sending(lease, method: method, headers: headers, downloadFile: downloadFile, maximumRedirects: maximumRedirects)
        write(&exchange)
        XCTAssertEqual(exchange.phase, .receiving)
        return exchange
    }

    private func finish(_ disposal: Machine.Disposal, _ outcome: Machine.Outcome, leaveQueue: Bool = false) -> Machine.Action {
        .finish(leaveQueue: leaveQueue, disposal: disposal, outcome: outcome)
    }

    // MARK: Redirects

    /// The finish that follows a redirect leaves the hop's target in place: the driver gives
    /// the hop's slot back to that host (pooled or closed) before it reads the next target.
    func testAFollowedRedirectGivesItsSlotBackToItsOwnHost() throws {
        for keepAlive in [true, false] {
            var exchange = try sent()
            let first = try target(exchange)
            exchange.headReceived(status: 301, location: "http://b.test/moved")
            XCTAssertEqual(exchange.responseComplete(keepAlive: keepAlive, status: 301, leftoverBytes: false),
                           finish(keepAlive ? .pool : .close, .followRedirect))
            XCTAssertEqual(exchange.target?.key, first.key, "the slot goes back to a.test, not nowhere")
            let next = try target(exchange)
            XCTAssertEqual(exchange.begin(.success(next)), .acquire(next.key, armWaitTimer: true))
            XCTAssertEqual(exchange.target?.key, ConnectionPoolKey(host: "b.test", port: 80))
        }
    }
}
