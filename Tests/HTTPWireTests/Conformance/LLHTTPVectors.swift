import Foundation
import XCTest

/// The llhttp test vectors (`../shared/fixtures/llhttp/vectors.json` from the repository root):
/// raw bytes and what llhttp, Node.js's parser, makes of them.
struct LLHTTPVectors: Decodable {
    /// One test case of llhttp's markdown test files.
    struct Vector: Decodable {
        let file: String
        let name: String
        let location: String
        let kind: String
        let mode: String
        let raw: String
        let expect: Expectation

        /// The bytes to parse.
        var bytes: [UInt8] { Data(base64Encoded: raw).map { [UInt8]($0) } ?? [] }
    }

    /// What llhttp reported: its messages, then the error that stopped it, if any.
    struct Expectation: Decodable {
        let messages: [Message]
        let error: ParseError?
    }

    /// One message as llhttp saw it.
    struct Message: Decodable, Equatable {
        let complete: Bool
        let headers: [[String]]
        /// The body, base64 in the file and decoded here.
        let body: [UInt8]
        let method: String?
        let url: String?
        let statusCode: Int?

        private enum CodingKeys: String, CodingKey { case complete, headers, body, method, url, statusCode }

        init(complete: Bool, headers: [[String]], body: [UInt8], method: String?, url: String?, statusCode: Int?) {
            (self.complete, self.headers, self.body) = (complete, headers, body)
            (self.method, self.url, self.statusCode) = (method, url, statusCode)
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            complete = try container.decode(Bool.self, forKey: .complete)
            headers = try container.decode([[String]].self, forKey: .headers)
            let text = try container.decode(String.self, forKey: .body)
            body = Data(base64Encoded: text).map { [UInt8]($0) } ?? Array(text.utf8)
            method = try container.decodeIfPresent(String.self, forKey: .method)
            url = try container.decodeIfPresent(String.self, forKey: .url)
            statusCode = try container.decodeIfPresent(Int.self, forKey: .statusCode)
        }

        /// An interim (1xx other than 101) response, which a client parser skips.
        var isInterim: Bool { statusCode.map { (100..<200).contains($0) && $0 != 101 } ?? false }
    }

    /// llhttp's error code, reason and offset.
    struct ParseError: Decodable {
        let code: Int
        let reason: String

        /// `HPE_PAUSED`, `HPE_PAUSED_UPGRADE` and `HPE_PAUSED_H2_UPGRADE` stop the parser without
        /// calling the input malformed (a CONNECT or an Upgrade hands the rest to another protocol).
        var isPause: Bool { (21...23).contains(code) }
    }

    let vectors: [Vector]

    /// Where the fixture lives relative to this file: `Tests/HTTPWireTests/Conformance/` is three
    /// levels under the repository root, and `shared/` sits beside the repository.
    static let fileURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("../shared/fixtures/llhttp/vectors.json").standardizedFileURL

    /// The strict vectors of `kind`, or a skip that says where the fixture was looked for.
    static func strict(kind: String) throws -> [Vector] {
        guard let data = try? Data(contentsOf: fileURL) else {
            throw XCTSkip("llhttp vectors not found at ../shared/fixtures/llhttp/vectors.json (beside the repository root); see the README.md there")
        }
        return try JSONDecoder().decode(LLHTTPVectors.self, from: data).vectors.filter { $0.kind == kind && $0.mode == "strict" }
    }
}
