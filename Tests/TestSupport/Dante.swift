import Foundation

/// Dante (Debian's `dante-server`, `danted`), a SOCKS4 and SOCKS5 proxy, on 127.0.0.1 for the
/// SOCKS4 tests: started as a child process with a configuration of its own that lets loopback
/// clients connect anywhere without authentication and logs each tunnel it opens, kept in a
/// temporary folder, and stopped by `stop()`. `start` returns nil when Dante is not installed, so
/// the caller can skip. (microsocks, the SOCKS5 tests' proxy, speaks no SOCKS4; Dante takes no
/// SOCKS4a names.)
public final class Dante: Sendable {
    private let server: StockProcess

    /// The port it listens on.
    public var port: UInt16 { server.port }

    private init(server: StockProcess) {
        self.server = server
    }

    /// The proxy's URL with `scheme` (`socks4`), with `user` in its user info when given.
    public func url(_ scheme: String, user: String? = nil) -> String {
        "\(scheme)://\(user.map { "\($0)@" } ?? "")127.0.0.1:\(port)"
    }

    /// Starts Dante; nil when it is not installed.
    public static func start() throws -> Dante? {
        guard let program = StockTLSServer.program(["/usr/sbin/danted", "/usr/local/sbin/danted", "/opt/homebrew/sbin/sockd"]) else {
            return nil
        }
        let port = try StockTLSServer.freePort()
        let directory = try StockProcess.makeDirectory("Dante")
        let configuration = directory.appendingPathComponent("danted.conf")
        try """
            logoutput: stderr
            internal: 127.0.0.1 port = \(port)
            external: 127.0.0.1
            clientmethod: none
            socksmethod: none
            client pass {
                from: 127.0.0.0/8 to: 0.0.0.0/0
            }
            socks pass {
                from: 127.0.0.0/8 to: 0.0.0.0/0
                command: connect
                protocol: tcp
                log: connect
            }

            """.write(to: configuration, atomically: true, encoding: .utf8)
        // One child process serves every client: the log's lines then come from one writer.
        return Dante(server: try StockProcess.launch(program, ["-f", configuration.path, "-N", "1"], port: port,
                                                     directory: directory, errorLog: directory.appendingPathComponent("danted.log")))
    }

    /// The destinations of the tunnels it opened, in order, as `address:port`.
    public func tunnels() -> [String] {
        guard let log = server.directory?.appendingPathComponent("danted.log"),
              let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        // `... pass(1): tcp/connect [: client proxy -> bound 127.0.0.1.8080`: the last field is
        // the destination, its port after the last dot.
        return text.split(separator: "\n").compactMap { line in
            guard line.contains("pass("), line.contains("tcp/connect ["), let last = line.split(separator: " ").last,
                  let dot = last.lastIndex(of: ".") else { return nil }
            return "\(last[..<dot]):\(last[last.index(after: dot)...])"
        }
    }

    /// Stops Dante and removes its folder (idempotent).
    public func stop() {
        server.stop()
    }
}
