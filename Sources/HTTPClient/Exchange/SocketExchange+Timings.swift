/// Answering with the request's timings: the one place they are stamped `finished` and attached.
extension SocketExchange {
    /// Calls the completion (and the request's `timingsHandler`) with `result`, the responses
    /// carrying the timings.
    func answer(_ result: Result<HTTPClientResponse, HTTPClientError>, partial: HTTPClientResponse?) {
        timings.moments.finished = .now
        let timings = self.timings
        machine.request.timingsHandler?(timings)
        completion(result.map { $0.with(timings) }, partial?.with(timings))
    }
}
