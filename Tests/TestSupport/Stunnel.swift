import Foundation

/// stunnel (Debian's `stunnel4`) on 127.0.0.1: TLS in front of another local server the test
/// started (tinyproxy), with a certificate from `Tests/Fixtures/TLS` (the test CA's `localhost`
/// one by default), so that the pair is an HTTPS proxy as curl means one: TLS to the proxy, HTTP
/// inside. Started in the foreground with a configuration of its own in a temporary folder, and
/// stopped by `stop()`; its log says which handshakes resumed a session (`resumptions()`). `start`
/// returns nil when stunnel is not installed, so the caller can skip.
public final class Stunnel: Sendable {
    private let server: StockProcess

    /// The port it listens on.
    public var port: UInt16 { server.port }

    private init(server: StockProcess) {
        self.server = server
    }

    /// Its URL as an HTTPS proxy (`https://localhost:port`), with `user` and `password` in its
    /// user info when given, and `host` for another name of 127.0.0.1.
    public func url(host: String = "localhost", user: String? = nil, password: String? = nil) -> String {
        let credentials = user.map { "\($0):\(password ?? "")@" } ?? ""
        return "https://\(credentials)\(host):\(port)"
    }

    /// Starts stunnel serving `certificate` (a fixture's name) and relaying each connection to
    /// 127.0.0.1:`backend`; nil when stunnel is not installed.
    public static func start(inFrontOf backend: UInt16, certificate: String = "localhost") throws -> Stunnel? {
        guard let program = StockTLSServer.program(["/usr/bin/stunnel4", "/usr/bin/stunnel", "/usr/local/bin/stunnel",
                                                    "/opt/homebrew/bin/stunnel"]) else { return nil }
        let port = try StockTLSServer.freePort()
        let directory = try StockProcess.makeDirectory("Stunnel")
        let configuration = directory.appendingPathComponent("stunnel.conf")
        try """
            foreground = yes
            pid =
            debug = info
            output = \(directory.path)/stunnel.log
            [proxy]
            accept = 127.0.0.1:\(port)
            connect = 127.0.0.1:\(backend)
            cert = \(TLSFixtures.path("\(certificate).pem"))
            key = \(TLSFixtures.path("\(certificate).key"))

            """.write(to: configuration, atomically: true, encoding: .utf8)
        return Stunnel(server: try StockProcess.launch(program, [configuration.path], port: port, directory: directory))
    }

    /// For each TLS handshake it accepted, in order, whether it resumed an earlier session.
    public func resumptions() -> [Bool] {
        guard let log = server.directory?.appendingPathComponent("stunnel.log"),
              let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            if line.hasSuffix("TLS accepted: previous session reused") { return true }
            if line.hasSuffix("TLS accepted: new session negotiated") { return false }
            return nil
        }
    }

    /// Stops stunnel and removes its folder (idempotent).
    public func stop() {
        server.stop()
    }
}
