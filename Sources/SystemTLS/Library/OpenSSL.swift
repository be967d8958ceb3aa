/// The functions of the system's `libssl` and `libcrypto` this module calls, resolved by name
/// once (no headers, no C target): `OpenSSL.shared` opens the first library pair that loads and
/// has every symbol, on first use, from any thread.
///
/// The names are OpenSSL's own. OpenSSL's macros (`SSL_set_tlsext_host_name`,
/// `SSL_CTX_set_min_proto_version`, `BIO_ctrl_pending`, ...) are `SSL_ctrl`, `SSL_CTX_ctrl` and
/// `BIO_ctrl` calls with the constants in `OpenSSLConstants`. Every handle is an `OpaquePointer`.
/// OpenSSL 1.1.1 and 3.x export all of these with these C signatures (`long` and `size_t` are
/// `Int` on the 64-bit systems Swift runs on).
final class OpenSSL: Sendable {
    typealias Handle = OpaquePointer
    /// `int (*)(int preverify_ok, X509_STORE_CTX *)`
    typealias VerifyCallback = @Sendable @convention(c) (Int32, Handle?) -> Int32
    /// `int (*)(X509_STORE_CTX *, void *arg)`
    typealias CertificateVerifyCallback = @Sendable @convention(c) (Handle?, UnsafeMutableRawPointer?) -> Int32
    /// `int (*)(SSL *, const unsigned char **out, unsigned char *outlen, const unsigned char *in, unsigned int inlen, void *arg)`
    typealias ALPNSelectCallback = @Sendable @convention(c) (
        Handle?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?, UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
    ) -> Int32

    // MARK: libcrypto: versions, errors, memory BIOs, PEM, X.509

