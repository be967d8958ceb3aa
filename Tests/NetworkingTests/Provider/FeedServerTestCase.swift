import FeedServer
import Foundation
import TestSupport

/// A test case with the project's loopback `FeedServer`, started before each test and stopped
/// after it, and the provider targets of its routes.
class FeedServerTestCase: LeakCheckingTestCase {
    var server: FeedServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try FeedServer()
    }

    override func tearDown() {
        server.stop()
        server = nil
        super.tearDown()
    }

    /// The target of `path` on the server.
    func route(_ path: String) -> ServerRoute {
        ServerRoute(baseURL: server.baseURL, path: path)
    }
}
