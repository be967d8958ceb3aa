import Foundation
import PhotoFeedViewerCore
import TestSupport
import XCTest

/// `photo-feed --demo --tls` carries the fixtures as text (`scripts/make-tls-fixtures.sh` writes
/// both): what it embeds must be what the fixtures are, or a regenerated set would leave the
/// demo serving a certificate its own CA never signed.
final class DemoCertificateTests: XCTestCase {
    func testTheEmbeddedCertificateKeyAndCAAreTheFixtures() throws {
        XCTAssertEqual(DemoCertificate.certificate, try TLSFixtures.text("localhost.pem").trimmingCharacters(in: .newlines))
        XCTAssertEqual(DemoCertificate.privateKey, try TLSFixtures.text("localhost.key").trimmingCharacters(in: .newlines))
        XCTAssertEqual(DemoCertificate.authority, try TLSFixtures.text("ca.pem").trimmingCharacters(in: .newlines))
    }
}
