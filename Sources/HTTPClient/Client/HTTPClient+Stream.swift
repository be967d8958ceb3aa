extension HTTPClient {
    /// The most body bytes a streamed response holds unread before its connection is left
    /// unread until the consumer catches up.
    public static let streamingBufferLimit = 256 * 1024

    /// Sends `request` and answers at the final response's head (after the redirects it
    /// follows), with its body to read as it arrives: see `HTTPClientStreamingResponse`. Throws
    /// what ends the exchange before the head (`.cancelled` when the calling task is cancelled,
    /// which also closes the connection). The request's deadline (or the client's overall one)
    /// bounds the body too; `maximumResponseSize` does not (the consumer decides, or
    /// `collect(upTo:)`). The request's `decompression` holds as for `execute`: unless it is
    /// `.disabled`, `Accept-Encoding: gzip, deflate` is asked for (when the request names none)
    /// and the body decoded as it arrives, within its limit (a ratio counts the compressed bytes
    /// received so far), failing with `.decompressionLimitExceeded` past it.
    public func stream(_ request: HTTPClientRequest) async throws(HTTPClientError) -> HTTPClientStreamingResponse {
        let stream = ResponseBodyStream(limit: Self.streamingBufferLimit, decompression: request.decompression)
        var request = delivering(request)
        // The exchange asks for compression only for a body it keeps; this one is decoded by `stream`.
        if request.asksForCompression, !request.headers.contains("Accept-Encoding") {
            request.headers.add(name: "Accept-Encoding", value: Self.acceptedEncodings)
        }
        request.responseStream = stream
        let task = start(request) { result, partial in
            stream.end(result.map { _ in () }, timings: (try? result.get())?.timings ?? partial?.timings)
        }
        stream.started(task)
        let head = try await stream.head().get()
        return HTTPClientStreamingResponse(head: head, url: stream.url ?? request.url, stream: stream)
    }
}
