@testable import SystemTLS
import Foundation
import TestSupport
import XCTest

/// `.system` trust is OpenSSL's default store, which `SSL_CERT_FILE` and `SSL_CERT_DIR`
/// replace. OpenSSL reads them when a context is made; each check runs in a child process whose
/// environment names the test CA, so nothing this process made or cached can answer for it.
final class SystemTrustStoreTests: XCTestCase {
    private static let childTest = "SystemTLSTests.SystemTrustStoreTests/testTheSystemStoreIsTheOneTheEnvironmentNames"

    /// In this process the test CA is not in the store; in a child whose `SSL_CERT_FILE` or
    /// `SSL_CERT_DIR` names it, it is.
    func testTheSystemStoreIsTheOneTheEnvironmentNames() throws {
        let environment = ProcessInfo.processInfo.environment
        let namesTheCA = environment["SSL_CERT_FILE"] == TLSFixtures.caCertificate || environment["SSL_CERT_DIR"] == TLSFixtures.caDirectory
        let client = try TLSClientContext(configuration: TLSConfiguration(trustRoots: .system))
        let connection = try TLSTestKit.connect(client, to: TLSTestKit.serverContext())
        if namesTheCA {
            XCTAssertNotNil(connection.client.handshake, "the environment's store holds the test CA")
        } else {
            guard case .untrustedChain(let reason)? = connection.client.failure else {
                return XCTFail("the system's store must not hold the test CA; got \(connection.client.events)")
            }
            XCTAssertTrue(reason.isUnknownRoot)
        }
    }

    func testSSLCertFileReplacesTheStore() throws {
        try runChild(environment: ["SSL_CERT_FILE": TLSFixtures.caCertificate, "SSL_CERT_DIR": "/nonexistent"])
    }

    func testSSLCertDirReplacesTheStore() throws {
        try runChild(environment: ["SSL_CERT_FILE": "/nonexistent", "SSL_CERT_DIR": TLSFixtures.caDirectory])
    }

    /// Runs `childTest` in this test program with `environment` added; it must run and pass.
    private func runChild(environment: [String: String], file: StaticString = #filePath, line: UInt = #line) throws {
        let child = try ChildTestRun(test: Self.childTest, environment: environment)
        let text = child.output
        XCTAssertEqual(child.reason, .exit, text, file: file, line: line)
        XCTAssertEqual(child.status, 0, text, file: file, line: line)
        XCTAssertTrue(text.contains("Executed 1 test, with 0 failures"), "the child ran its one test: \(text)", file: file, line: line)
    }
}
