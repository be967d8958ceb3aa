import Foundation

/// PEM bytes and how errors name where they came from (the file's path, or "PEM text").
struct PEMText {
    let bytes: [UInt8]
    let source: String

    /// The contents of the file at `path`.
    init(file path: String) throws(TLSFailure) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .invalidConfiguration(.unreadableFile(path: path)) }
        bytes = [UInt8](data)
        source = path
    }

    /// `text` itself.
    init(text: String) {
        bytes = Array(text.utf8)
        source = "PEM text"
    }

    init(_ source: TLSServerConfiguration.PEMSource) throws(TLSFailure) {
        switch source {
        case .pemFile(let path): try self.init(file: path)
        case .pem(let text): self.init(text: text)
        }
    }

    /// Every certificate in the text, in order (`X509 *`, owned by `body` for its duration and
    /// freed after); at least one.
    func withCertificates<R>(_ api: OpenSSL, _ body: ([OpaquePointer]) throws(TLSFailure) -> R) throws(TLSFailure) -> R {
        var certificates: [OpaquePointer] = []
        defer { certificates.forEach { api.X509_free($0) } }
        try withBIO(api) { bio throws(TLSFailure) in
            while let certificate = api.PEM_read_bio_X509(bio, nil, nil, nil) {
                certificates.append(certificate)
            }
            // The reader stops at the end of the text ("no start line") or at a damaged certificate.
            let error = api.takeErrorOrUnknown()
            let endOfText = error.library == OpenSSLConstants.errLibPEM && error.reason == OpenSSLConstants.pemReasonNoStartLine
            guard endOfText else { throw .invalidConfiguration(.invalidCertificate(source: source, error: error)) }
        }
        guard !certificates.isEmpty else { throw .invalidConfiguration(.noCertificate(source: source)) }
        return try body(certificates)
    }

    /// The first private key in the text (`EVP_PKEY *`, owned by `body` for its duration).
    func withPrivateKey<R>(_ api: OpenSSL, _ body: (OpaquePointer) throws(TLSFailure) -> R) throws(TLSFailure) -> R {
        let key = try withBIO(api) { bio throws(TLSFailure) -> OpaquePointer in
            guard let key = api.PEM_read_bio_PrivateKey(bio, nil, nil, nil) else {
                throw .invalidConfiguration(.invalidPrivateKey(source: source, error: api.takeErrorOrUnknown()))
            }
            return key
        }
        defer { api.EVP_PKEY_free(key) }
        return try body(key)
    }

    /// A read-only memory BIO over the bytes, for the duration of `body`.
    private func withBIO<R>(_ api: OpenSSL, _ body: (OpaquePointer) throws(TLSFailure) -> R) throws(TLSFailure) -> R {
        api.ERR_clear_error()
        let outcome: Result<R, TLSFailure> = bytes.withUnsafeBytes { raw in
            guard let bio = api.BIO_new_mem_buf(raw.baseAddress, Int32(clamping: raw.count)) else {
                return .failure(.invalidConfiguration(.rejected(api.takeErrorOrUnknown())))
            }
            defer { _ = api.BIO_free(bio) }
            do throws(TLSFailure) {
                return .success(try body(bio))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}
