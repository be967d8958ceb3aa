// `FeedServer.Configuration.tls` names the TLS types; a caller that imports `FeedServer` gets
// them with it.
@_exported import SystemTLS
