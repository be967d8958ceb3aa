// `import Networking` brings Foundation, and on Linux FoundationNetworking (where `URLRequest`,
// `HTTPURLResponse` and `URLSession` live), as Alamofire brings FoundationNetworking: the public
// API is written in their types (`URL`, `Data`, `URLRequest`, `JSONDecoder`), so every file that
// uses Networking names them, and a Moya codebase had them through its own imports (UIKit's).
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif

#if canImport(Darwin)
import Darwin
import Security
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

    /// The operating system's name in a `User-Agent`.
    static var operatingSystemName: String {
        #if canImport(Darwin)
        #if os(iOS)
        "iOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(visionOS)
        "visionOS"
        #else
        "macOS"
        #endif
        #else
        "Linux"
        #endif
    }

    /// `URLSessionConfiguration.tlsMinimumSupportedProtocolVersion` as this package's version,
    /// nil where the property does not exist (FoundationNetworking has none).
    static func minimumTLSVersion(of configuration: URLSessionConfiguration) -> TLSVersion? {
        #if canImport(Darwin)
        configuration.tlsMinimumSupportedProtocolVersion == .TLSv13 ? .v1_3 : nil
        #else
        nil
        #endif
    }
}
