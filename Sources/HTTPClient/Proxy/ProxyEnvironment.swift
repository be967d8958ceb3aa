import Foundation

/// The proxy settings of a process's environment, read as curl reads them: `http_proxy` (lower
/// case only, as curl, against httpoxy), `https_proxy` / `HTTPS_PROXY`, `all_proxy` /
/// `ALL_PROXY` for either scheme when its own is unset, and `no_proxy` / `NO_PROXY` (lower case
/// first) for hosts that go direct. A value type: `proxy(for:)` is a pure decision.
///
/// ```swift
/// let environment = ProxyEnvironment(["https_proxy": "http://proxy:3128", "no_proxy": ".internal,10.0.0.0/8"])
/// environment.proxy(for: URL(string: "https://api.example.com/")!)   // proxy:3128
/// ```
public struct ProxyEnvironment: Sendable, Equatable {
    /// The proxy for `http://` URLs.
    public let http: ProxyEndpoint?
    /// The proxy for `https://` URLs.
    public let https: ProxyEndpoint?
    let bypass: [NoProxyRule]
    /// Whether `bypass` has an address or range (only then is a host read as an address).
    private let hasNetworks: Bool

    /// The settings in `variables` (the process's environment by default).
    public init(_ variables: [String: String] = ProcessInfo.processInfo.environment) {
        func first(_ names: String...) -> String? {
            names.lazy.compactMap { variables[$0] }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
        let all = first("all_proxy", "ALL_PROXY")
        http = (first("http_proxy") ?? all).flatMap(ProxyEndpoint.init)
        https = (first("https_proxy", "HTTPS_PROXY") ?? all).flatMap(ProxyEndpoint.init)
        bypass = first("no_proxy", "NO_PROXY").map(NoProxyRule.rules) ?? []
        hasNetworks = bypass.contains { if case .network = $0.pattern { true } else { false } }
    }

    /// The proxy a request to `url` goes through, nil when it goes direct (no proxy for its
    /// scheme, or `no_proxy` covers its host and port).
    public func proxy(for url: URL) -> ProxyEndpoint? {
        let scheme = url.scheme?.lowercased()
        guard scheme == "https" || scheme == "http", var host = url.host else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return proxy(secure: scheme == "https", host: host, port: url.port ?? (scheme == "https" ? 443 : 80))
    }

    /// The proxy for a request to `host` (no brackets) on `port`, `secure` for `https`; nil when it
    /// goes direct. The client's decision, on the host and port it has read from the URL already.
    func proxy(secure: Bool, host: String, port: Int) -> ProxyEndpoint? {
        guard let proxy = secure ? https : http else { return nil }
        guard !bypass.isEmpty else { return proxy }
        // Lower-cased only when it has upper-case letters; read as an address once, for the ranges.
        let host = host.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) ? host.lowercased() : host
        let address = hasNetworks ? IPAddressBytes.parse(host) : nil
        return bypass.contains { $0.matches(host: host, address: address, port: port) } ? nil : proxy
    }
}
