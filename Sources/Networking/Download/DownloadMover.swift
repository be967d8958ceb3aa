import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Moves a download from its temporary file to where its `DownloadDestination` says, as Alamofire
/// does: the destination is asked once the response is complete, its options applied, then the
/// file moved. The temporary file is removed whatever happens.
enum DownloadMover {
    /// A fresh temporary file URL for a download's body.
    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("networking-download-\(UUID().uuidString).tmp")
    }

    /// The result with the file moved: a success becomes a `Response` whose `fileURL` is the
    /// destination; a failure to move is `ProviderError.underlying(error, response)`.
    static func finish(_ result: Result<Response, ProviderError>, temporaryURL: URL,
                       destination: DownloadDestination) -> Result<Response, ProviderError> {
        defer { try? FileManager.default.removeItem(at: temporaryURL) }
        guard case .success(let response) = result else { return result }
        let http = response.response ?? HTTPURLResponse(url: response.request?.url ?? temporaryURL, statusCode: response.statusCode,
                                                        httpVersion: "HTTP/1.1", headerFields: nil)
        guard let http else { return .failure(.underlying(URLError(.badServerResponse), response)) }
        let (destinationURL, options) = destination(temporaryURL, http)
        let files = FileManager.default
        do {
            if options.contains(.createIntermediateDirectories) {
                try files.createDirectory(at: destinationURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            }
            if options.contains(.removePreviousFile), files.fileExists(atPath: destinationURL.path) {
                try files.removeItem(at: destinationURL)
            }
            if !files.fileExists(atPath: temporaryURL.path) {
                // A transport that wrote nothing (an empty body) still yields an empty file.
                _ = files.createFile(atPath: temporaryURL.path, contents: response.data)
            }
            try files.moveItem(at: temporaryURL, to: destinationURL)
        } catch {
            return .failure(.underlying(error, response))
        }
        return .success(Response(statusCode: response.statusCode, data: Data(), request: response.request,
                                 response: response.response, fileURL: destinationURL))
    }
}
