import FeedServer
import Foundation
import Networking
import TestSupport
import XCTest

/// The fault matrix over TLS: every fault of the plain matrix through `SocketTransport` against
/// `FeedServer` serving the fixture `localhost`, and the faults only TLS has, each produced for
/// real: a connection ending inside a record and one cut after the head (both without
/// `close_notify`, in the plain list as `cut-record` and `half`), a reset in the middle of the
/// handshake, a handshake left unanswered past the connect deadline, a body delimited by the
/// connection's end cut without `close_notify` (over plain HTTP no client can tell that cut).
extension FaultMatrixTests {
    static let tlsFaults: [Fault] = [
        Fault(name: "reset during the TLS handshake", path: "echo", expected: .lostConnection,
              answerer: .tlsScript(.resetMidHandshake)),
        Fault(name: "TLS handshake unanswered past the connect deadline", path: "echo", expected: .connectTimeout,
              answerer: .tlsScript(.stallHandshake)),
        Fault(name: "close-delimited body cut without close_notify", path: "until-close/5000/1200", expected: .lostConnection),
    ]

    func testEveryFaultThroughSocketTransportOverTLS() throws {
        try TLSFixtures.skipUnlessTLSLoads()
        // The connect deadline (which bounds the handshake) ends before the overall one.
        try runMatrix(transportName: "SocketTransport over TLS", faults: Self.faults + Self.tlsFaults, tls: TLSFixtures.server()) {
            SocketTransport(configuration: .init(connectTimeout: .seconds(2), idleTimeout: .seconds(1), overallDeadline: .seconds(3),
                                                 tls: TLSFixtures.client))
        }
    }
}
