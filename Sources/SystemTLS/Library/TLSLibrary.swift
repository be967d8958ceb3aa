/// The system's OpenSSL, loaded at run time: `libssl.so.3` (else `libssl.so.1.1`) and its
/// `libcrypto`, opened once on first use. Contexts load it themselves; call `load()` to learn
/// beforehand whether TLS is available (for example to choose a transport).
public enum TLSLibrary {
    /// Loads the library if it is not loaded yet; throws `TLSFailure.unavailable`, naming what was
    /// looked for, when none loads (always on Apple platforms, where https goes through URLSession).
    public static func load() throws(TLSFailure) {
        _ = try OpenSSL.loaded()
    }

    /// OpenSSL's version text (`OpenSSL 3.0.19 27 Jan 2026`), or `nil` when none loads.
    public static var version: String? {
        guard let library = try? OpenSSL.loaded(), let text = library.OpenSSL_version(0) else { return nil }
        return String(cString: text)
    }
}
