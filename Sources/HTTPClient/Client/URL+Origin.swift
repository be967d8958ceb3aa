import Foundation

extension URL {
    /// The port a request to this URL connects to: its own, else 443 for `https` and 80 for any
    /// other scheme.
    package var effectivePort: Int { port ?? (scheme?.lowercased() == "https" ? 443 : 80) }

    /// Whether `other` has this URL's origin (RFC 9110 §4.3.1, RFC 6454 §4): the same scheme and
    /// host without regard to case, and the same port once an absent one is the scheme's default,
    /// so `http://h/` and `http://H:80/` are one origin.
    package func hasSameOrigin(as other: URL) -> Bool {
        guard let scheme = scheme?.lowercased(), scheme == other.scheme?.lowercased(),
              host?.lowercased() == other.host?.lowercased() else { return false }
        return effectivePort == other.effectivePort
    }
}
