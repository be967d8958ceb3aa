extension HTTPClient.Configuration {
    /// Which proxy requests go through. Through an HTTP proxy, plain `http` goes in absolute form
    /// on a connection to the proxy (pooled per proxy) and `https` through a `CONNECT` tunnel with
    /// TLS to the origin inside (pooled per proxy and origin), with `Proxy-Authorization: Basic`
    /// from the proxy URL's user info; through an HTTPS proxy (`https://`) the same inside TLS to
    /// the proxy (its certificate verified against its name with `tls`), `https` then with a
    /// second TLS, to the origin, inside it; through a SOCKS one (`socks5://`, `socks5h://`,
    /// `socks4://`) every request goes in a tunnel to its origin, the credentials in SOCKS's own
    /// negotiation.
    ///
    /// ```swift
    /// var configuration = HTTPClient.Configuration()                 // .environment(): curl's variables
    /// configuration.proxy = .none                                      // always direct
    /// configuration.proxy = ProxyEndpoint("http://user:pw@proxy:3128").map { .http($0) } ?? .none
    /// configuration.proxy = .environment(ProxyEnvironment(["https_proxy": "proxy:3128", "no_proxy": ".internal"]))
    /// configuration.proxy = ProxyEndpoint("socks5h://127.0.0.1:9050").map { .http($0) } ?? .none
    /// ```
    public enum Proxy: Sendable, Equatable {
        /// As the variables say, read as curl reads them (`http_proxy`, `https_proxy`,
        /// `all_proxy`, `no_proxy`): by default the process's environment when the configuration
        /// is made.
        case environment(ProxyEnvironment = ProxyEnvironment())
        /// Every request goes direct.
        case none
        /// Every `http` and `https` request goes through this proxy (HTTP, HTTPS, SOCKS5 or
        /// SOCKS4, as its `kind` says).
        case http(ProxyEndpoint)

        /// The way a request to `host` (no brackets) on `port` goes, `secure` for `https`:
        /// direct, through a proxy, or refused (the environment names a proxy this client
        /// cannot use).
        func route(secure: Bool, host: String, port: Int) -> ProxyEnvironment.Setting {
            switch self {
            case .environment(let environment): environment.route(secure: secure, host: host, port: port)
            case .none: .unset
            case .http(let endpoint): .proxy(endpoint)
            }
        }
    }
}
