import Foundation
import Networking
import PhotoFeed
import PhotoFeedViewerCore
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
