import HTTPWire

extension HTTPRequestHead {
    /// Whether the connection may carry another request after this one: as the client asks
    /// (`keepAlive`), unless the body's framing is suspect. RFC 9112 section 6.1: a request with
    /// both `Transfer-Encoding` and `Content-Length`, or an HTTP/1.0 one with `Transfer-Encoding`,
    /// is read by its chunked framing, but a proxy before the server may have framed it otherwise,
    /// so what follows it on the connection cannot be trusted to be a request: close after it.
    var allowsNextRequest: Bool {
        guard keepAlive else { return false }
        guard headers.fields.contains(where: { $0.name.caseInsensitiveEquals("Transfer-Encoding") }) else { return true }
        return version != .http1_0 && !headers.fields.contains { $0.name.caseInsensitiveEquals("Content-Length") }
    }
}
