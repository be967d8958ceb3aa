import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPClient

/// `URLSessionConfiguration.connectionProxyDictionary` read as Apple's URLSession reads it, for
/// `SocketTransport(configuration:)`: CFNetwork's keys (`HTTPEnable`, `HTTPProxy`, `HTTPPort`, the
/// same with `HTTPS` and `SOCKS`, `ExceptionsList`) become the client's proxy setting: the SOCKS
/// keys a `socks5h://` proxy for each scheme without an HTTP proxy of its own. Nil keeps the
/// environment's proxies (curl's variables, which URLSession on Linux honours through libcurl);
/// a dictionary replaces them, so one that enables no proxy sends everything direct.
enum ConnectionProxyDictionary {
    /// The client's proxy setting for `dictionary`.
    static func proxy(_ dictionary: [AnyHashable: Any]?) -> HTTPClient.Configuration.Proxy {
        guard let dictionary else { return .environment() }
        var variables: [String: String] = [:]
        variables["http_proxy"] = endpoint(dictionary, enable: "HTTPEnable", host: "HTTPProxy", port: "HTTPPort")
        variables["https_proxy"] = endpoint(dictionary, enable: "HTTPSEnable", host: "HTTPSProxy", port: "HTTPSPort")
        variables["all_proxy"] = endpoint(dictionary, enable: "SOCKSEnable", host: "SOCKSProxy", port: "SOCKSPort").map { "socks5h://" + $0 }
        if let exceptions = dictionary["ExceptionsList"] as? [String] {
            // CFNetwork's `*.example.com` is curl's `.example.com`; its `*` in a list is every host,
            // which curl's `*` is only as the whole value.
            variables["no_proxy"] = exceptions.contains("*") ? "*"
                : exceptions.map { $0.hasPrefix("*.") ? String($0.dropFirst()) : $0 }.joined(separator: ",")
        }
        return .environment(ProxyEnvironment(variables))
    }

    /// `host:port` of the proxy the keys name when `enable` is on (a `Bool` or a number); an
    /// IPv6 address in brackets.
    private static func endpoint(_ dictionary: [AnyHashable: Any], enable: String, host: String, port: String) -> String? {
        guard number(dictionary[enable]).map({ $0 != 0 }) ?? false,
              let given = dictionary[host] as? String, !given.isEmpty else { return nil }
        let name = given.contains(":") && !given.hasPrefix("[") ? "[\(given)]" : given
        return number(dictionary[port]).map { "\(name):\($0)" } ?? name
    }

    private static func number(_ value: Any?) -> Int? {
        switch value {
        case let flag as Bool: flag ? 1 : 0
        case let integer as Int: integer
        case let number as NSNumber: number.intValue
        case let text as String: Int(text)
        default: nil
        }
    }
}
