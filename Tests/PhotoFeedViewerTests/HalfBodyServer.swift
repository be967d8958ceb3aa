import Foundation
import HTTPWire

/// A one-shot loopback server that answers the first request with a 200 announcing
/// `Content-Length: 4000` and sends only the first part of a feed, then closes.
final class HalfBodyServer: Sendable {
    let port: UInt16
    private let listener: TCPSocket
    private let done = DispatchSemaphore(value: 0)

    init() throws {
        listener = try TCPSocket.listen(host: "127.0.0.1", port: 0)
        port = try listener.localPort()
        let listener = self.listener
        let done = self.done
        Thread {
            defer { done.signal() }
            guard let client = try? listener.accept(timeout: .seconds(20)) else { return }
            defer { client.close() }
            var request: [UInt8] = []
            while !String(decoding: request, as: UTF8.self).contains("\r\n\r\n") {
                guard let bytes = try? client.read(timeout: .seconds(10)), !bytes.isEmpty else { return }
                request += bytes
            }
            let part = #"{"title":"Uploads","link":"https://www.flickr.com/","items":[{"title":"cut"#
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n"
            try? client.write(Array((head + part).utf8), timeout: .seconds(5))
        }.start()
    }

    var baseURL: String { "http://127.0.0.1:\(port)/" }

    /// Waits for the answer to be sent and closes the listener.
    func stop() {
        _ = done.wait(timeout: .now() + 25)
        listener.close()
    }
}
