import EventLoopIO
import Foundation
import XCTest

/// Unix domain socket addresses and listeners: a path the system cannot hold is refused with a
/// typed error, and a listener replaces a stale file and accepts a real connection.
final class UnixSocketAddressTests: XCTestCase {
    func testAPathTooLongOrEmptyIsRefused() {
        for path in [String(repeating: "a", count: 200), ""] {
            XCTAssertThrowsError(try SocketAddress.unix(path: path)) { error in
                guard case .addressResolution(_, EAI_NONAME)? = error as? SocketError else { return XCTFail("\(error)") }
            }
        }
    }

    func testAListenerReplacesAStaleFileAndAcceptsAConnection() throws {
        let path = NSTemporaryDirectory() + "eventloopio-\(UInt32.random(in: 0...UInt32.max)).sock"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("stale".utf8)))
        let listener = try TCPSocket.listen(unixPath: path)
        defer {
            listener.close()
            TCPSocket.removeUnixSocketFile(path)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        }
        let (client, _) = try TCPSocket.startConnect(to: SocketAddress.unix(path: path))
        defer { client.close() }
        var accepted: TCPSocket?
        let deadline = ContinuousClock.now + .seconds(5)
        while accepted == nil, ContinuousClock.now < deadline {
            if case .connection(let socket) = listener.accept() { accepted = socket } else { Thread.sleep(forTimeInterval: 0.01) }
        }
        let server = try XCTUnwrap(accepted, "a connection arrived")
        server.close()
    }
}
