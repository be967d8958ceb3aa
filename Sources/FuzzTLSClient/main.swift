// libFuzzer entry for the TLS client machine (`TLSMachine`); `scripts/fuzz.sh tls` builds it with
// `-sanitize=fuzzer,address` and `-parse-as-library`, so libFuzzer supplies `main`. A plain
// `swift build` links an executable that does nothing.
//
// Each input is a "server" cut in: a real server (a `TLSMachine` serving the test fixtures)
// answers the client record by record up to a step the input picks, then the rest of the input
// reaches the client in place of the server's bytes, then the end of the stream.
//   byte 0      the step (modulo 16): how many of the real server's records the client gets first
//   byte 1      bit 0: the server stops at TLS 1.2; bits 1-7: the size of the pieces the
//               fuzzed bytes arrive in (0: all at once)
//   the rest    the fuzzed "server" bytes
import Foundation
import SystemTLS

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTLSClient(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    checkClient(Array(UnsafeBufferPointer(start: bytes, count: count)))
    return 0
}

/// The fixtures' contexts, made once: a client trusting the test CA and two servers.
enum Contexts {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Tests/Fixtures/TLS").standardizedFileURL.path

    static let client = make { try TLSClientContext(configuration: TLSConfiguration(trustRoots: .pemFile("\(fixtures)/ca.pem"))) }
    static let server13 = make { try TLSServerContext(configuration: server(maximum: nil)) }
    static let server12 = make { try TLSServerContext(configuration: server(maximum: .v1_2)) }

    private static func server(maximum: TLSVersion?) -> TLSServerConfiguration {
        TLSServerConfiguration(certificateChain: .pemFile("\(fixtures)/localhost.pem"), privateKey: .pemFile("\(fixtures)/localhost.key"),
                               maximumVersion: maximum)
    }

    private static func make<Context>(_ body: () throws -> Context) -> Context {
        do {
            return try body()
        } catch {
            fatalError("the fuzz target needs the fixtures in Tests/Fixtures/TLS and the system's OpenSSL: \(error)")
        }
    }
}

/// The invariants: no crash and no sanitizer report, whatever the bytes and however they are
/// split; bytes that are not the server's never complete a handshake nor deliver plaintext (they
/// cannot carry the server's keys); once the stream ends the client has reported exactly one
/// end (`.failed` or `.closed`), and nothing after it.
func checkClient(_ input: [UInt8]) {
    guard input.count >= 2 else { return }
    let step = Int(input[0] % 16)
    let server = input[1] & 1 == 1 ? Contexts.server12 : Contexts.server13
    let piece = Int(input[1] >> 1)
    let fuzzed = input[2...]

    guard let client = try? TLSMachine(client: Contexts.client, host: "localhost"),
          let live = try? TLSMachine(server: server) else { fatalError("a machine could not be made") }
    var log = ClientLog()
    log.record(client.start())
    var toServer = log.takeWrites()
    var delivered = 0
    var answered = false
    exchange: while delivered < step {
        var fromServer = TLSRecords.split(written(live.receive(ciphertext: toServer)))
        toServer = []
        if live.state == .established, !answered {
            answered = true
            fromServer += TLSRecords.split(written(live.send(plaintext: Array("HTTP/1.1 200 OK\r\n\r\n".utf8)) + live.close()))
        }
        if fromServer.isEmpty { break }
        for record in fromServer {
            guard delivered < step else { break exchange }
            log.record(client.receive(ciphertext: record))
            delivered += 1
        }
        toServer = log.takeWrites()
    }

    let genuine = log.events.count
    let size = piece == 0 ? max(fuzzed.count, 1) : piece
    for start in stride(from: fuzzed.startIndex, to: fuzzed.endIndex, by: size) {
        log.record(client.receive(ciphertext: fuzzed[start..<min(start + size, fuzzed.endIndex)]))
    }
    log.record(client.receiveEndOfStream())
    for event in log.events[genuine...] {
        switch event {
        case .handshakeCompleted: fatalError("bytes that are not the server's completed a handshake")
        case .deliver: fatalError("bytes that are not the server's delivered plaintext")
        case .closed, .failed: break
        }
    }
    let ends = log.events.filter { if case .closed = $0 { true } else if case .failed = $0 { true } else { false } }
    guard ends.count == 1, let last = log.events.last, ends[0] == last else {
        fatalError("one end expected, last: \(log.events)")
    }
}

/// The ciphertext in `actions`.
func written(_ actions: [TLSMachine.Action]) -> [UInt8] {
    actions.flatMap { action -> [UInt8] in
        if case .write(let bytes) = action { bytes } else { [] }
    }
}

/// What the client reported, writes apart.
struct ClientLog {
    enum Event: Equatable {
        case handshakeCompleted, deliver, closed(TLSMachine.Closure), failed(TLSFailure)
    }

    var events: [Event] = []
    private var writes: [UInt8] = []

    mutating func record(_ actions: [TLSMachine.Action]) {
        for action in actions {
            switch action {
            case .write(let bytes): writes += bytes
            case .deliver: events.append(.deliver)
            case .handshakeCompleted: events.append(.handshakeCompleted)
            case .closed(let closure): events.append(.closed(closure))
            case .failed(let failure): events.append(.failed(failure))
            }
        }
    }

    mutating func takeWrites() -> [UInt8] {
        defer { writes = [] }
        return writes
    }
}

/// Splits a TLS byte stream into records (a 5-byte header whose last two bytes give the length).
enum TLSRecords {
    static func split(_ bytes: [UInt8]) -> [[UInt8]] {
        var records: [[UInt8]] = []
        var index = 0
        while index + 5 <= bytes.count {
            let end = min(bytes.count, index + 5 + (Int(bytes[index + 3]) << 8) + Int(bytes[index + 4]))
            records.append(Array(bytes[index..<end]))
            index = end
        }
        return records
    }
}
