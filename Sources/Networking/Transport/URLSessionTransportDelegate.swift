import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking
import Synchronization

/// Routes URLSession delegate callbacks to the exchange of each task (response, body bytes,
/// download progress and file, upload progress); an exchange is removed exactly once
/// (completion, failure, deadline or cancel), so each reports at most once.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, URLSessionDownloadDelegate, Sendable {
    private let exchanges = Lock<[Int: URLSessionExchange]>([:])

    func register(_ exchange: URLSessionExchange, for identifier: Int) {
        exchanges.withLock { $0[identifier] = exchange }
    }

    @discardableResult
    func remove(_ identifier: Int) -> URLSessionExchange? {
        exchanges.withLock { $0.removeValue(forKey: identifier) }
    }

    private func exchange(_ identifier: Int) -> URLSessionExchange? {
        exchanges.withLock { $0[identifier] }
    }

    /// Ends the exchange with `error` (if it is still running) and cancels its task.
    func fail(_ identifier: Int, with error: ProviderError) {
        guard let exchange = remove(identifier) else { return }
        exchange.task.cancel()
        exchange.closeFile()
        exchange.completion(.failure(error))
    }

    /// URLSession's own timeout (-1001, its idle timeout `timeoutInterval`) as the socket transport
    /// reports one, naming the host and the wait; a libcurl failure that arrives with another code
    /// than Apple's URLSession gives it (an empty reply, a body cut short, bytes that are not HTTP,
    /// an untrusted certificate: `URLSessionFailureMapping.appleCode(for:)`) with Apple's code, the
    /// one the socket transport gives too (libcurl's message kept, its nested error with the old
    /// code left out); every other error as it came.
    private static func naming(_ error: any Error, of request: URLRequest) -> any Error {
        if let urlError = ErrorClassification.asURLError(error), let code = URLSessionFailureMapping.appleCode(for: urlError) {
            var userInfo = urlError.userInfo
            userInfo[NSUnderlyingErrorKey] = nil
            return URLError(code, userInfo: userInfo)
        }
        guard ErrorClassification.asURLError(error)?.code == .timedOut, request.timeoutInterval > 0 else { return error }
        let after = Duration.milliseconds(Int64(min(request.timeoutInterval, 1e9) * 1000))
        return TransportError.timedOut(.idle, after: after, endpoint: TransportError.endpoint(of: request.url))
    }

    /// Ends the exchange with `timeout` (a `TransportError.timedOut`) and whatever response
    /// arrived, if it is still running.
    func expire(_ identifier: Int, with timeout: TransportError) {
        guard let exchange = remove(identifier) else { return }
        exchange.task.cancel()
        exchange.closeFile()
        exchange.completion(.failure(.underlying(timeout, exchange.currentResponse)))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let exchange = exchange(dataTask.taskIdentifier) else {
            completionHandler(.cancel)
            return
        }
        if exchange.receive(response) {
            completionHandler(.allow)
        } else {
            completionHandler(.cancel)
            fail(dataTask.taskIdentifier, with: .underlying(TransportError.responseTooLarge(limit: exchange.limit), exchange.currentResponse))
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(dataTask.taskIdentifier) else { return }
        if !exchange.receive(data) {
            let error: any Error = exchange.fileFailure ?? TransportError.responseTooLarge(limit: exchange.limit)
            fail(dataTask.taskIdentifier, with: .underlying(error, exchange.currentResponse))
        }
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
                    totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64) {
        exchange(downloadTask.taskIdentifier)?.wrote(totalBytesWritten, expected: totalBytesExpectedToWrite)
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        exchange(downloadTask.taskIdentifier)?.finishDownload(at: location, response: downloadTask.response)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                    totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        exchange(task.taskIdentifier)?.sent(totalBytesSent, expected: totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = remove(task.taskIdentifier) else { return }
        exchange.closeFile()
        exchange.record(task.response)
        let response = exchange.currentResponse
        if let error {
            exchange.completion(.failure(.underlying(Self.naming(error, of: exchange.request), response)))
        } else if let failure = exchange.fileFailure {
            exchange.completion(.failure(.underlying(failure, response)))
        } else if let response {
            exchange.completion(.success(response))
        } else {
            exchange.completion(.failure(.underlying(TransportError.notHTTPResponse, nil)))
        }
    }
}
