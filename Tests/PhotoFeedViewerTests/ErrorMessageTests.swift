import Foundation
import EventLoopIO
import Networking
import PhotoFeed
import PhotoFeedViewerCore
import Reactive
import TestSupport
import XCTest

final class ErrorMessageTests: LeakCheckingTestCase {
    func testConnectionFailuresNameTheHost() {
        XCTAssertEqual(ErrorMessage.text(for: APIError.internetConnection(URLError(.cannotConnectToHost)), host: "127.0.0.1:9"),
                       "No internet connection (could not reach 127.0.0.1:9).")
        XCTAssertEqual(ErrorMessage.text(for: APIError.internetConnection(URLError(.networkConnectionLost)), host: "h:1"),
                       "The network connection was lost (while talking to h:1).")
        XCTAssertEqual(ErrorMessage.text(for: APIError.internetConnection(URLError(.notConnectedToInternet)), host: nil),
                       "No internet connection.")
    }

    /// A refused connection to a loopback port, over a real socket: the classified error names
    /// the address already, so the host is not repeated after it.
    func testARefusedLoopbackPortNamesTheAddressOnce() throws {
        let listener = try TCPSocket.listen()
        let port = try listener.localPort()
        listener.close()
        let baseURL = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/"))
        let store = PhotoFeedStore(provider: NetworkProvider<FlickrAPI>(endpointClosure: FlickrAPI.endpointClosure(baseURL: baseURL),
                                                                        transport: SocketTransport()))
        let failures = Recorder<any Error>()
        let subscription = store.load().subscribe(onFailure: { failures.append($0) })
        defer { subscription.dispose() }
        XCTAssertTrue(waitUntil(timeout: 10) { failures.count == 1 })
        let error = try XCTUnwrap(failures.values.first as? APIError)
        let text = ErrorMessage.text(for: error, host: "127.0.0.1:\(port)")
        XCTAssertTrue(text.hasPrefix("Could not connect to 127.0.0.1:\(port)"), text)
        XCTAssertEqual(text.components(separatedBy: "127.0.0.1").count, 2, "the address appears once: \(text)")
    }

    func testTimeoutsStatusesAndEmptyBodies() {
        XCTAssertEqual(ErrorMessage.text(for: APIError.requestTimeout(URLError(.timedOut)), host: "h"), "The request timed out.")
        XCTAssertEqual(ErrorMessage.text(for: APIError.restError(TestError(), statusCode: 404, errorCode: nil), host: "h"),
                       "Client error (404 Not Found)")
        XCTAssertEqual(ErrorMessage.text(for: APIError.empty, host: "h"), "The server returned no data.")
    }

    func testAnAnswerThatIsNotAFeedSaysWhereItBroke() {
        XCTAssertEqual(ErrorMessage.text(for: PhotoFeedError.decoding(path: "items[2].link", reason: "missing key \"link\""), host: "h"),
                       "The answer is not a photo feed. The feed could not be decoded at items[2].link: missing key \"link\"")
    }

    func testAnyOtherErrorIsStillASentence() {
        struct Odd: Error {}
        XCTAssertTrue(ErrorMessage.text(for: Odd(), host: nil).hasPrefix("The request failed: "))
    }
}
