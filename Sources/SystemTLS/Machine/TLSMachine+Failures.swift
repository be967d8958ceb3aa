extension TLSMachine {
    /// What an `SSL_get_error` result other than "want more bytes" means, from OpenSSL's error
    /// queue (emptied here) and, for a refused certificate, its verification result.
    func failure(for sslError: Int32) -> TLSFailure {
        guard let error = api.takeError() else {
            return .protocolError(OpenSSLError(library: 0, reason: 0, description: "OpenSSL failed (SSL_get_error \(sslError)) and reported no reason"))
        }
        guard error.library == OpenSSLConstants.errLibSSL else { return .protocolError(error) }
        switch error.reason {
        case OpenSSLConstants.sslReasonCertificateVerifyFailed:
            return verificationFailure()
        case OpenSSLConstants.alertReasonOffset..<OpenSSLConstants.alertReasonOffset + 256:
            let alert = TLSAlert(code: UInt8(error.reason - OpenSSLConstants.alertReasonOffset))
            if alert == .protocolVersion { return .protocolVersionRefused }
            return state == .handshaking ? .handshakeFailed(alert) : .alertReceived(alert)
        case OpenSSLConstants.sslReasonUnsupportedProtocol, OpenSSLConstants.sslReasonUnsupportedSSLVersion,
             OpenSSLConstants.sslReasonNoProtocolsAvailable, OpenSSLConstants.sslReasonVersionTooLow,
             OpenSSLConstants.sslReasonVersionTooHigh:
            return .protocolVersionRefused
        case OpenSSLConstants.sslReasonNoRenegotiation:
            return .renegotiationRefused
        default:
            return .protocolError(error)
        }
    }

    /// The certificate check that failed: the name, the dates, or the chain.
    private func verificationFailure() -> TLSFailure {
        let code = api.SSL_get_verify_result(ssl)
        switch code {
        case OpenSSLConstants.verifyErrHostnameMismatch, OpenSSLConstants.verifyErrIPAddressMismatch:
            return .hostNameMismatch(host: host ?? "")
        case OpenSSLConstants.verifyErrCertHasExpired:
            return .badCertificateDate(.expired)
        case OpenSSLConstants.verifyErrCertNotYetValid:
            return .badCertificateDate(.notYetValid)
        default:
            let reason = api.X509_verify_cert_error_string(code).map { String(cString: $0) } ?? "verification error \(code)"
            return .untrustedChain(TLSVerificationError(code: code, reason: reason))
        }
    }
}
