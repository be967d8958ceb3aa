/// The machine's steps: OpenSSL calls that turn what arrived and what the caller sent into actions.
extension TLSMachine {
    /// Runs the handshake as far as the bytes received allow.
    func advanceHandshake(into actions: inout [Action]) {
        api.ERR_clear_error()
        let result = api.SSL_do_handshake(ssl)
        guard result == 1 else {
            let error = api.SSL_get_error(ssl, result)
            if error == OpenSSLConstants.errorWantRead || error == OpenSSLConstants.errorWantWrite {
                flushWrites(into: &actions)
            } else {
                fail(failure(for: error), into: &actions)
            }
            return
        }
        flushWrites(into: &actions)
        state = .established
        handshakeCompleted = true
        actions.append(.handshakeCompleted(handshake()))
        writeQueued(into: &actions)
    }

    /// Reads all the plaintext the bytes received hold, then reports the peer's
    /// `close_notify` or a failure that followed it.
    func readPlaintext(into actions: inout [Action]) {
        // Plaintext is no longer than its ciphertext, plus at most one record OpenSSL holds from
        // an earlier call: sized so, the buffer rarely grows (and copies) while it is read into.
        let pending = api.BIO_ctrl(incoming, OpenSSLConstants.bioCtrlPending, 0, nil)
        let wanted = min(Self.largestReadBuffer, pending + Self.firstReadBufferSize)
        if readBuffer.count < wanted { readBuffer = Self.uninitializedBuffer(wanted) }
        var count = 0
        var error = OpenSSLConstants.errorNone
        while true {
            if count == readBuffer.count {
                if count >= Self.largestReadBuffer {
                    // The action keeps this buffer; later plaintext goes to a new one.
                    actions.append(.deliver(readBuffer[0..<count]))
                    count = 0
                    readBuffer = Self.uninitializedBuffer(Self.largestReadBuffer)
                } else {
                    var grown = Self.uninitializedBuffer(min(Self.largestReadBuffer, max(Self.firstReadBufferSize, readBuffer.count * 2)))
                    grown.replaceSubrange(0..<count, with: readBuffer)
                    readBuffer = grown
                }
            }
            api.ERR_clear_error()
            var read = 0
            let result = readBuffer.withUnsafeMutableBytes { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return 0 }
                return api.SSL_read_ex(ssl, base + count, buffer.count - count, &read)
            }
            guard result == 1 else {
                error = api.SSL_get_error(ssl, result)
                break
            }
            count += read
        }
        if count > 0 { actions.append(.deliver(readBuffer[0..<count])) }
        switch error {
        case OpenSSLConstants.errorWantRead, OpenSSLConstants.errorWantWrite:
            flushWrites(into: &actions)
        case OpenSSLConstants.errorZeroReturn:
            if state == .established {
                // Answer the peer's close_notify with ours.
                api.ERR_clear_error()
                _ = api.SSL_shutdown(ssl)
                api.ERR_clear_error()
            }
            flushWrites(into: &actions)
            state = .closed
            queued = []
            actions.append(.closed(.clean))
        default:
            fail(failure(for: error), into: &actions)
        }
    }

    /// Encrypts `plaintext` (all of it: the memory buffer takes everything) and writes it out;
    /// when OpenSSL must first read the peer's bytes, queues it for the next `receive`.
    func write(_ plaintext: UnsafeRawBufferPointer, into actions: inout [Action]) {
        guard let base = plaintext.baseAddress, plaintext.count > 0 else { return }
        api.ERR_clear_error()
        var written = 0
        let result = api.SSL_write_ex(ssl, base, plaintext.count, &written)
        guard result == 1 else {
            let error = api.SSL_get_error(ssl, result)
            guard error == OpenSSLConstants.errorWantRead || error == OpenSSLConstants.errorWantWrite else {
                return fail(failure(for: error), into: &actions)
            }
            // Nothing of it was taken (a memory buffer never leaves a record half-written): the
            // whole plaintext goes again, what OpenSSL wrote meanwhile (a handshake message) first.
            api.ERR_clear_error()
            queued.append(contentsOf: plaintext)
            flushWrites(into: &actions)
            return
        }
        flushWrites(into: &actions)
    }

    /// Writes the plaintext queued (before the handshake completed, or while a write waited for
    /// the peer's bytes).
    func writeQueued(into actions: inout [Action]) {
        guard !queued.isEmpty else { return }
        let plaintext = queued
        queued = []
        plaintext.withUnsafeBytes { write($0, into: &actions) }
    }

    /// Moves what OpenSSL wrote for the peer into one `.write`.
    func flushWrites(into actions: inout [Action]) {
        let pending = api.BIO_ctrl(outgoing, OpenSSLConstants.bioCtrlPending, 0, nil)
        guard pending > 0 else { return }
        let bytes = [UInt8](unsafeUninitializedCapacity: pending) { buffer, initialized in
            var read = 0
            _ = api.BIO_read_ex(outgoing, buffer.baseAddress, pending, &read)
            initialized = read
        }
        if !bytes.isEmpty { actions.append(.write(bytes)) }
    }

    /// Sends the alert OpenSSL wrote (if any), then fails.
    func fail(_ failure: TLSFailure, into actions: inout [Action]) {
        flushWrites(into: &actions)
        state = .failed
        queued = []
        actions.append(.failed(failure))
    }

    /// What the completed handshake agreed on.
    func handshake() -> TLSHandshake {
        var selected: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        api.SSL_get0_alpn_selected(ssl, &selected, &length)
        let alpn = selected.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self) }
        let version: TLSVersion = api.SSL_version(ssl) >= OpenSSLConstants.tls1_3Version ? .v1_3 : .v1_2
        let serverName = api.SSL_get_servername(ssl, Int32(OpenSSLConstants.tlsExtNameTypeHostName)).map { String(cString: $0) }
        let cipher = api.SSL_get_current_cipher(ssl).flatMap { api.SSL_CIPHER_get_name($0) }.map { String(cString: $0) }
        return TLSHandshake(version: version, applicationProtocol: alpn, resumedSession: api.SSL_session_reused(ssl) == 1,
                            serverName: serverName, cipher: cipher)
    }

    /// A buffer of `count` bytes whose contents are never read before OpenSSL writes them.
    static func uninitializedBuffer(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }
}
