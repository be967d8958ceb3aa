import Foundation

/// microsocks (Debian's `microsocks`), a SOCKS5 proxy, on 127.0.0.1 for the SOCKS tests: started
/// as a child process, with user and password (RFC 1929) required when given, its log (one line
/// for each tunnel it opens, naming the destination as the client sent it) kept in a temporary
/// folder, and stopped by `stop()`. `start` returns nil when microsocks is not installed, so the
/// caller can skip.
public final class MicroSocks: Sendable {
    private let server: StockProcess

    /// The port it listens on.
    public var port: UInt16 { server.port }

    private init(server: StockProcess) {
        self.server = server
    }

    /// The proxy's URL with `scheme` (`socks5` or `socks5h`), with `user` and `password` in its
    /// user info when given.
    public func url(_ scheme: String, user: String? = nil, password: String? = nil) -> String {
        let credentials = user.map { "\($0):\(password ?? "")@" } ?? ""
        return "\(scheme)://\(credentials)127.0.0.1:\(port)"
    }

    /// Starts microsocks, requiring `credentials` when given; nil when it is not installed.
    public static func start(credentials: (user: String, password: String)? = nil) throws -> MicroSocks? {
        guard let program = StockTLSServer.program(["/usr/bin/microsocks", "/usr/local/bin/microsocks",
                                                    "/opt/homebrew/bin/microsocks"]) else { return nil }
        let port = try StockTLSServer.freePort()
        let directory = try StockProcess.makeDirectory("MicroSocks")
        let arguments = ["-i", "127.0.0.1", "-p", "\(port)"] + (credentials.map { ["-u", $0.user, "-P", $0.password] } ?? [])
        return MicroSocks(server: try StockProcess.launch(program, arguments, port: port, directory: directory,
                                                          errorLog: directory.appendingPathComponent("microsocks.log")))
    }

    /// The destinations of the tunnels it opened, in order, as the clients named them
    /// (`localhost:8443` for a name, `127.0.0.1:8443` for an address).
    public func tunnels() -> [String] {
        guard let log = server.directory?.appendingPathComponent("microsocks.log"),
              let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            line.range(of: "connected to ").map { String(line[$0.upperBound...]) }
        }
    }

    /// Stops microsocks and removes its folder (idempotent).
    public func stop() {
        server.stop()
    }
}
