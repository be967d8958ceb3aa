// libFuzzer entry for the negotiations that open a tunnel through a proxy (`ProxyTunnelMachine`
// for an HTTP proxy's `CONNECT`, `SOCKS5Machine`, `SOCKS4Machine`), which read the proxy's bytes
// before anything of the origin's; `scripts/fuzz.sh tunnel` builds it with
// `-sanitize=fuzzer,address` and `-parse-as-library`. A plain `swift build` links an executable
// that does nothing. The machines are internal: the debug build SwiftPM makes for the fuzzer
// compiles the module for testing, hence `@testable`, and a release build (whose modules are
// not) compiles none of this file.
//
// Each input is one proxy's side of a negotiation:
//   byte 0      bits 0-1: the machine (CONNECT, SOCKS5 without credentials to an address,
//               SOCKS5 with credentials to a name, SOCKS4); bits 2-3: how the stream ends once
//               the bytes run out (the proxy closes, a read fails, the connect deadline passes)
//   byte 1      bits 0-3: the size of the pieces the bytes arrive in, less one; bit 4: a piece
//               arrives while each message is still going out, before the driver says it is out
//   the rest    the bytes the proxy sends
#if DEBUG || FUZZING
@testable import HTTPClient

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProxyTunnel(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: bytes, count: count))
    guard input.count >= 2 else { return 0 }
    let driving = Driving(pieceSize: Int(input[1] & 0x0F) + 1, arrivesWhileSending: input[1] & 0x10 != 0,
                          end: Int(input[0] >> 2) & 3)
    let proxyBytes = input[2...]
    switch input[0] & 3 {
    case 0:
        negotiate(ProxyTunnelMachine(host: "origin.test", port: 443, authorization: "Basic dXNlcjpwYXNz"), proxyBytes, driving)
    case 1:
        negotiate(SOCKS5Machine(destination: .address([127, 0, 0, 1]), port: 8080, credentials: nil), proxyBytes, driving)
    case 2:
        negotiate(SOCKS5Machine(destination: .name("origin.test"), port: 443, credentials: (user: "user", password: "pass")),
                  proxyBytes, driving)
    default:
        negotiate(SOCKS4Machine(address: [10, 0, 0, 1], port: 80, userID: "user"), proxyBytes, driving)
    }
    return 0
}

/// How the driver feeds a machine the proxy's bytes.
struct Driving {
    let pieceSize: Int
    let arrivesWhileSending: Bool
    /// 0: the proxy closes; 1: a read fails; 2 and 3: the connect deadline passes.
    let end: Int
}

/// Drives `machine` as `ProxyTunnel` does, with `proxyBytes` as everything the proxy sends. The
/// invariants, whatever the bytes: no precondition of the machine is hit by a driver that keeps
/// the protocol; `write` comes only with bytes and while sending; `none` and `awaitAnswer` only
/// while negotiating; `established` and `fail` only once negotiating is over, and a failure at
/// the end of the bytes is one of the end's own kinds or one the bytes already caused. Every
/// step either uses a piece of the bytes or follows a write, so it ends.
func negotiate(_ machine: some TunnelNegotiation, _ proxyBytes: ArraySlice<UInt8>, _ driving: Driving) {
    var machine = machine
    var remaining = proxyBytes
    var action = machine.start()
    var writes = 0
    func nextPiece() -> ArraySlice<UInt8> {
        let piece = remaining.prefix(driving.pieceSize)
        remaining = remaining.dropFirst(piece.count)
        return piece
    }
    while true {
        switch action {
        case .write(let bytes):
            guard !bytes.isEmpty, machine.isSending, machine.isNegotiating else { fatalError("write(\(bytes.count) bytes) while not sending") }
            writes += 1
            guard writes <= 4 else { fatalError("more than four messages in one negotiation") }
            if driving.arrivesWhileSending, !remaining.isEmpty {
                let early = machine.received(nextPiece())
                switch early {
                case .none:
                    guard machine.isSending else { fatalError("none after bytes arrived while sending, no longer sending") }
                case .established, .fail:
                    action = early
                    continue
                case .write, .awaitAnswer:
                    fatalError("\(early) while a message is still going out")
                }
            }
            action = machine.written()
        case .none, .awaitAnswer:
            guard machine.isNegotiating, !machine.isSending else { fatalError("\(action) while not awaiting an answer") }
            if remaining.isEmpty {
                action = switch driving.end {
                case 0: machine.endOfStream()
                case 1: machine.readFailed(errno: 104)
                default: machine.timerFired()
                }
                guard case .fail(let failure) = action else { fatalError("\(action) at the end of the stream") }
                let expected: ExchangeFailure = switch driving.end {
                case 0: .connectionLost(errno: nil)
                case 1: .connectionLost(errno: 104)
                default: .timedOut(.connect)
                }
                guard failure == expected else { fatalError("\(failure) at an end that is \(expected)") }
                guard !machine.isNegotiating else { fatalError("still negotiating after failing") }
                return
            }
            action = machine.received(nextPiece())
        case .established:
            guard !machine.isNegotiating else { fatalError("established while negotiating") }
            return
        case .fail(let failure):
            guard !machine.isNegotiating else { fatalError("failed (\(failure)) while negotiating") }
            return
        }
    }
}
#endif
