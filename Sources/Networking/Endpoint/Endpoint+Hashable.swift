import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Moya's equality: two endpoints are equal when they build the same request (method, URL,
/// headers, body) and, for uploads, send the same file or the same parts. A JSON body compares
/// by its value, whatever the key order its encoder wrote (Linux's `JSONEncoder` orders keys
/// differently from call to call). An upload is compared by what it names (file URL, parts),
/// so `==` and `hash` read no file and build no body stream. Download destinations and sample
/// responses are closures and are not compared.
extension Endpoint: Equatable, Hashable {
    /// Whether both build the same request and upload the same thing.
    public static func == (lhs: Endpoint, rhs: Endpoint) -> Bool {
        EndpointIdentity(lhs) == EndpointIdentity(rhs)
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(EndpointIdentity(self))
    }
}
