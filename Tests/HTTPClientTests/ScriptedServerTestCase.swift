import Foundation
import HTTPClient
import TestSupport
import XCTest

/// A test case of `client` (no proxy, 5 s timeouts) against servers it scripts: each
/// `ScriptedHTTPServer` or `ThreadedListener` handed to `keep` is stopped in `tearDown`, after the
/// client's idle connections are closed. `second` is the answer such tests give a follow-up
/// `GET /second`, to see which connection it went on.
class ScriptedServerTestCase: XCTestCase {
    var client: HTTPClient!
    private var servers: [ScriptedHTTPServer] = []
    private var listeners: [ThreadedListener] = []

    /// The `200` a scripted origin gives to `/second`.
    static let second = Array("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond".utf8)

    override func setUp() {
        super.setUp()
        client = HTTPClient(configuration: .init(connectTimeout: .seconds(5), idleTimeout: .seconds(5), proxy: .none))
    }

    override func tearDown() {
        // Closed first, so that the servers' connection threads see the end at once.
        client?.closeIdleConnections()
        client = nil
        for server in servers { server.stop() }
        for listener in listeners { listener.stop() }
        servers = []
        listeners = []
        super.tearDown()
    }

    /// `server`, stopped in `tearDown`.
    @discardableResult
    func keep(_ server: ScriptedHTTPServer) -> ScriptedHTTPServer {
        servers.append(server)
        return server
    }

    /// `listener`, stopped in `tearDown`.
    @discardableResult
    func keep(_ listener: ThreadedListener) -> ThreadedListener {
        listeners.append(listener)
        return listener
    }

    /// Runs `request` on `client` and waits, bounded, for its one answer.
    func execute(_ request: HTTPClientRequest) throws -> Result<HTTPClientResponse, HTTPClientError> {
        try HTTPClientTestCase.executeWithCompletion(request, on: client)
    }
}
