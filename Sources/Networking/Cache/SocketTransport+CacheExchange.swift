import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPWire

extension SocketTransport {
    /// What the session layer does around one exchange of `request` answered by `head` and
    /// `body`, without the network: the cache's decision, then, when the request would be sent,
    /// the answer built as the transport builds it and handed to the cache. The status the caller
    /// would get (-1 when the cache refuses to load): what the benchmarks time of the cache's work.
    package func sessionAnswer(for request: URLRequest, head: HTTPResponseHead, body: Data) -> Int {
        guard let url = request.url else { return -1 }
        switch SessionExchange.start(request, url: url, options: session, downloading: false, uploading: false) {
        case .answer(let result):
            return (try? result.get())?.statusCode ?? -1
        case .send(let exchange):
            let response = Response(statusCode: head.status, data: body, request: request, url: url, version: head.version,
                                    headers: head.headers, fileURL: nil, timings: nil)
            return exchange.finished(response, head: head).statusCode
        }
    }
}