    let OpenSSL_version_num: @Sendable @convention(c) () -> UInt
    let OpenSSL_version: @Sendable @convention(c) (Int32) -> UnsafePointer<CChar>?
    let ERR_get_error: @Sendable @convention(c) () -> UInt
    let ERR_clear_error: @Sendable @convention(c) () -> Void
    let ERR_error_string_n: @Sendable @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
    let BIO_s_mem: @Sendable @convention(c) () -> Handle?
    let BIO_new: @Sendable @convention(c) (Handle?) -> Handle?
    let BIO_free: @Sendable @convention(c) (Handle?) -> Int32
    let BIO_new_mem_buf: @Sendable @convention(c) (UnsafeRawPointer?, Int32) -> Handle?
    let BIO_read_ex: @Sendable @convention(c) (Handle?, UnsafeMutableRawPointer?, Int, UnsafeMutablePointer<Int>?) -> Int32
    let BIO_write_ex: @Sendable @convention(c) (Handle?, UnsafeRawPointer?, Int, UnsafeMutablePointer<Int>?) -> Int32
    let BIO_ctrl: @Sendable @convention(c) (Handle?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    /// The third argument is a password callback; always `nil` here (keys are unencrypted).
    let PEM_read_bio_X509: @Sendable @convention(c) (Handle?, UnsafeMutablePointer<Handle?>?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Handle?
    let PEM_read_bio_PrivateKey: @Sendable @convention(c) (Handle?, UnsafeMutablePointer<Handle?>?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Handle?
    let X509_free: @Sendable @convention(c) (Handle?) -> Void
    let EVP_PKEY_free: @Sendable @convention(c) (Handle?) -> Void
    let X509_STORE_add_cert: @Sendable @convention(c) (Handle?, Handle?) -> Int32
    let X509_VERIFY_PARAM_set1_host: @Sendable @convention(c) (Handle?, UnsafePointer<CChar>?, Int) -> Int32
    let X509_VERIFY_PARAM_set_hostflags: @Sendable @convention(c) (Handle?, UInt32) -> Void
    let X509_VERIFY_PARAM_set1_ip_asc: @Sendable @convention(c) (Handle?, UnsafePointer<CChar>?) -> Int32
    let X509_verify_cert_error_string: @Sendable @convention(c) (Int) -> UnsafePointer<CChar>?
    let X509_verify_cert: @Sendable @convention(c) (Handle?) -> Int32
    let X509_STORE_CTX_get0_cert: @Sendable @convention(c) (Handle?) -> Handle?
    let X509_STORE_CTX_get0_param: @Sendable @convention(c) (Handle?) -> Handle?
    /// Returns the decoded extension (`GENERAL_NAMES *` for `subjectAltName`), freed by the caller.
    let X509_get_ext_d2i: @Sendable @convention(c) (Handle?, Int32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> UnsafeMutableRawPointer?
    let GENERAL_NAMES_free: @Sendable @convention(c) (UnsafeMutableRawPointer?) -> Void
    let OPENSSL_sk_num: @Sendable @convention(c) (UnsafeRawPointer?) -> Int32
    let OPENSSL_sk_value: @Sendable @convention(c) (UnsafeRawPointer?, Int32) -> UnsafeMutableRawPointer?

    // MARK: libssl: contexts

    let OPENSSL_init_ssl: @Sendable @convention(c) (UInt64, Handle?) -> Int32
    let TLS_client_method: @Sendable @convention(c) () -> Handle?
    let TLS_server_method: @Sendable @convention(c) () -> Handle?
    let SSL_CTX_new: @Sendable @convention(c) (Handle?) -> Handle?
    let SSL_CTX_free: @Sendable @convention(c) (Handle?) -> Void
    let SSL_CTX_ctrl: @Sendable @convention(c) (Handle?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let SSL_CTX_set_options: @Sendable @convention(c) (Handle?, UInt64) -> UInt64
    let SSL_CTX_set_verify: @Sendable @convention(c) (Handle?, Int32, VerifyCallback?) -> Void
    let SSL_CTX_set_cert_verify_callback: @Sendable @convention(c) (Handle?, CertificateVerifyCallback?, UnsafeMutableRawPointer?) -> Void
    let SSL_CTX_set_default_verify_paths: @Sendable @convention(c) (Handle?) -> Int32
    let SSL_CTX_get_cert_store: @Sendable @convention(c) (Handle?) -> Handle?
    /// Returns 0 on success (unlike most of OpenSSL).
    let SSL_CTX_set_alpn_protos: @Sendable @convention(c) (Handle?, UnsafePointer<UInt8>?, UInt32) -> Int32
    let SSL_CTX_set_alpn_select_cb: @Sendable @convention(c) (Handle?, ALPNSelectCallback?, UnsafeMutableRawPointer?) -> Void
    let SSL_CTX_use_certificate: @Sendable @convention(c) (Handle?, Handle?) -> Int32
    let SSL_CTX_use_PrivateKey: @Sendable @convention(c) (Handle?, Handle?) -> Int32
    let SSL_CTX_check_private_key: @Sendable @convention(c) (Handle?) -> Int32

    // MARK: libssl: connections

    let SSL_new: @Sendable @convention(c) (Handle?) -> Handle?
    let SSL_free: @Sendable @convention(c) (Handle?) -> Void
    let SSL_set_bio: @Sendable @convention(c) (Handle?, Handle?, Handle?) -> Void
    let SSL_set_connect_state: @Sendable @convention(c) (Handle?) -> Void
    let SSL_set_accept_state: @Sendable @convention(c) (Handle?) -> Void
    let SSL_do_handshake: @Sendable @convention(c) (Handle?) -> Int32
    let SSL_is_init_finished: @Sendable @convention(c) (Handle?) -> Int32
    let SSL_read_ex: @Sendable @convention(c) (Handle?, UnsafeMutableRawPointer?, Int, UnsafeMutablePointer<Int>?) -> Int32
    let SSL_write_ex: @Sendable @convention(c) (Handle?, UnsafeRawPointer?, Int, UnsafeMutablePointer<Int>?) -> Int32
    let SSL_get_error: @Sendable @convention(c) (Handle?, Int32) -> Int32
    let SSL_shutdown: @Sendable @convention(c) (Handle?) -> Int32
    let SSL_get_shutdown: @Sendable @convention(c) (Handle?) -> Int32
    let SSL_ctrl: @Sendable @convention(c) (Handle?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let SSL_clear_options: @Sendable @convention(c) (Handle?, UInt64) -> UInt64
    let SSL_renegotiate: @Sendable @convention(c) (Handle?) -> Int32
    let SSL_get0_param: @Sendable @convention(c) (Handle?) -> Handle?
    let SSL_get_verify_result: @Sendable @convention(c) (Handle?) -> Int
    let SSL_get0_alpn_selected: @Sendable @convention(c) (Handle?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt32>?) -> Void
    let SSL_version: @Sendable @convention(c) (Handle?) -> Int32
    let SSL_get_current_cipher: @Sendable @convention(c) (Handle?) -> Handle?
    let SSL_CIPHER_get_name: @Sendable @convention(c) (Handle?) -> UnsafePointer<CChar>?
    let SSL_get_servername: @Sendable @convention(c) (Handle?, Int32) -> UnsafePointer<CChar>?
    let SSL_session_reused: @Sendable @convention(c) (Handle?) -> Int32
    let SSL_get1_session: @Sendable @convention(c) (Handle?) -> Handle?
    let SSL_set_session: @Sendable @convention(c) (Handle?, Handle?) -> Int32
    let SSL_SESSION_free: @Sendable @convention(c) (Handle?) -> Void
    let SSL_SESSION_is_resumable: @Sendable @convention(c) (Handle?) -> Int32

    /// Whether error codes are packed the OpenSSL 3 way (library in bits 23-30, reason in 0-22,
    /// bit 31 for system errors) rather than 1.1.1's (library in 24-31, reason in 0-11).
    let packsErrorsAsVersion3: Bool

    /// Resolves every function in `ssl` and `crypto`; the first missing name when one is absent.
    init(ssl: SystemLibrary.Handle, crypto: SystemLibrary.Handle) throws(MissingSymbol) {
        let c = SymbolTable(library: crypto)
        let s = SymbolTable(library: ssl)
        OpenSSL_version_num = try c.function("OpenSSL_version_num")
        OpenSSL_version = try c.function("OpenSSL_version")
        ERR_get_error = try c.function("ERR_get_error")
        ERR_clear_error = try c.function("ERR_clear_error")
        ERR_error_string_n = try c.function("ERR_error_string_n")
        BIO_s_mem = try c.function("BIO_s_mem")
        BIO_new = try c.function("BIO_new")
        BIO_free = try c.function("BIO_free")
        BIO_new_mem_buf = try c.function("BIO_new_mem_buf")
        BIO_read_ex = try c.function("BIO_read_ex")
        BIO_write_ex = try c.function("BIO_write_ex")
        BIO_ctrl = try c.function("BIO_ctrl")
        PEM_read_bio_X509 = try c.function("PEM_read_bio_X509")
        PEM_read_bio_PrivateKey = try c.function("PEM_read_bio_PrivateKey")
        X509_free = try c.function("X509_free")
        EVP_PKEY_free = try c.function("EVP_PKEY_free")
        X509_STORE_add_cert = try c.function("X509_STORE_add_cert")
        X509_VERIFY_PARAM_set1_host = try c.function("X509_VERIFY_PARAM_set1_host")
        X509_VERIFY_PARAM_set_hostflags = try c.function("X509_VERIFY_PARAM_set_hostflags")
        X509_VERIFY_PARAM_set1_ip_asc = try c.function("X509_VERIFY_PARAM_set1_ip_asc")
        X509_verify_cert_error_string = try c.function("X509_verify_cert_error_string")
        X509_verify_cert = try c.function("X509_verify_cert")
        X509_STORE_CTX_get0_cert = try c.function("X509_STORE_CTX_get0_cert")
        X509_STORE_CTX_get0_param = try c.function("X509_STORE_CTX_get0_param")
        X509_get_ext_d2i = try c.function("X509_get_ext_d2i")
        GENERAL_NAMES_free = try c.function("GENERAL_NAMES_free")
        OPENSSL_sk_num = try c.function("OPENSSL_sk_num")
        OPENSSL_sk_value = try c.function("OPENSSL_sk_value")

        OPENSSL_init_ssl = try s.function("OPENSSL_init_ssl")
        TLS_client_method = try s.function("TLS_client_method")
        TLS_server_method = try s.function("TLS_server_method")
        SSL_CTX_new = try s.function("SSL_CTX_new")
        SSL_CTX_free = try s.function("SSL_CTX_free")
        SSL_CTX_ctrl = try s.function("SSL_CTX_ctrl")
        SSL_CTX_set_options = try s.function("SSL_CTX_set_options")
        SSL_CTX_set_verify = try s.function("SSL_CTX_set_verify")
        SSL_CTX_set_cert_verify_callback = try s.function("SSL_CTX_set_cert_verify_callback")
        SSL_CTX_set_default_verify_paths = try s.function("SSL_CTX_set_default_verify_paths")
        SSL_CTX_get_cert_store = try s.function("SSL_CTX_get_cert_store")
        SSL_CTX_set_alpn_protos = try s.function("SSL_CTX_set_alpn_protos")
        SSL_CTX_set_alpn_select_cb = try s.function("SSL_CTX_set_alpn_select_cb")
        SSL_CTX_use_certificate = try s.function("SSL_CTX_use_certificate")
        SSL_CTX_use_PrivateKey = try s.function("SSL_CTX_use_PrivateKey")
        SSL_CTX_check_private_key = try s.function("SSL_CTX_check_private_key")

        SSL_new = try s.function("SSL_new")
        SSL_free = try s.function("SSL_free")
        SSL_set_bio = try s.function("SSL_set_bio")
        SSL_set_connect_state = try s.function("SSL_set_connect_state")
        SSL_set_accept_state = try s.function("SSL_set_accept_state")
        SSL_do_handshake = try s.function("SSL_do_handshake")
        SSL_is_init_finished = try s.function("SSL_is_init_finished")
        SSL_read_ex = try s.function("SSL_read_ex")
        SSL_write_ex = try s.function("SSL_write_ex")
        SSL_get_error = try s.function("SSL_get_error")
        SSL_shutdown = try s.function("SSL_shutdown")
        SSL_get_shutdown = try s.function("SSL_get_shutdown")
        SSL_ctrl = try s.function("SSL_ctrl")
        SSL_clear_options = try s.function("SSL_clear_options")
        SSL_renegotiate = try s.function("SSL_renegotiate")
        SSL_get0_param = try s.function("SSL_get0_param")
        SSL_get_verify_result = try s.function("SSL_get_verify_result")
        SSL_get0_alpn_selected = try s.function("SSL_get0_alpn_selected")
        SSL_version = try s.function("SSL_version")
        SSL_get_current_cipher = try s.function("SSL_get_current_cipher")
        SSL_CIPHER_get_name = try s.function("SSL_CIPHER_get_name")
        SSL_get_servername = try s.function("SSL_get_servername")
        SSL_session_reused = try s.function("SSL_session_reused")
        SSL_get1_session = try s.function("SSL_get1_session")
        SSL_set_session = try s.function("SSL_set_session")
        SSL_SESSION_free = try s.function("SSL_SESSION_free")
        SSL_SESSION_is_resumable = try s.function("SSL_SESSION_is_resumable")

        packsErrorsAsVersion3 = OpenSSL_version_num() >= 0x3000_0000
    }

    /// A name the library pair does not export.
    struct MissingSymbol: Error {
        let name: String
    }

    /// Looks names up in one library.
    private struct SymbolTable {
        let library: SystemLibrary.Handle

        /// The function `name`, as the function type the caller stores it in.
        func function<Function>(_ name: String) throws(MissingSymbol) -> Function {
            guard let address = SystemLibrary.symbol(name, in: library) else { throw MissingSymbol(name: name) }
            return unsafeBitCast(address, to: Function.self)
        }
    }
}
