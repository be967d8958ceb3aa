extension OpenSSL {
    /// The library pairs looked for, in order: OpenSSL 3, then 1.1 (1.1.1 at least: TLS 1.3,
    /// `SSL_read_ex` and `SSL_SESSION_is_resumable` come from it).
    static let libraryFiles: [(ssl: String, crypto: String)] = [
        ("libssl.so.3", "libcrypto.so.3"),
        ("libssl.so.1.1", "libcrypto.so.1.1"),
    ]

    /// The loaded library, or why none loaded: tried once, on first use (a `static let` is
    /// initialized once, thread-safely), and never unloaded.
    static let shared: Result<OpenSSL, TLSFailure> = load(from: libraryFiles)

    /// Opens the first pair of `files` that loads and exports every function, and initializes
    /// it (with its error strings, for `OpenSSLError.description`).
    static func load(from files: [(ssl: String, crypto: String)]) -> Result<OpenSSL, TLSFailure> {
        var reasons: [String] = []
        for pair in files {
            let ssl: SystemLibrary.Handle
            let crypto: SystemLibrary.Handle
            switch (SystemLibrary.open(pair.ssl), SystemLibrary.open(pair.crypto)) {
            case (.success(let s), .success(let c)):
                (ssl, crypto) = (s, c)
            case (.failure(let failure), _):
                reasons.append("\(pair.ssl): \(failure.message)")
                continue
            case (_, .failure(let failure)):
                reasons.append("\(pair.crypto): \(failure.message)")
                continue
            }
            do {
                let library = try OpenSSL(ssl: ssl, crypto: crypto)
                let options = OpenSSLConstants.initLoadSSLStrings | OpenSSLConstants.initLoadCryptoStrings
                guard library.OPENSSL_init_ssl(options, nil) == 1 else {
                    reasons.append("\(pair.ssl): OPENSSL_init_ssl failed")
                    continue
                }
                return .success(library)
            } catch {
                reasons.append("\(pair.ssl): no symbol \(error.name) (OpenSSL 1.1.1 or later is needed)")
            }
        }
        return .failure(.unavailable(TLSUnavailable(filesLookedFor: files.flatMap { [$0.ssl, $0.crypto] }, reasons: reasons)))
    }

    /// The loaded library, or `.unavailable` saying what was looked for.
    static func loaded() throws(TLSFailure) -> OpenSSL {
        try shared.get()
    }
}
