/// No usable OpenSSL could be loaded (none installed, one older than 1.1.1, or an Apple
/// platform, where https goes through URLSession): which files were looked for and why each
/// pair was refused. Thrown as `TLSFailure.unavailable`.
public struct TLSUnavailable: Sendable, Hashable, CustomStringConvertible {
    /// The shared libraries looked for, in order (`libssl.so.3`, `libcrypto.so.3`,
    /// `libssl.so.1.1`, `libcrypto.so.1.1`).
    public let filesLookedFor: [String]
    /// Why each library pair was refused, as the dynamic loader or the symbol lookup said it.
    public let reasons: [String]

    public init(filesLookedFor: [String], reasons: [String]) {
        self.filesLookedFor = filesLookedFor
        self.reasons = reasons
    }

    public var description: String {
        "no TLS library could be loaded (looked for \(filesLookedFor.joined(separator: ", "))): \(reasons.joined(separator: "; "))"
    }
}
