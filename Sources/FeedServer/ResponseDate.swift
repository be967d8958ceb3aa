import Foundation
import HTTPWire
import Locking

/// The `Date` field of a response made now: RFC 9110 §6.6.1 has an origin server with a clock
/// send it in every 2xx, 3xx and 4xx response (this server sends it in all but `100 Continue`).
/// Formatted once a second and shared by every connection's loop.
enum ResponseDate {
    private static let cached = Lock<(second: Int64, text: String)>((second: .min, text: ""))

    /// Now as an IMF-fixdate.
    static func now() -> String {
        let second = Int64(Date().timeIntervalSince1970.rounded(.down))
        return cached.withLock { cached in
            if cached.second != second { cached = (second, IMFFixdate.format(unixSeconds: second)) }
            return cached.text
        }
    }
}
