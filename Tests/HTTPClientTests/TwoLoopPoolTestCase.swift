import EventLoopIO
@testable import HTTPClient

/// A test case with a pool of one connection a host and two event loops of its own, made before
/// each test; the pool's idle connections are closed after it.
class TwoLoopPoolTestCase: HTTPClientTestCase {
    var group: EventLoopGroup!
    var pool: ConnectionPool!

    override func setUpWithError() throws {
        try super.setUpWithError()
        group = try EventLoopGroup(count: 2, label: String(describing: type(of: self)))
        pool = ConnectionPool(limit: 1)
    }

    override func tearDown() {
        pool?.closeIdleConnections()
        pool = nil
        group = nil
        super.tearDown()
    }
}
