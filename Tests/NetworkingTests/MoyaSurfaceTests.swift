import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import TestSupport
import XCTest

/// Moya 15's names that Moya's suite reaches for: `MultipartFormData`'s `parts`, `boundary`,
/// `fileManager` and array literal, the `.stream` part, and `RequestType.cURLDescription(calling:)`.
final class MoyaSurfaceTests: LeakCheckingTestCase {
    private let crlf = "\r\n"

    func testFormFromAnArrayLiteralKeepsItsPartsInOrder() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("surface-\(UUID().uuidString).txt")
        try Data("file body".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let stream = InputStream(data: Data("streamed".utf8))
        let form: MultipartFormData = [
            MultipartFormBodyPart(provider: .data(Data("Ann".utf8)), name: "name"),
            MultipartFormBodyPart(provider: .file(file), name: "doc"),
            MultipartFormBodyPart(provider: .stream(stream, 8), name: "s", fileName: "s.bin", mimeType: "application/octet-stream"),
        ]
        XCTAssertEqual(form.parts, [
            MultipartFormBodyPart(provider: .data(Data("Ann".utf8)), name: "name"),
            MultipartFormBodyPart(provider: .file(file), name: "doc", fileName: file.lastPathComponent, mimeType: "text/plain"),
            MultipartFormBodyPart(provider: .stream(stream, 8), name: "s", fileName: "s.bin", mimeType: "application/octet-stream"),
        ], "a file part with the name and type it is sent with")
        XCTAssertTrue(form.boundary.hasPrefix("networking.boundary."), "a random boundary when none is given")
        let text = String(decoding: try form.encode(), as: UTF8.self)
        let b = form.boundary
        XCTAssertEqual(text, "--\(b)\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nAnn"
            + "\r\n--\(b)\r\nContent-Disposition: form-data; name=\"doc\"; filename=\"\(file.lastPathComponent)\"\r\nContent-Type: text/plain\r\n\r\nfile body"
            + "\r\n--\(b)\r\nContent-Disposition: form-data; name=\"s\"; filename=\"s.bin\"\r\nContent-Type: application/octet-stream\r\n\r\nstreamed"
            + "\r\n--\(b)--\r\n")
    }

    func testMoyasInitializerTakesTheBoundaryAndTheFileManager() throws {
        let parts = [MultipartFormBodyPart(provider: .data(Data("v".utf8)), name: "k")]
        let form = MultipartFormData(boundary: "fixed", parts: parts)
        XCTAssertEqual(form.boundary, "fixed")
        XCTAssertEqual(form.parts, parts)
        XCTAssertEqual(form.contentType, "multipart/form-data; boundary=fixed")
        XCTAssertEqual(String(decoding: try form.encode(), as: UTF8.self),
                       "--fixed\r\nContent-Disposition: form-data; name=\"k\"\r\n\r\nv\r\n--fixed--\r\n")
        XCTAssertNotEqual(MultipartFormData(parts: parts).boundary, MultipartFormData(parts: parts).boundary)
        XCTAssertEqual(MultipartFormData(parts: []).parts, [])

        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")
        let manager = FileManager()
        XCTAssertTrue(MultipartFormData(fileManager: manager, parts: []).fileManager === manager)
        XCTAssertTrue(MultipartFormData().fileManager === FileManager.default)
        let unseen = MultipartFormData(parts: [MultipartFormBodyPart(provider: .file(missing), name: "f")])
        XCTAssertEqual(unseen.parts, [], "a missing file is not a part")
        XCTAssertThrowsError(try unseen.encode()) { error in
            XCTAssertEqual(error as? MultipartEncodingFailure, .fileNotReachable(missing))
        }
    }

    func testAppendingMoyaPartsAndAlamofireCallsGivesTheSameParts() {
        let form = MultipartFormData(boundary: "b")
        form.append(Data("1".utf8), withName: "a", fileName: "a.txt", mimeType: "text/plain")
        form.append(MultipartFormBodyPart(provider: .data(Data("2".utf8)), name: "b"))
        XCTAssertEqual(form.parts.map(\.name), ["a", "b"])
        XCTAssertEqual(form.parts.first, MultipartFormBodyPart(provider: .data(Data("1".utf8)), name: "a", fileName: "a.txt", mimeType: "text/plain"))
        let typed: MultipartFormData.FormDataProvider = .data(Data())
        XCTAssertEqual(typed, MultipartFormBodyPart.Provider.data(Data()))
    }

    /// A stream part is read once, as Alamofire's: a second `encode()` of the form fails
    /// (Alamofire: `AFError.multipartEncodingFailed(.inputStreamReadFailed)`), while a form of
    /// data and file parts encodes again with the same bytes.
    func testAFormWithAStreamPartEncodesOnce() throws {
        let form = MultipartFormData(boundary: "b")
        form.append(InputStream(data: Data("once".utf8)), withLength: 4, name: "s", fileName: "s", mimeType: "text/plain")
        let first = try form.encode()
        XCTAssertEqual(String(decoding: first, as: UTF8.self),
                       "--b\r\nContent-Disposition: form-data; name=\"s\"; filename=\"s\"\r\nContent-Type: text/plain\r\n\r\nonce\r\n--b--\r\n")
        XCTAssertThrowsError(try form.encode()) { error in
            XCTAssertEqual(error as? MultipartEncodingFailure, .inputStreamReadFailed)
        }
        let data = MultipartFormData(boundary: "b")
        data.append(Data("again".utf8), name: "d")
        XCTAssertEqual(try data.encode(), try data.encode())
    }

    func testCURLDescriptionIsAlamofiresFormWithNothingMasked() throws {
        var request = URLRequest(url: URL(string: "https://api.github.com/zen?token=t1")!)
        request.httpMethod = "POST"
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(#"{"a":"b"}"#.utf8)
        let prepared = PreparedRequest(request: request, sessionHeaders: ["Accept-Language": "en"])
        var described: [String] = []
        let returned = prepared.cURLDescription { described.append($0) }
        XCTAssertEqual(described, ["""
            $ curl -v \\
            \t-X POST \\
            \t-H "Accept-Language: en" \\
            \t-H "Authorization: Bearer secret" \\
            \t-d "{\\"a\\":\\"b\\"}" \\
            \t"https://api.github.com/zen?token=t1"
            """], "a RequestType's own description hides nothing; the logger's masks")
        XCTAssertEqual(returned.request, request)
        var invalid: [String] = []
        PreparedRequest(request: nil).cURLDescription { invalid.append($0) }
        XCTAssertEqual(invalid, ["$ curl command could not be created"])
        let logged = NetworkLoggerPlugin().curl(request, sessionHeaders: ["Accept-Language": "en"])
        XCTAssertTrue(logged.contains("-H \"Authorization: <redacted>\""), logged)
    }

    func testACustomRequestTypesDescriptionIsItsOwn() {
        struct Custom: RequestType {
            var request: URLRequest? { nil }
            var sessionHeaders: [String: String] { [:] }
            func cURLDescription(calling handler: @escaping (String) -> Void) -> Custom {
                handler("$ curl -i")
                return self
            }
        }
        var described: [String] = []
        let generic: any RequestType = Custom()
        generic.cURLDescription { described.append($0) }
        XCTAssertEqual(described, ["$ curl -i"])
    }
}
