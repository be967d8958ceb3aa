import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one `URLRequest` and reports exactly once, unless cancelled first (then never).
public protocol HTTPTransport: Sendable {
    /// Sends `request`; `progress` receives the download fraction (0...1), or -1 each time bytes
    /// arrive while the size is not known.
    /// Failures are `ProviderError.underlying(error, response)` with the response when one arrived.
    func send(_ request: URLRequest,
              progress: (@Sendable (Double) -> Void)?,
              completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable

    /// Sends `request` with a streamed body, a file for the response body, or progress in both
    /// directions, as `options` says. Reports exactly once, unless cancelled first (then never).
    func send(_ request: URLRequest,
              options: TransportOptions,
              completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable

    /// The header fields this transport adds to `request` on its own (Moya's `sessionHeaders`),
    /// which `NetworkLoggerPlugin` shows beside the request's; fields the request sets win.
    func sessionHeaders(for request: URLRequest) -> [String: String]
}

extension HTTPTransport {
    /// None: a transport written outside this package says nothing about what it adds.
    public func sessionHeaders(for request: URLRequest) -> [String: String] { [:] }

    /// A fallback for transports written outside this package: it reads the upload into
    /// memory, sends it with `send(_:progress:completion:)`, and writes the body to
    /// `downloadFile` afterwards. `SocketTransport` and `URLSessionTransport` stream instead.
    public func send(_ request: URLRequest,
                     options: TransportOptions,
                     completion: @escaping @Sendable (Result<Response, ProviderError>) -> Void) -> any Cancellable {
        var request = request
        switch options.upload {
        case .none: break
        case .data(let data): request.httpBody = data
        case .file(let url):
            do { request.httpBody = try Data(contentsOf: url) } catch {
                completion(.failure(.underlying(error, nil)))
                return FinishedCancellable()
            }
        case .stream(let makeStream, _):
            guard let stream = makeStream() else {
                completion(.failure(.underlying(URLError(.cannotOpenFile), nil)))
                return FinishedCancellable()
            }
            request.httpBody = Data(reading: stream)
        }
        let total = request.httpBody.map { Int64($0.count) }
        let downloadFile = options.downloadFile
        let uploadProgress = options.uploadProgress
        return send(request, progress: options.downloadProgress) { result in
            if let total { uploadProgress?(total, total) }
            guard let downloadFile, case .success(let response) = result else { return completion(result) }
            do {
                try response.data.write(to: downloadFile)
                completion(.success(Response(statusCode: response.statusCode, data: Data(), request: response.request,
                                             response: response.response, fileURL: downloadFile)))
            } catch {
                completion(.failure(.underlying(error, response)))
            }
        }
    }
}

/// The handle for an exchange that ended before it started.
struct FinishedCancellable: Cancellable {
    var isCancelled: Bool { false }
    func cancel() {}
}

extension Data {
    /// Every byte `stream` yields, read in 64 KB chunks.
    init(reading stream: InputStream) {
        self.init()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            append(buffer, count: count)
        }
    }
}
