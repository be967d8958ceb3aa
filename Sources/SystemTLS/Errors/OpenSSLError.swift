/// An entry of OpenSSL's error queue: the library and reason numbers (`ERR_GET_LIB`,
/// `ERR_GET_REASON`, e.g. 20 and 267 for "wrong version number") and OpenSSL's text.
public struct OpenSSLError: Sendable, Hashable, CustomStringConvertible {
    /// The library that reported it (`ERR_LIB_*`: 20 is libssl, 2 a system call).
    public let library: Int
    /// The library's reason number (`SSL_R_*` for libssl, an `errno` for system calls).
    public let reason: Int
    /// OpenSSL's text for the error (`ERR_error_string_n`).
    public let description: String

    public init(library: Int, reason: Int, description: String) {
        self.library = library
        self.reason = reason
        self.description = description
    }
}
