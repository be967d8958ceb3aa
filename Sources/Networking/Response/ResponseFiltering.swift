/// Status code filters: each returns the response unchanged or throws `ProviderError.statusCode(self)`.
extension Response {
    /// Passes when the status code is in `statusCodes`.
    public func filter<R: RangeExpression>(statusCodes: R) throws -> Response where R.Bound == Int {
        guard statusCodes.contains(statusCode) else { throw ProviderError.statusCode(self) }
        return self
    }

    /// Passes when the status code is one of `statusCodes`.
    @_disfavoredOverload
    public func filter<S: Sequence>(statusCodes: S) throws -> Response where S.Element == Int {
        guard statusCodes.contains(statusCode) else { throw ProviderError.statusCode(self) }
        return self
    }

    /// Passes when the status code equals `statusCode`.
    public func filter(statusCode: Int) throws -> Response {
        try filter(statusCodes: statusCode...statusCode)
    }

    /// Passes on 2xx.
    public func filterSuccessfulStatusCodes() throws -> Response {
        try filter(statusCodes: 200...299)
    }

    /// Passes on 2xx and 3xx.
    public func filterSuccessfulStatusAndRedirectCodes() throws -> Response {
        try filter(statusCodes: 200...399)
    }
}
