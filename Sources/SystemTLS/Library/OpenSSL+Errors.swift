extension OpenSSL {
    /// Empties this thread's error queue and returns its first entry (the cause; later ones
    /// are the callers that passed it on), or `nil` when it was empty.
    func takeError() -> OpenSSLError? {
        var first: OpenSSLError?
        while true {
            let code = ERR_get_error()
            guard code != 0 else { return first }
            if first == nil { first = error(code) }
        }
    }

    /// The packed error `code` as library, reason and text.
    func error(_ code: UInt) -> OpenSSLError {
        let library: Int
        let reason: Int
        if packsErrorsAsVersion3 {
            if code & 0x8000_0000 != 0 {
                (library, reason) = (OpenSSLConstants.errLibSys, Int(code & 0x7FFF_FFFF))
            } else {
                (library, reason) = (Int((code >> 23) & 0xFF), Int(code & 0x7F_FFFF))
            }
        } else {
            (library, reason) = (Int((code >> 24) & 0xFF), Int(code & 0xFFF))
        }
        let text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer -> String in
            guard let base = buffer.baseAddress else { return "" }
            ERR_error_string_n(code, base, buffer.count)
            return String(cString: base)
        }
        return OpenSSLError(library: library, reason: reason, description: text)
    }

    /// The queue's first entry, or one saying OpenSSL reported nothing.
    func takeErrorOrUnknown() -> OpenSSLError {
        takeError() ?? OpenSSLError(library: 0, reason: 0, description: "OpenSSL reported no error")
    }
}
