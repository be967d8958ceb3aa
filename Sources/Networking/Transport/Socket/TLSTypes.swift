// `SocketTransport.Configuration.tls` and `TransportError.tls` name the TLS types; a caller that
// imports `Networking` gets them with it.
@_exported import SystemTLS
