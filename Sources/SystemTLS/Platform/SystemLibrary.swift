// The one file of SystemTLS that knows which C library it runs on: opening a shared library and
// looking a symbol up in it. On Apple platforms nothing is opened: https goes through URLSession
// there, so OpenSSL is never looked for.
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `dlopen` and `dlsym`, or their refusal where the system's OpenSSL is not used.
enum SystemLibrary {
    /// An opened shared library; it stays open for the life of the process.
    struct Handle {
        let raw: UnsafeMutableRawPointer
    }

    /// Opens `file` (a name the dynamic loader searches for, such as `libssl.so.3`), with every
    /// symbol bound now and none made global; the loader's message when it cannot.
    static func open(_ file: String) -> Result<Handle, LoadFailure> {
        #if canImport(Darwin)
        return .failure(LoadFailure(message: "not loaded on Apple platforms, where https goes through URLSession"))
        #else
        guard let raw = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(LoadFailure(message: dlerror().map { String(cString: $0) } ?? "dlopen failed"))
        }
        return .success(Handle(raw: raw))
        #endif
    }

    /// The address of `name` in `library`, or `nil` when it does not export it.
    static func symbol(_ name: String, in library: Handle) -> UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        return nil
        #else
        return dlsym(library.raw, name)
        #endif
    }

    /// Why a library did not open, as the dynamic loader said it.
    struct LoadFailure: Error {
        let message: String
    }
}
