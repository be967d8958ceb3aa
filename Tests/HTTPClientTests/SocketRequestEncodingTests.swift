import Foundation
@testable import HTTPClient
import XCTest

/// The request head `SocketRequestEncoding` writes: its order, the fields the client owns, and
/// values that cannot break a line.
final class SocketRequestEncodingTests: XCTestCase {
    private func head(_ request: HTTPClientRequest, framing: SocketRequestEncoding.BodyFraming = .length(0),
                      acceptsCompression: Bool = true) throws -> (text: String, asksToClose: Bool) {
        let target = try SocketRequestTarget.read(request.url).get()
        let head = SocketRequestEncoding.head(request, target: target, framing: framing, acceptsCompression: acceptsCompression)
        return (String(decoding: head.bytes, as: UTF8.self), head.asksToClose)
    }

    func testAHeadIsWrittenIntoTheStorageOfTheBufferItReuses() throws {
        let request = HTTPClientRequest(url: URL(string: "http://api.test/feed")!)
        let target = try SocketRequestTarget.read(request.url).get()
        let fresh = SocketRequestEncoding.head(request, target: target, framing: .length(0), acceptsCompression: true).bytes
        var spare = Array("a request before, written out already".utf8)
        spare.reserveCapacity(1_024)
        let storage = spare.withUnsafeBufferPointer { $0.baseAddress.map { Int(bitPattern: $0) } }
        let reused = SocketRequestEncoding.head(request, target: target, framing: .length(0), acceptsCompression: true,
                                                reusing: consume spare).bytes
        XCTAssertEqual(reused, fresh, "the same head, none of the old bytes")
        XCTAssertEqual(reused.withUnsafeBufferPointer { $0.baseAddress.map { Int(bitPattern: $0) } }, storage,
                       "written into the buffer given, not a new one")
    }

    func testAGetIsWrittenInOrderWithHostFirstAndTheClientsFieldsLast() throws {
        var request = HTTPClientRequest(url: URL(string: "http://api.test:8080/a/b?c=d")!, method: "get")
        request.headers.add(name: "Via", value: "1.1 edge")
        request.headers.add(name: "Content-Length", value: "99")
        request.headers.add(name: "Via", value: "1.1 origin")
        let (text, asksToClose) = try head(request)
        XCTAssertEqual(text, "GET /a/b?c=d HTTP/1.1\r\nHost: api.test:8080\r\nVia: 1.1 edge\r\nVia: 1.1 origin\r\n"
                           + "Accept-Encoding: gzip, deflate\r\n\r\n")
        XCTAssertFalse(asksToClose)
    }

    func testABodyIsFramedByTheClientAndACallersEncodingIsKept() throws {
        let request = HTTPClientRequest(url: URL(string: "http://api.test/")!, method: "POST",
                                        headers: ["Accept-Encoding": "identity", "Transfer-Encoding": "gzip", "Connection": "Keep-Alive, Close"])
        let (text, asksToClose) = try head(request, framing: .length(5))
        XCTAssertEqual(text, "POST / HTTP/1.1\r\nHost: api.test\r\nAccept-Encoding: identity\r\nConnection: Keep-Alive, Close\r\n"
                           + "Content-Length: 5\r\n\r\n")
        XCTAssertTrue(asksToClose)
        let chunked = try head(HTTPClientRequest(url: URL(string: "http://api.test/")!, method: "PUT"), framing: .chunked,
                               acceptsCompression: false)
        XCTAssertEqual(chunked.text, "PUT / HTTP/1.1\r\nHost: api.test\r\nTransfer-Encoding: chunked\r\n\r\n")
        let empty = try head(HTTPClientRequest(url: URL(string: "http://api.test/")!, method: "POST"), acceptsCompression: false)
        XCTAssertEqual(empty.text, "POST / HTTP/1.1\r\nHost: api.test\r\nContent-Length: 0\r\n\r\n")
    }

    /// A value holding CR LF (one `Character`) must not start a field of its own on the wire.
    func testLineBreaksInAValueBecomeSpacesAndANameThatIsNoTokenIsDropped() throws {
        var request = HTTPClientRequest(url: URL(string: "http://api.test/")!)
        request.headers.add(name: "X-Note", value: "a\r\nInjected: 1\rb\nc")
        request.headers.add(name: "Bad Name", value: "x")
        let (text, _) = try head(request, acceptsCompression: false)
        XCTAssertEqual(text, "GET / HTTP/1.1\r\nHost: api.test\r\nX-Note: a  Injected: 1 b c\r\n\r\n")
    }

    /// The caller's own `Host`, `Proxy-Authorization` and `Accept-Encoding` replace the client's,
    /// framing fields of any case are the client's, and a `Connection` value is read mended.
    func testFieldsTheClientAddsAreTheCallersWhenSetInAnyCase() throws {
        var request = HTTPClientRequest(url: URL(string: "http://api.test/")!, method: "POST")
        request.headers.add(name: "host", value: "other.test")
        request.headers.add(name: "CONTENT-LENGTH", value: "1")
        request.headers.add(name: "transfer-encoding", value: "chunked")
        request.headers.add(name: "proxy-authorization", value: "Basic eDp5")
        request.headers.add(name: "accept-encoding", value: "br")
        request.headers.add(name: "Naïve", value: "x")
        request.headers.add(name: "connection", value: "close\r\n")
        let (text, asksToClose) = try head(request, framing: .length(2))
        XCTAssertEqual(text, "POST / HTTP/1.1\r\nhost: other.test\r\nproxy-authorization: Basic eDp5\r\naccept-encoding: br\r\n"
                           + "connection: close  \r\nContent-Length: 2\r\n\r\n")
        XCTAssertTrue(asksToClose)
    }
}
