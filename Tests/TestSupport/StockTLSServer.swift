import EventLoopIO
import Foundation

/// A stock TLS server on 127.0.0.1 for interop tests, started as a child process and stopped by
/// `stop()`: OpenSSL's `s_server` (which answers each connection with an HTTP/1.0 status page
/// naming the session, `New` or `Reused`, or with a file holding a whole response, then sends
/// `close_notify` and closes) or nginx (HTTP/1.1, kept alive). The factories return nil when the
/// program is not installed, so the caller can skip, saying which. `OpenSSLTerminalServer` is
/// `s_server` answering what a test types.
public final class StockTLSServer: Sendable {
    private let server: StockProcess

    /// The port it listens on.
    public var port: UInt16 { server.port }

    private init(server: StockProcess) {
        self.server = server
    }

    /// Where an `openssl` command may be.
    static let opensslCandidates = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]

    /// The first of `candidates` that exists and can run, else nil.
    public static func program(_ candidates: [String]) -> String? {
        candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `openssl s_server` serving `certificate` and `key` (fixture paths), with `options` added
    /// (`-tls1_2`, `-cipher ...`); nil when no `openssl` command is installed.
    public static func opensslServer(certificate: String, key: String, options: [String] = []) throws -> StockTLSServer? {
        guard let openssl = program(opensslCandidates) else { return nil }
        let port = try freePort()
        let arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key, "-www", "-quiet", "-naccept", "1000"] + options
        return try launch(openssl, arguments, port: port, directory: nil)
    }

    /// `openssl s_server -HTTP` serving `files` (name to the whole HTTP response: head, then
    /// body) from a temporary folder: a `GET /name` gets the file as it is, then the server's
    /// `close_notify` and the end of the connection, so a body without `Content-Length` is
    /// delimited by a complete close. Nil when no `openssl` command is installed.
    public static func opensslFileServer(certificate: String, key: String, files: [String: [UInt8]]) throws -> StockTLSServer? {
        guard let openssl = program(opensslCandidates) else { return nil }
        let port = try freePort()
        let directory = try StockProcess.makeDirectory("StockTLSServer")
        for (name, bytes) in files { try Data(bytes).write(to: directory.appendingPathComponent(name)) }
        let arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate, "-key", key, "-HTTP", "-quiet", "-naccept", "1000"]
        return try launch(openssl, arguments, port: port, directory: directory)
    }

    /// nginx serving `certificate` and `key` on HTTPS with a 2 KB file at `/file.txt` (with nginx's
    /// own `ETag` and `Last-Modified`), the same at `/cached/file.txt` with `Cache-Control:
    /// max-age=60`, at `/stale/file.txt` with `max-age=0` and at `/dated/file.txt` with `max-age=0`
    /// and no `ETag`, `/text/words.txt` (`nginxText`) gzipped on the fly for a client that asks
    /// (chunked), and keep-alive, from a temporary folder, logging each request it serves
    /// (`accessLog()`); nil when nginx is not installed.
    public static func nginx(certificate: String, key: String) throws -> StockTLSServer? {
        guard let nginx = program(["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx", "/opt/homebrew/bin/nginx"]) else { return nil }
        let port = try freePort()
        let directory = try StockProcess.makeDirectory("StockTLSServer")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("www"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("logs"), withIntermediateDirectories: true)
        try Data(repeating: UInt8(ascii: "n"), count: 2_048).write(to: directory.appendingPathComponent("www/file.txt"))
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("www/text"), withIntermediateDirectories: true)
        try Data(nginxText).write(to: directory.appendingPathComponent("www/text/words.txt"))
        for folder in ["cached", "stale", "dated"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("www/\(folder)"), withIntermediateDirectories: true)
            try Data(repeating: UInt8(ascii: "c"), count: 2_048).write(to: directory.appendingPathComponent("www/\(folder)/file.txt"))
        }
        let configuration = """
        worker_processes 1;
        daemon off;
        master_process off;
        pid \(directory.path)/nginx.pid;
        error_log \(directory.path)/logs/error.log;
        events { worker_connections 1024; }
        http {
            log_format requests escape=none '$request_method $uri $status $http_if_none_match|$http_if_modified_since';
            access_log \(directory.path)/logs/access.log requests;
            client_body_temp_path \(directory.path)/body;
            proxy_temp_path \(directory.path)/proxy;
            fastcgi_temp_path \(directory.path)/fastcgi;
            uwsgi_temp_path \(directory.path)/uwsgi;
            scgi_temp_path \(directory.path)/scgi;
            keepalive_requests 100000;
            server {
                listen 127.0.0.1:\(port) ssl;
                ssl_certificate \(certificate);
                ssl_certificate_key \(key);
                location / { root \(directory.path)/www; }
                location /cached/ { root \(directory.path)/www; expires 60s; }
                location /stale/ { root \(directory.path)/www; expires 0; }
                location /dated/ { root \(directory.path)/www; expires 0; etag off; }
                location /text/ { root \(directory.path)/www; gzip on; gzip_types text/plain; gzip_min_length 1; }
            }
        }
        """
        try configuration.write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        return try launch(nginx, ["-c", directory.appendingPathComponent("nginx.conf").path, "-p", directory.path], port: port, directory: directory)
    }

    /// The text nginx serves at `/text/words.txt`: about 1.5 MB of numbered words, varied enough
    /// that gzip makes it several blocks of its own codes.
    public static let nginxText: [UInt8] = {
        let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo"]
        var text: [UInt8] = []
        var state: UInt32 = 46
        for line in 0..<30_000 {
            text += Array("\(line):".utf8)
            for _ in 0..<6 {
                state = state &* 1_103_515_245 &+ 12_345
                text += Array(" \(words[Int(state >> 16) % words.count])\(state >> 24)".utf8)
            }
            text.append(UInt8(ascii: "\n"))
        }
        return text
    }()

    /// The requests nginx has served, one line each: method, path, status, then the
    /// `If-None-Match` and `If-Modified-Since` fields it received (`-` when absent), split by `|`.
    public func accessLog() -> [String] {
        guard let directory = server.directory,
              let text = try? String(contentsOf: directory.appendingPathComponent("logs/access.log"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    /// Stops the server and removes its folder (idempotent).
    public func stop() {
        server.stop()
    }

    private static func launch(_ program: String, _ arguments: [String], port: UInt16, directory: URL?) throws -> StockTLSServer {
        StockTLSServer(server: try StockProcess.launch(program, arguments, port: port, directory: directory))
    }

    /// Whether `process` listens on `port`: once a connection is accepted (bounded: 10 s).
    static func waitUntilListening(port: UInt16, process: Process) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, process.isRunning {
            if let socket = try? TCPSocket.connect(host: "127.0.0.1", port: port, timeout: .milliseconds(200)) {
                socket.close()
                return true
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// A port nothing listens on now (the kernel's pick for a listener closed at once).
    static func freePort() throws -> UInt16 {
        let listener = try TCPSocket.listen()
        defer { listener.close() }
        return try listener.localPort()
    }
}

/// Why a stock server could not be used.
public enum StockServerError: Error, Equatable {
    /// The program ran but never accepted a connection on its port.
    case didNotStart(String)
}
