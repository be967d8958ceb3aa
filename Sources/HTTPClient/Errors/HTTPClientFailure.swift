/// An `HTTPClientError` with the response head (and body so far) when one arrived: what the
/// client's loop-side entry reports, so that an adapter can keep the partial response.
package struct HTTPClientFailure: Error {
    /// What went wrong.
    package let error: HTTPClientError
    /// The response received before the failure (a refused redirect, a body that failed to decode,
    /// a head followed by a broken body), if any.
    package let response: HTTPClientResponse?

    package init(_ error: HTTPClientError, response: HTTPClientResponse? = nil) {
        self.error = error
        self.response = response
    }
}
