@testable import SystemTLS
import XCTest

/// The system's OpenSSL, opened at run time, and what happens when a library is missing or
/// is not OpenSSL.
final class LibraryLoadingTests: XCTestCase {
    func testTheSystemsOpenSSLLoads() throws {
        try TLSLibrary.load()
        let version = try XCTUnwrap(TLSLibrary.version)
        XCTAssertTrue(version.hasPrefix("OpenSSL "), version)
        XCTAssertEqual(OpenSSL.libraryFiles.map(\.ssl), ["libssl.so.3", "libssl.so.1.1"])
    }

    func testLibrariesThatAreNotThereAreNamedInTheError() {
        let files = [(ssl: "libssl.so.0.9.7-not-here", crypto: "libcrypto.so.0.9.7-not-here")]
        guard case .failure(.unavailable(let error)) = OpenSSL.load(from: files) else { return XCTFail("nothing should load") }
        XCTAssertEqual(error.filesLookedFor, ["libssl.so.0.9.7-not-here", "libcrypto.so.0.9.7-not-here"])
        XCTAssertEqual(error.reasons.count, 1)
        XCTAssertTrue(error.reasons[0].hasPrefix("libssl.so.0.9.7-not-here: "), error.reasons[0])
        XCTAssertTrue(error.description.contains("libssl.so.0.9.7-not-here, libcrypto.so.0.9.7-not-here"), error.description)
    }

    func testALibraryWithoutOpenSSLsFunctionsIsRefusedAndTheNextOneTried() throws {
        let files = [(ssl: "libc.so.6", crypto: "libc.so.6")] + OpenSSL.libraryFiles
        let loaded = try OpenSSL.load(from: files).get()
        XCTAssertGreaterThan(loaded.OpenSSL_version_num(), 0x1010_1000, "OpenSSL 1.1.1 or later")
        guard case .failure(.unavailable(let error)) = OpenSSL.load(from: [(ssl: "libc.so.6", crypto: "libc.so.6")]) else { return XCTFail("libc is not OpenSSL") }
        XCTAssertEqual(error.reasons, ["libc.so.6: no symbol OpenSSL_version_num (OpenSSL 1.1.1 or later is needed)"])
    }

    func testPackedErrorCodesSplitIntoLibraryAndReason() throws {
        let api = try OpenSSL.loaded()
        // SSL_R_CERTIFICATE_VERIFY_FAILED (134) of ERR_LIB_SSL (20), packed as the loaded version packs it.
        let code: UInt = api.packsErrorsAsVersion3 ? (20 << 23) | 134 : (20 << 24) | 134
        let error = api.error(code)
        XCTAssertEqual(error.library, OpenSSLConstants.errLibSSL)
        XCTAssertEqual(error.reason, OpenSSLConstants.sslReasonCertificateVerifyFailed)
        XCTAssertTrue(error.description.contains("certificate verify failed"), error.description)
    }

    func testAlertsAreNamedAsTheRFCsNameThem() {
        XCTAssertEqual(TLSAlert(code: 40).description, "handshake_failure (40)")
        XCTAssertEqual(TLSAlert.noApplicationProtocol.name, "no_application_protocol")
        XCTAssertEqual(TLSAlert(code: 200).name, "alert 200")
        XCTAssertEqual(TLSAlert(code: 48), .unknownCA)
    }
}
