import Foundation

/// The proxy settings of a process's environment, read as curl reads them: `http_proxy` (lower
/// case only, as curl, against httpoxy), `https_proxy` / `HTTPS_PROXY`, `all_proxy` /
/// `ALL_PROXY` for either scheme when its own is unset, and `no_proxy` / `NO_PROXY` (lower case
/// first) for hosts that go direct. A value type: `proxy(for:)` is a pure decision.
///
/// A variable that names a proxy this client cannot use (a `socks4a://` proxy, another scheme,
/// no host) is not ignored: its scheme's requests fail with
/// `HTTPClientError.unsupportedProxy` before anything connects, as curl fails such a transfer,
/// instead of going direct past the proxy the environment asks for.
///
/// ```swift
/// let environment = ProxyEnvironment(["https_proxy": "http://proxy:3128", "no_proxy": ".internal,10.0.0.0/8"])
/// environment.proxy(for: URL(string: "https://api.example.com/")!)   // proxy:3128
/// ```
public struct ProxyEnvironment: Sendable, Equatable {
    /// What one scheme's variable says.
    enum Setting: Sendable, Equatable {
        /// No proxy: requests go direct.
        case unset
        /// Through this proxy.
        case proxy(ProxyEndpoint)
        /// A value naming no proxy this client can use, its password masked: requests fail.
        case unusable(String)

        init(_ value: String?) {
            guard let value else { self = .unset; return }
            self = ProxyEndpoint(value).map(Setting.proxy) ?? .unusable(ProxyEnvironment.masked(value))
        }
    }

    let httpSetting: Setting
    let httpsSetting: Setting
    let bypass: [NoProxyRule]

    /// The proxy for `http://` URLs; nil when none is set or the variable names one this client
    /// cannot use.
    public var http: ProxyEndpoint? { if case .proxy(let endpoint) = httpSetting { endpoint } else { nil } }
    /// The proxy for `https://` URLs; nil when none is set or the variable names one this client
    /// cannot use.
    public var https: ProxyEndpoint? { if case .proxy(let endpoint) = httpsSetting { endpoint } else { nil } }

    /// The settings in `variables` (the process's environment by default).
    public init(_ variables: [String: String] = ProcessInfo.processInfo.environment) {
        func first(_ names: String...) -> String? {
            names.lazy.compactMap { variables[$0] }.first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
        let all = first("all_proxy", "ALL_PROXY")
        httpSetting = Setting(first("http_proxy") ?? all)
        httpsSetting = Setting(first("https_proxy", "HTTPS_PROXY") ?? all)
        bypass = first("no_proxy", "NO_PROXY").map(NoProxyRule.rules) ?? []
    }

    /// The proxy a request to `url` goes through; nil when it goes direct (no proxy for its
    /// scheme, or `no_proxy` covers its host and port) and when its scheme's variable names a
    /// proxy this client cannot use (the client then fails the request).
    public func proxy(for url: URL) -> ProxyEndpoint? {
        let scheme = url.scheme?.lowercased()
        guard scheme == "https" || scheme == "http", var host = url.host else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if case .proxy(let endpoint) = route(secure: scheme == "https", host: host, port: url.effectivePort) {
            return endpoint
        }
        return nil
    }

    /// The way a request to `host` (no brackets) on `port` goes, `secure` for `https`. The
    /// client's decision, on the host and port it has read from the URL already; `no_proxy`
    /// comes first, as in curl, so a host it covers goes direct even when the proxy is unusable.
    func route(secure: Bool, host: String, port: Int) -> Setting {
        let setting = secure ? httpsSetting : httpSetting
        if case .unset = setting { return .unset }
        guard !bypass.isEmpty else { return setting }
        // Lower-cased only when it has upper-case letters; read as the address it connects to once
        // (`127.1` is 127.0.0.1, as curl normalizes it), for the addresses and ranges.
        let host = host.utf8.contains(where: { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) ? host.lowercased() : host
        let address = IPAddressBytes.host(host)
        return bypass.contains { $0.matches(host: host, address: address, port: port) } ? .unset : setting
    }

    /// `value` with the password of its user info masked (`ftp://user:***@proxy:21`), for an
    /// error that may reach a log.
    static func masked(_ value: String) -> String {
        let start = value.range(of: "://")?.upperBound ?? value.startIndex
        let authorityEnd = value[start...].firstIndex(of: "/") ?? value.endIndex
        guard let at = value[start..<authorityEnd].lastIndex(of: "@"),
              let colon = value[start..<at].firstIndex(of: ":") else { return value }
        return String(value[..<colon]) + ":***" + String(value[at...])
    }
}
