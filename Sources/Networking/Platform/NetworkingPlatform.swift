#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What differs for `Networking` between Linux and Apple platforms; every such difference
/// lives here, behind `#if canImport(...)`.
enum NetworkingPlatform {
    /// Whether `DefaultTransport` sends `http://` through `SocketTransport`. On Linux it does,
    /// because FoundationNetworking's URLSession stops the process on some malformed responses;
    /// Apple's URLSession has no such crash, so there every scheme goes through it.
    static var defaultTransportUsesSocketsForHTTP: Bool {
        #if canImport(Darwin)
        false
        #else
        true
        #endif
    }
}
