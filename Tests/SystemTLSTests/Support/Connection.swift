@testable import SystemTLS
import XCTest

/// A client and a server machine joined in memory.
struct Connection {
    let client: Endpoint
    let server: Endpoint

    /// Starts both machines and moves bytes both ways until neither writes any more, `chunk`
    /// bytes per `receive` (all at once when `nil`).
    init(client: TLSMachine, server: TLSMachine, chunk: Int? = nil) {
        self.client = Endpoint(client)
        self.server = Endpoint(server)
        self.server.perform(server.start())
        self.client.perform(client.start())
        pump(chunk: chunk)
    }

    /// Moves written bytes to the other end until both are quiet (bounded).
    func pump(chunk: Int? = nil) {
        for _ in 0..<1_000 {
            let toServer = client.takeOutbox()
            let toClient = server.takeOutbox()
            if toServer.isEmpty && toClient.isEmpty { return }
            deliver(toServer, to: server, chunk: chunk)
            deliver(toClient, to: client, chunk: chunk)
        }
        XCTFail("the machines kept writing to each other")
    }

    private func deliver(_ bytes: [UInt8], to endpoint: Endpoint, chunk: Int?) {
        guard !bytes.isEmpty else { return }
        let size = chunk ?? bytes.count
        for start in stride(from: 0, to: bytes.count, by: size) {
            endpoint.perform(endpoint.machine.receive(ciphertext: bytes[start..<min(start + size, bytes.count)]))
        }
    }
}
