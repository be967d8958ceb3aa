// `HTTPClient.Configuration.tls` and `HTTPClientError.tls` name the TLS types; a caller that
// imports `HTTPClient` gets them with it.
@_exported import SystemTLS
