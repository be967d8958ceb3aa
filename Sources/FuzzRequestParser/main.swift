// libFuzzer entry for the request parser that `FeedServer` runs on every connection;
// `scripts/fuzz.sh request` builds it with `-sanitize=fuzzer` and `-parse-as-library`.
import HTTPWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestParser(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    checkRequests(Array(UnsafeBufferPointer(start: bytes, count: count)))
    return 0
}

/// The invariants: no crash, whatever the bytes and however they are split; the same requests
/// (and the same first error) come out of one feed and of 7-byte feeds; a request that parses
/// serializes to bytes that parse to the same request.
func checkRequests(_ input: [UInt8]) {
    let whole = parseAll([input[...]])
    let chunks = stride(from: 0, to: input.count, by: 7).map { input[$0..<min($0 + 7, input.count)] }
    let split = parseAll(chunks)
    guard split.requests == whole.requests, split.failed == whole.failed else {
        fatalError("byte splits change what parses")
    }
    let parsed = whole.requests

    for request in parsed {
        var again = HTTPRequestParser(maxHeaderBytes: 1 << 20, maxBodyBytes: 1 << 20)
        again.feed(request.serialized())
        guard let reparsed = try? again.nextRequest() else { fatalError("a parsed request does not round-trip") }
        guard reparsed.head.method == request.head.method, reparsed.head.target == request.head.target,
              reparsed.body == request.body else { fatalError("round trip changed the request") }
    }
}

/// Feeds `chunks` in order and takes requests until the bytes run out or the first error.
func parseAll(_ chunks: [ArraySlice<UInt8>]) -> (requests: [HTTPRequest], failed: Bool) {
    var parser = HTTPRequestParser(maxHeaderBytes: 4_096, maxBodyBytes: 65_536)
    var requests: [HTTPRequest] = []
    for chunk in chunks {
        parser.feed(chunk)
        do {
            while let request = try parser.nextRequest() { requests.append(request) }
        } catch {
            return (requests, true)
        }
    }
    return (requests, false)
}
