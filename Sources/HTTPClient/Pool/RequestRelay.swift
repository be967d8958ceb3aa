import EventLoopIO

/// The owner of a connection's channel while a request uses it: passes the channel's readiness
/// and timer on to that request (`SocketExchange`), held strongly from when it takes the
/// connection over until it lets go of it (`Connection.useFor(_:)`, `Connection.letGo(of:)`).
/// One a connection, made on its first request and kept: the channel's weak reference to its
/// owner then points here, so a request's exchange never gets a weak reference's side table.
final class RequestRelay: ChannelHandler {
    /// The request using the connection, until it lets go.
    var exchange: SocketExchange?

    func socketReadable() {
        exchange?.socketReadable()
    }

    func socketWritable() {
        exchange?.socketWritable()
    }

    func channelDeadlinePassed() {
        exchange?.channelDeadlinePassed()
    }
}
