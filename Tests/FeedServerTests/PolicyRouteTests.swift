import FeedServer
import Foundation
import HTTPWire
import TestSupport
import XCTest

/// `/redirect/{status}/{n}` and `/bomb/{n}`, read with the raw client: the chain's `Location`s
/// and a compressed body that is valid to its checksums (HTTPWire's inflater checks them).
final class PolicyRouteTests: FeedServerTestCase {
    private var server: FeedServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        server = try makeServer()
    }

    func testRedirectChainsToEcho() throws {
        let first = try get(server, "/redirect/308/2")
        XCTAssertEqual(first.head.status, 308)
        XCTAssertEqual(first.head.headers["Location"], "/redirect/308/1")
        XCTAssertEqual(try get(server, "/redirect/308/1").head.headers["Location"], "/echo")
        XCTAssertEqual(try get(server, "/redirect/200/1").head.status, 400)
        XCTAssertEqual(try get(server, "/redirect/302/0").head.status, 400)
    }

    func testBombDecodesToZerosInBothCodings() throws {
        for (coding, count) in [("gzip", 1), ("gzip", 258), ("gzip", 259), ("gzip", 3_000_001), ("deflate", 1_000), ("deflate", 2_000_000)] {
            let response = try get(server, "/bomb/\(count)?coding=\(coding)")
            XCTAssertEqual(response.head.status, 200)
            XCTAssertEqual(response.head.headers["Content-Encoding"], coding)
            let decoded = try Inflater.decode(response.body, coding: coding == "gzip" ? .gzip : .deflate, limit: .max)
            XCTAssertEqual(decoded.count, count, coding)
            XCTAssertTrue(BulkBytes.all(0, in: decoded), coding)
            if count > 1_000_000 { XCTAssertLessThan(response.body.count * 150, count, "a bomb: \(response.body.count) bytes") }
        }
        XCTAssertEqual(try get(server, "/bomb/10?coding=br").head.status, 400)
    }
}
