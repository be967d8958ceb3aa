import FeedServer
import Foundation
import Networking
import TestSupport

/// A test case with the project's loopback `FeedServer`, started before each test and stopped
/// after it, and the provider targets of its routes.
class FeedServerTestCase: LeakCheckingTestCase {
    var server: FeedServer!

    /// The server's settings; override to change them.
    var serverConfiguration: FeedServer.Configuration { FeedServer.Configuration() }

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try FeedServer(configuration: serverConfiguration)
    }

    override func tearDown() {
        server?.stop()
        server = nil
        super.tearDown()
    }

    /// The target of `path` on the server, sent with `method` and `task`.
    func route(_ path: String, method: HTTPMethod = .get, task: RequestTask = .requestPlain) -> ServerRoute {
        ServerRoute(baseURL: server.baseURL, path: path, method: method, task: task)
    }
}
