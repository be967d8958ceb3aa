@testable import FeedServer
import Foundation
import HTTPWire
import XCTest

/// The server connection's decisions without a socket: each test plays the driver, handing the
/// machine what a socket, a timer or the router would, and checks what it asks for next.
final class ConnectionStateMachineTests: XCTestCase {
    typealias Action = ConnectionStateMachine.Action

    private let configuration = FeedServer.Configuration(maxHeaderBytes: 1_024, maxBodyBytes: 100,
                                                         idleTimeout: .seconds(7), writeTimeout: .seconds(3))

    private func started() -> ConnectionStateMachine {
        var machine = ConnectionStateMachine(configuration: configuration)
        XCTAssertEqual(machine.start(), .awaitReadable(timeout: .seconds(7)))
        return machine
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Reads `text`, expects its head counted, and returns the request the machine routes.
    private func readRequest(_ machine: inout ConnectionStateMachine, _ text: String,
                             file: StaticString = #filePath, line: UInt = #line) throws -> HTTPRequest {
        guard case .countHead(let head) = machine.bytesRead(bytes(text)) else {
            XCTFail("no head counted", file: file, line: line)
            throw HTTPWireError.truncatedHead(received: 0)
        }
        guard case .route(let request, afterWait: false) = machine.headCounted() else {
            XCTFail("not routed", file: file, line: line)
            throw HTTPWireError.truncatedHead(received: 0)
        }
        XCTAssertEqual(request.head, head, file: file, line: line)
        return request
    }

    // MARK: - Requests and responses

    func testAKeptAliveConnectionAnswersAndWaitsForTheNextRequest() throws {
        var machine = started()
        let request = try readRequest(&machine, "GET /echo?n=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(request.head.target, "/echo?n=1")
        XCTAssertEqual(machine.routed(.send(bytes("answer"), keepAlive: true)), .write(bytes("answer")[...]))
        XCTAssertEqual(machine.outputFlushed(), .awaitReadable(timeout: .seconds(7)))
        XCTAssertEqual(machine.phase, .reading)
        let second = try readRequest(&machine, "GET /echo?n=2 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(second.head.target, "/echo?n=2")
    }

    /// A cut (`/half`, `/cut-record`): the bytes go out but for the withheld ones, then the
    /// connection closes without ending TLS.
    func testACutIsWrittenWithholdingItsLastBytesThenAborts() throws {
        var machine = started()
        _ = try readRequest(&machine, "GET /cut-record HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(machine.routed(.cut(bytes("cut"), withholding: 16)), .writeCut(bytes("cut")[...], withholding: 16))
        XCTAssertEqual(machine.outputBlocked(), .awaitWritable(timeout: .seconds(3)))
        XCTAssertEqual(machine.outputFlushed(), .abort)
        XCTAssertEqual(machine.phase, .closed)
    }

    func testACutWithholdsNothingForANegativeCount() throws {
        var machine = started()
        _ = try readRequest(&machine, "GET /half HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(machine.routed(.cut(bytes("half"), withholding: -1)), .writeCut(bytes("half")[...], withholding: 0))
    }

    func testAResponseThatEndsTheConnectionCloses() throws {
        var machine = started()
        _ = try readRequest(&machine, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(machine.routed(.send(bytes("bye"), keepAlive: false)), .write(bytes("bye")[...]))
        XCTAssertEqual(machine.outputFlushed(), .close)
    }

    func testPipelinedRequestsAreRoutedOneAfterAnotherAfterEachAnswerIsOut() throws {
        var machine = started()
        let first = try readRequest(&machine, "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\nGET /c HT")
        XCTAssertEqual(first.head.path, "/a")
        XCTAssertEqual(machine.routed(.send(bytes("A"), keepAlive: true)), .write(bytes("A")[...]))
        // The second request was buffered with the first: no read needed.
        guard case .countHead(let head) = machine.outputFlushed() else { return XCTFail("second head not counted") }
        XCTAssertEqual(head.path, "/b")
        guard case .route(let second, afterWait: false) = machine.headCounted() else { return XCTFail("second request not routed") }
        XCTAssertEqual(second.head.path, "/b")
        XCTAssertEqual(machine.routed(.send(bytes("B"), keepAlive: true)), .write(bytes("B")[...]))
        // The third is not complete yet.
        XCTAssertEqual(machine.outputFlushed(), .awaitReadable(timeout: .seconds(7)))
        guard case .countHead(let third) = machine.bytesRead(bytes("TP/1.1\r\nHost: x\r\n\r\n")) else { return XCTFail("third head not counted") }
        XCTAssertEqual(third.path, "/c")
    }

    func testAHeadArrivingInPiecesIsWaitedForWithTheIdleTimeoutEachTime() throws {
        var machine = started()
        XCTAssertEqual(machine.bytesRead(bytes("GET /slow")), .awaitReadable(timeout: .seconds(7)))
        XCTAssertEqual(machine.bytesRead(bytes("ly HTTP/1.1\r\n")), .awaitReadable(timeout: .seconds(7)))
        guard case .countHead(let head) = machine.bytesRead(bytes("Host: x\r\n\r\n")) else { return XCTFail("head not counted") }
        XCTAssertEqual(head.path, "/slowly")
    }

    func testABodyIsRoutedOnceCompleteAndItsHeadCountedOnceWhenItArrives() throws {
        var machine = started()
        guard case .countHead(let head) = machine.bytesRead(bytes("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\nabc")) else {
            return XCTFail("head not counted when it arrived")
        }
        XCTAssertEqual(head.method, "POST")
        XCTAssertEqual(machine.headCounted(), .awaitReadable(timeout: .seconds(7)))
        guard case .route(let request, afterWait: false) = machine.bytesRead(bytes("def")) else { return XCTFail("not routed") }
        XCTAssertEqual(request.body, bytes("abcdef"))
    }

    func testExpectContinueIsAnsweredBeforeTheBodyIsRead() throws {
        var machine = started()
        guard case .countHead = machine.bytesRead(bytes("PUT /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n")) else {
            return XCTFail("head not counted")
        }
        XCTAssertEqual(machine.headCounted(), .write(bytes("HTTP/1.1 100 Continue\r\n\r\n")[...]))
        XCTAssertEqual(machine.outputFlushed(), .awaitReadable(timeout: .seconds(7)))
        guard case .route(let request, afterWait: false) = machine.bytesRead(bytes("abc")) else { return XCTFail("not routed") }
        XCTAssertEqual(request.body, bytes("abc"))
    }

    func testExpectContinueWithTheBodyAlreadyThereGetsNoInterimAnswer() throws {
        var machine = started()
        let request = try readRequest(&machine, "PUT /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc")
        XCTAssertEqual(request.body, bytes("abc"))
    }

    // MARK: - Ends of the stream, timeouts, failures

    func testTheClientClosingBetweenRequestsCloses() {
        var machine = started()
        XCTAssertEqual(machine.endOfStream(), .close)
        XCTAssertEqual(machine.phase, .closed)
    }

    func testTheClientClosingInsideAHeadClosesWithoutAnAnswer() {
        var machine = started()
        XCTAssertEqual(machine.bytesRead(bytes("GET / HT")), .awaitReadable(timeout: .seconds(7)))
        XCTAssertEqual(machine.endOfStream(), .close)
    }

    func testTheClientClosingInsideABodyClosesWithoutAnAnswer() {
        var machine = started()
        guard case .countHead = machine.bytesRead(bytes("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nab")) else { return XCTFail("head not counted") }
        XCTAssertEqual(machine.headCounted(), .awaitReadable(timeout: .seconds(7)))
        XCTAssertEqual(machine.endOfStream(), .close)
    }

    func testTheIdleTimerClosesAWaitingConnection() {
        var machine = started()
        XCTAssertEqual(machine.timerFired(), .close)
    }

    func testAFailedReadCloses() {
        var machine = started()
        XCTAssertEqual(machine.readFailed(), .close)
    }

    func testABlockedWriteWaitsForWritabilityWithTheWriteTimeoutAndClosesWhenItPasses() throws {
        var machine = started()
        _ = try readRequest(&machine, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(machine.routed(.send(bytes("big"), keepAlive: true)), .write(bytes("big")[...]))
        XCTAssertEqual(machine.outputBlocked(), .awaitWritable(timeout: .seconds(3)))
        XCTAssertEqual(machine.outputBlocked(), .awaitWritable(timeout: .seconds(3)), "progress starts the write timeout again")
        XCTAssertEqual(machine.timerFired(), .close)
    }

    func testAFailedWriteCloses() throws {
        var machine = started()
        _ = try readRequest(&machine, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = machine.routed(.send(bytes("x"), keepAlive: true))
        XCTAssertEqual(machine.writeFailed(), .close)
    }

    // MARK: - Malformed requests

    /// Expects `action` to write an error response with `status`, then a lingering close.
    private func expectErrorAnswer(_ action: Action, status: Int, _ machine: inout ConnectionStateMachine,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        guard case .write(let written) = action else { return XCTFail("expected an error response, got \(action)", file: file, line: line) }
        var parser = HTTPResponseParser(requestMethod: "GET")
        let response = try XCTUnwrap(try parser.feed(Array(written)), file: file, line: line)
        XCTAssertEqual(response.head.status, status, file: file, line: line)
        XCTAssertEqual(response.head.headers["Connection"], "close", file: file, line: line)
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String]
        XCTAssertEqual(object?["code"], "E\(status)", file: file, line: line)
        XCTAssertEqual(machine.outputFlushed(), .lingeringClose(timeout: .seconds(1)), file: file, line: line)
    }

    func testGarbageGets400ThenALingeringClose() throws {
        var machine = started()
        try expectErrorAnswer(machine.bytesRead(bytes("\u{1}\u{2} NOT HTTP\r\n\r\n")), status: 400, &machine)
        XCTAssertEqual(machine.bytesRead(bytes("more the client sends")), .keepWaiting)
        XCTAssertEqual(machine.endOfStream(), .close)
    }

    func testOversizeHeadersGet431() throws {
        var machine = started()
        try expectErrorAnswer(machine.bytesRead(bytes("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 2_000))), status: 431, &machine)
    }

    func testAnOversizeBodyCountsItsHeadThenGets413() throws {
        var machine = started()
        guard case .countHead(let head) = machine.bytesRead(bytes("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")) else {
            return XCTFail("head not counted")
        }
        XCTAssertEqual(head.path, "/echo")
        try expectErrorAnswer(machine.headCounted(), status: 413, &machine)
    }

    func testALingeringCloseEndsAtItsTimerOrAfterFourMebibytes() throws {
        var timed = started()
        try expectErrorAnswer(timed.bytesRead(bytes("BAD\r\n\r\n")), status: 400, &timed)
        XCTAssertEqual(timed.timerFired(), .close)

        var flooded = started()
        try expectErrorAnswer(flooded.bytesRead(bytes("BAD\r\n\r\n")), status: 400, &flooded)
        let megabyte = [UInt8](repeating: 0x41, count: 1_048_576)
        for _ in 0..<3 {
            XCTAssertEqual(flooded.bytesRead(megabyte), .keepWaiting)
        }
        XCTAssertEqual(flooded.bytesRead(megabyte), .close)
    }

    // MARK: - Route plans

    func testAWaitRoutesTheRequestAgainWhenItsTimerFires() throws {
        var machine = started()
        let request = try readRequest(&machine, "GET /delay/50 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(machine.routed(.wait(.milliseconds(50), watchingForClose: false)), .awaitTimer(.milliseconds(50)))
        XCTAssertEqual(machine.timerFired(), .route(request, afterWait: true))
        XCTAssertEqual(machine.routed(.send(bytes("late"), keepAlive: true)), .write(bytes("late")[...]))
    }

    func testAWatchedWaitKeepsWhatArrivesForAfterTheAnswerAndCountsAClientThatLeavesAsAbandoned() throws {
        var machine = started()
        let slow = try readRequest(&machine, "GET /images/slow/10000/a.jpg HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(machine.routed(.wait(.seconds(10), watchingForClose: true)), .awaitReadable(timeout: .seconds(10)))
        XCTAssertEqual(machine.bytesRead(bytes("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")), .keepWaiting)
        XCTAssertEqual(machine.timerFired(), .route(slow, afterWait: true))
        XCTAssertEqual(machine.routed(.send(bytes("picture"), keepAlive: true)), .write(bytes("picture")[...]))
        guard case .countHead(let pipelined) = machine.outputFlushed() else { return XCTFail("the pipelined request was dropped") }
        XCTAssertEqual(pipelined.target, "/x")

        var left = started()
        _ = try readRequest(&left, "GET /images/slow/10000/a.jpg HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = left.routed(.wait(.seconds(10), watchingForClose: true))
        XCTAssertEqual(left.endOfStream(), .abandon)

        var flooding = started()
        _ = try readRequest(&flooding, "GET /images/slow/10000/a.jpg HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = flooding.routed(.wait(.seconds(10), watchingForClose: true))
        let limit = configuration.maxHeaderBytes + configuration.maxBodyBytes
        XCTAssertEqual(flooding.bytesRead([UInt8](repeating: 0x41, count: limit)), .keepWaiting)
        XCTAssertEqual(flooding.bytesRead([0x41]), .close, "more than one request's limits while waiting")

        var reset = started()
        _ = try readRequest(&reset, "GET /images/slow/10000/a.jpg HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = reset.routed(.wait(.seconds(10), watchingForClose: true))
        XCTAssertEqual(reset.readFailed(), .abandon)
    }

    func testAStreamWritesOneBlockAtATimeOnlyOnceTheOneBeforeIsOut() throws {
        var machine = started()
        _ = try readRequest(&machine, "GET /bytes/150000 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(machine.routed(.stream(head: bytes("HEAD"), bodyBytes: 150_000, keepAlive: true)), .write(bytes("HEAD")[...]))
        var body: [UInt8] = []
        var next = machine.outputFlushed()
        while case .write(let block) = next {
            XCTAssertLessThanOrEqual(block.count, 65_536)
            body += block
            XCTAssertEqual(machine.outputBlocked(), .awaitWritable(timeout: .seconds(3)), "the next block waits for this one")
            next = machine.outputFlushed()
        }
        XCTAssertEqual(next, .awaitReadable(timeout: .seconds(7)))
        XCTAssertEqual(body.count, 150_000)
        XCTAssertTrue(body.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset) })
    }

    func testAnEmptyStreamSendsItsHeadOnly() throws {
        var machine = started()
        _ = try readRequest(&machine, "GET /bytes/0 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(machine.routed(.stream(head: bytes("HEAD"), bodyBytes: 0, keepAlive: false)), .write(bytes("HEAD")[...]))
        XCTAssertEqual(machine.outputFlushed(), .close)
    }

    func testADripWritesOneByteEachInterval() throws {
        var machine = started()
        _ = try readRequest(&machine, "GET /drip HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(machine.routed(.drip(head: bytes("HEAD"), interval: .milliseconds(20), bytes: 3, keepAlive: true)), .write(bytes("HEAD")[...]))
        for _ in 0..<3 {
            XCTAssertEqual(machine.outputFlushed(), .awaitTimer(.milliseconds(20)))
            XCTAssertEqual(machine.timerFired(), .write(bytes(".")[...]))
        }
        XCTAssertEqual(machine.outputFlushed(), .awaitReadable(timeout: .seconds(7)))
    }

    func testHangDropsWhatArrivesAndClosesWhenTheClientDoes() throws {
        var machine = started()
        _ = try readRequest(&machine, "GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(machine.routed(.hang), .awaitReadable(timeout: nil))
        XCTAssertEqual(machine.bytesRead(bytes("anything")), .keepWaiting)
        XCTAssertEqual(machine.endOfStream(), .close)
    }

    func testCloseAndResetPlans() throws {
        var dropped = started()
        _ = try readRequest(&dropped, "GET /drop HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(dropped.routed(.close), .close)

        var reset = started()
        _ = try readRequest(&reset, "GET /reset HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(reset.routed(.reset), .reset)
    }
}
