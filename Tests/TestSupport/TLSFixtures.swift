import Foundation
import SystemTLS
import XCTest

/// The TLS certificates and keys in `Tests/Fixtures/TLS`, made by
/// `scripts/make-tls-fixtures.sh` with the `openssl` command (see the script for what each is).
public enum TLSFixtures {
    /// The fixtures' folder.
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/TLS", isDirectory: true)
        .standardizedFileURL

    /// The path of the fixture named `name` (e.g. `"localhost.pem"`).
    public static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// The text of the fixture named `name`.
    public static func text(_ name: String) throws -> String {
        try String(contentsOfFile: path(name), encoding: .utf8)
    }

    /// The test CA's certificate, which signs every server certificate but `self-signed.pem`.
    public static var caCertificate: String { path("ca.pem") }
    /// A folder holding the CA as `SSL_CERT_DIR` wants it (named by its subject hash).
    public static var caDirectory: String { path("ca-dir") }

    /// A server presenting the fixture `name` (`localhost`, `expired`, ...) with its key.
    public static func server(_ name: String = "localhost") -> TLSServerConfiguration {
        TLSServerConfiguration(certificateChain: .pemFile(path("\(name).pem")), privateKey: .pemFile(path("\(name).key")))
    }

    /// A client that trusts the test CA and nothing else, verifying fully.
    public static var client: TLSConfiguration {
        TLSConfiguration(trustRoots: .pemFile(caCertificate))
    }

    /// Skips the calling test, saying why, where the system's TLS library does not load.
    public static func skipUnlessTLSLoads() throws {
        do throws(TLSFailure) {
            try TLSLibrary.load()
        } catch {
            throw XCTSkip("no TLS library loads here: \(error)")
        }
    }
}
