import Foundation

/// tinyproxy (Debian's `tinyproxy`) on 127.0.0.1 for the proxy tests, started as a child process
/// in the foreground (`tinyproxy -d -c file`) with a configuration of its own in a temporary
/// folder, and stopped by `stop()`. It forwards plain `http` requests (adding its `Via` field)
/// and opens `CONNECT` tunnels to the ports it is told; it logs every request it is sent
/// (`requests()`). `start` returns nil when tinyproxy is not installed, so the caller can skip.
public final class TinyProxy: Sendable {
    private let server: StockProcess

    /// The port it listens on.
    public var port: UInt16 { server.port }

    private init(server: StockProcess) {
        self.server = server
    }

    /// The proxy's URL, with `user` and `password` in its user info when given.
    public func url(user: String? = nil, password: String? = nil) -> String {
        let credentials = user.map { "\($0):\(password ?? "")@" } ?? ""
        return "http://\(credentials)127.0.0.1:\(port)"
    }

    /// Starts tinyproxy allowing `CONNECT` to `connectPorts` only (none: every port), and
    /// requiring `credentials` (`BasicAuth`) when given; nil when tinyproxy is not installed.
    public static func start(connectPorts: [UInt16] = [], credentials: (user: String, password: String)? = nil) throws -> TinyProxy? {
        guard let program = StockTLSServer.program(["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy", "/usr/local/bin/tinyproxy",
                                                    "/opt/homebrew/bin/tinyproxy"]) else { return nil }
        let port = try StockTLSServer.freePort()
        let directory = try StockProcess.makeDirectory("TinyProxy")
        var lines = [
            "Port \(port)",
            "Listen 127.0.0.1",
            "Allow 127.0.0.1",
            "Timeout 30",
            "MaxClients 200",
            "LogLevel Connect",
            "LogFile \"\(directory.path)/tinyproxy.log\"",
            "PidFile \"\(directory.path)/tinyproxy.pid\"",
        ]
        lines += connectPorts.map { "ConnectPort \($0)" }
        if let credentials { lines.append("BasicAuth \(credentials.user) \(credentials.password)") }
        let file = directory.appendingPathComponent("tinyproxy.conf")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return TinyProxy(server: try StockProcess.launch(program, ["-d", "-c", file.path], port: port, directory: directory))
    }

    /// The request lines tinyproxy logged, in order (`GET http://127.0.0.1:8080/echo HTTP/1.1`,
    /// `CONNECT localhost:8443 HTTP/1.1`).
    public func requests() -> [String] {
        guard let log = server.directory?.appendingPathComponent("tinyproxy.log"),
              let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "Request (file descriptor ") else { return nil }
            return line[range.upperBound...].split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Stops tinyproxy and removes its folder (idempotent).
    public func stop() {
        server.stop()
    }
}
