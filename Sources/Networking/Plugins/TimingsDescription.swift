import HTTPClient

/// The one-line form of `HTTPClientTimings` that `NetworkLoggerPlugin` logs: each known step in
/// milliseconds from the queueing, then the bytes, the connection's reuse and, over TLS, what
/// its handshake agreed on, such as `resolved 0.2 ms, connected 0.9 ms, secured 4.1 ms, sent 4.3 ms,
/// first byte 6.4 ms, finished 6.9 ms; 120 B sent, 2048 B received, new connection to
/// 127.0.0.1:8443; TLS 1.3, TLS_AES_256_GCM_SHA384, ALPN http/1.1`.
enum TimingsDescription {
    static func line(_ timings: HTTPClientTimings) -> String {
        var parts: [String] = []
        if let queued = timings.queued {
            let steps: [(String, ContinuousClock.Instant?)] = [
                ("resolved", timings.resolved), ("connected", timings.connected), ("secured", timings.secured),
                ("sent", timings.sent), ("first byte", timings.firstByte), ("finished", timings.finished),
            ]
            for case let (name, instant?) in steps { parts.append("\(name) \(milliseconds(instant - queued)) ms") }
        }
        let reuse = timings.reusedConnection ? "reused connection" : "new connection"
        let remote = timings.remoteAddress.map { " to \($0)" } ?? ""
        return parts.joined(separator: ", ") + "; \(timings.bytesSent) B sent, \(timings.bytesReceived) B received, \(reuse)\(remote)"
            + (timings.tls.map { tls in
                "; " + ([tls.version.description, tls.cipher, tls.applicationProtocol.map { "ALPN \($0)" }].compactMap { $0 }).joined(separator: ", ")
            } ?? "")
    }

    /// `duration` in milliseconds with one decimal.
    private static func milliseconds(_ duration: Duration) -> String {
        let tenths = (duration.components.seconds * 10_000) + duration.components.attoseconds / 100_000_000_000_000
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}
