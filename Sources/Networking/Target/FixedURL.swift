import Foundation

extension URL {
    /// A URL written in the source (a default base URL, a loopback address with its port): stops
    /// with a precondition naming `string` when it is not a URL, instead of carrying on with
    /// another one such as `file:///`. Not for URLs from input, which must be checked.
    package init(fixed string: String) {
        guard let url = URL(string: string) else { preconditionFailure("not a URL: \(string)") }
        self = url
    }
}
