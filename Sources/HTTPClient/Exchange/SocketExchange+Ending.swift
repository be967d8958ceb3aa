import Foundation
import HTTPWire
import EventLoopIO

/// Ending: reporting once (after the download file's last write), the error a caller sees, and
/// the idle timer.
extension SocketExchange {
    /// Reports `response`; with `decodesBody` its body decoded, else (a download, whose body went
    /// to the file as it arrived) none.
    func deliver(_ response: HTTPResponse, decodesBody: Bool) {
        let head = response.head
        let url = responseURL
        guard decodesBody else { return report(.success(makeResponse(head, body: [], url: url)), partial: nil) }
        switch ContentDecoding.decode(response.body, headers: head.headers, limit: configuration.maximumResponseSize,
                                      policy: machine.request.decompression) {
        case .success(let decoded): report(.success(makeResponse(head, body: decoded, url: url)), partial: nil)
        case .failure(let error): report(.failure(error), partial: makeResponse(head, body: response.body, url: url))
        }
    }

    /// The response head (and body so far, unless it went to a file) that arrived before a failure.
    func partialResponse() -> HTTPClientResponse? {
        let url = responseURL
        if let response { return makeResponse(response.head, body: machine.downloadsToFile ? [] : response.body, url: url) }
        return parser.head.map { makeResponse($0, body: machine.downloadsToFile ? [] : parser.takeBody(), url: url) }
    }

    /// The error a caller sees for the machine's `failure`: the one place that names the host,
    /// the deadline's length and the download file's or stream's own error.
    func clientError(for failure: ExchangeFailure) -> HTTPClientError {
        let key = machine.target?.key
        // Where the socket connects: the proxy, for a tunnel through one.
        let host = key?.connectHost ?? machine.request.url.host ?? "?"
        let port = key.map { Int($0.connectPort) } ?? machine.request.url.port ?? 80
        switch failure {
        case .invalidURL(let unsupportedScheme): return unsupportedScheme ? .unsupportedScheme(machine.request.url) : .badURL(machine.request.url)
        case .unusableProxy(let value): return .unsupportedProxy(value)
        case .cannotFindHost(let code): return .cannotFindHost(host: host, code: code)
        case .cannotFindOrigin(let code): return .cannotFindHost(host: key?.host ?? machine.request.url.host ?? "?", code: code)
        case .cannotConnect(let number): return .cannotConnect(host: host, port: port, errno: number)
        case .timedOut(.connect): return timedOut(.connect, after: configuration.connectTimeout)
        case .timedOut(.idle): return timedOut(.idle, after: idleTimeout)
        case .timedOut(.overall):
            // A deadline set before the request started (passed already) is reported as zero.
            return timedOut(.overall, after: machine.request.overallDeadline(configuration, from: startedAt).map { max(.zero, $0 - startedAt) } ?? .zero)
        case .connectionLost(let number): return .connectionLost(errno: number)
        case .proxyRefused(let status): return .proxyRefused(status: status, host: host, port: port)
        case .response(let wire): return HTTPClientError(wire)
        case .uploadFailed(let failure): return .uploadFailed(underlying: failure.underlying)
        case .downloadFailed: return .downloadFailed(underlying: download?.failure ?? URLError(.cannotCreateFile))
        case .tooManyRedirects(let count): return .tooManyRedirects(count)
        case .bodyNotReplayable: return .bodyNotReplayable
        case .tls(let failure): return .tls(failure)
        case .tlsUnavailable(let unavailable): return .tlsUnavailable(unavailable)
        }
    }

    /// Reports `result` once; with a download, after the last byte is in the file (a write that
    /// failed turns a success into that failure).
    func report(_ result: Result<HTTPClientResponse, HTTPClientError>, partial: HTTPClientResponse?) {
        cancelTimer(&overallTimer)
        let writer = download
        download = nil
        let claimed = control.withLock { control -> Bool in
            guard !control.finished else { return false }
            control.finished = true
            return true
        }
        guard claimed else {
            writer?.finish { _ in }
            return
        }
        guard let writer else { return answer(result, partial: partial) }
        // Back on the loop to report, like every other answer, so that a caller sees progress
        // and the answer arrive from one thread, in order.
        let succeeded = if case .success = result { true } else { false }
        writer.finish { [self, loop] error in
            loop.execute { [self] in
                guard let error, machine.downloadClosed(succeeded: succeeded, fileFailed: true) else {
                    return answer(result, partial: partial)
                }
                answer(.failure(.downloadFailed(underlying: error)), partial: nil)
            }
        }
    }

    // MARK: Idle timer

    func touch() {
        lastActivity = .now
    }

    /// Gives the connection's channel its idle deadline: `idleTimeout` after bytes last moved.
    /// The channel keeps a timer armed earlier and arms it again for the rest
    /// (`channelDeadlinePassed()`). While the socket is left unread for a slow file or consumer
    /// there is none (`pauseReading()`), and this is not called: the machine asks for it only
    /// when the timer fires, and the reads resume from now.
    func armIdleTimer() {
        connection?.channel.setDeadline(lastActivity + idleTimeout)
    }

    /// The URL a response to the current request carries: the target's (read once), else the request's.
    var responseURL: URL {
        machine.target?.url ?? machine.request.url
    }

    func makeResponse(_ head: HTTPResponseHead, body: [UInt8], url: URL) -> HTTPClientResponse {
        let file = machine.request.downloadFile
        return HTTPClientResponse(head: head, body: body, url: url,
                                  fileURL: file.flatMap { _ in head.status < 300 || head.status >= 400 ? file : nil })
    }
}
