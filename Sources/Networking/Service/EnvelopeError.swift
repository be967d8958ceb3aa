import Foundation

/// A response whose envelope reports a failure or cannot be read.
public enum EnvelopeError: Error, LocalizedError, Sendable {
    /// The envelope says the call failed (`isSuccess: false`, or a code not among the success codes).
    case server(code: String?, message: String?, response: Response)
    /// The body is JSON but its verdict is missing or not understood.
    case malformed(reason: String, response: Response)

    /// The response that carried the envelope.
    public var response: Response {
        switch self {
        case .server(_, _, let response), .malformed(_, let response): return response
        }
    }

    /// The server's code, for `.server`.
    public var code: String? {
        if case .server(let code, _, _) = self { return code }
        return nil
    }

    /// The server's message, for `.server`.
    public var serverMessage: String? {
        if case .server(_, let message, _) = self { return message }
        return nil
    }

    /// The server's message, or what is wrong with the envelope.
    public var errorDescription: String? {
        switch self {
        case .server(let code, let message, _):
            let label = code.map { "Server error \($0)" } ?? "Server error"
            guard let message, !message.isEmpty else { return label }
            return "\(label): \(message)"
        case .malformed(let reason, _):
            return "Unreadable response envelope: \(reason)"
        }
    }
}
