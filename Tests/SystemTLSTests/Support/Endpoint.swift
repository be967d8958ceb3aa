@testable import SystemTLS
import XCTest

/// One end of an in-memory connection: its machine, the ciphertext it wrote that the peer has
/// not received yet, and everything else its machine reported, in order.
final class Endpoint {
    /// What the machine reported, writes left out.
    enum Event: Equatable {
        case data(Int)
        case handshake(TLSHandshake)
        case closed(TLSMachine.Closure)
        case failed(TLSFailure)
    }

    let machine: TLSMachine
    /// Ciphertext written for the peer, oldest first.
    var outbox: [[UInt8]] = []
    /// All plaintext delivered.
    var received: [UInt8] = []
    var events: [Event] = []

    init(_ machine: TLSMachine) {
        self.machine = machine
    }

    var handshake: TLSHandshake? {
        events.lazy.compactMap { if case .handshake(let h) = $0 { h } else { nil } }.first
    }

    var failure: TLSFailure? {
        events.lazy.compactMap { if case .failed(let f) = $0 { f } else { nil } }.first
    }

    var closure: TLSMachine.Closure? {
        events.lazy.compactMap { if case .closed(let c) = $0 { c } else { nil } }.first
    }

    /// Performs `actions` as a driver would.
    func perform(_ actions: [TLSMachine.Action]) {
        for action in actions {
            switch action {
            case .write(let bytes):
                XCTAssertFalse(bytes.isEmpty, "a write carries bytes")
                outbox.append(bytes)
            case .deliver(let bytes):
                XCTAssertFalse(bytes.isEmpty, "a delivery carries bytes")
                received.append(contentsOf: bytes)
                events.append(.data(bytes.count))
            case .handshakeCompleted(let handshake):
                events.append(.handshake(handshake))
            case .closed(let closure):
                events.append(.closed(closure))
            case .failed(let failure):
                events.append(.failed(failure))
            }
        }
    }

    /// Takes the ciphertext written so far.
    func takeOutbox() -> [UInt8] {
        defer { outbox = [] }
        return outbox.flatMap { $0 }
    }
}
