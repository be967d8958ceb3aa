import Foundation
import HTTPClient
import XCTest

/// Reading the fields the test server's `/echo` says it received (the proxy tests check what a
/// proxy added or took away).
extension HTTPClientTestCase {
    /// The fields `/echo` received, from its JSON answer.
    func echoedHeaders(_ response: HTTPClientResponse) throws -> [String: String] {
        let echoed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return try XCTUnwrap(echoed["headers"] as? [String: String])
    }

    /// The value of field `name` in `headers`, its name matched without case.
    func header(_ name: String, in headers: [String: String]) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
