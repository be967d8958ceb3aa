extension HTTPClient {
    /// The most body bytes a streamed response holds unread before its connection is left
    /// unread until the consumer catches up.
    public static let streamingBufferLimit = 256 * 1024

    /// Sends `request` and answers at the final response's head (after the redirects it
    /// follows), with its body to read as it arrives: see `HTTPClientStreamingResponse`. Throws
    /// what ends the exchange before the head (`.cancelled` when the calling task is cancelled,
    /// which also closes the connection). The request's deadline (or the client's overall one)
    /// bounds the body too; `maximumResponseSize` does not (the consumer decides, or
    /// `collect(upTo:)`); no compression is asked for.
    public func stream(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientStreamingResponse {
        let stream = ResponseBodyStream(limit: Self.streamingBufferLimit)
        var request = delivering(request)
        request.responseStream = stream
        let task = start(request) { result, partial in
            stream.end(result.map { _ in () }, timings: (try? result.get())?.timings ?? partial?.timings)
        }
        stream.started(task)
        let head = try await stream.head().get()
        return HTTPClientStreamingResponse(head: head, url: stream.url ?? request.url, stream: stream)
    }
}
