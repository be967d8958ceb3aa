import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an upload endpoint sends, made when its request is sent through a transport, in the
/// order Moya's goes through Alamofire's upload request: `urlRequest()` neither builds nor checks
/// it; before plugins' `prepare` the form is made and its `Content-Type` set (a method that cannot
/// carry a form fails there), and after their `willSend` the body is opened (a file that cannot be
/// read or a form that cannot be built fails there).
enum EndpointUpload: Sendable {
    /// A file read from disk as it is sent.
    case file(URL)
    /// A multipart form, streamed part by part.
    case form(MultipartFormData)

    /// The `Content-Type` the body needs: a form's, naming its boundary.
    var contentType: String? {
        switch self {
        case .file: return nil
        case .form(let form): return form.contentType
        }
    }

    /// `request` with the body's `Content-Type` (replacing one set before, as Alamofire's
    /// multipart upload does).
    func prepared(_ request: URLRequest) -> URLRequest {
        guard let contentType else { return request }
        var request = request
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        return request
    }

    /// Where the transport reads the body from. Throws `ProviderError.underlying` with the file
    /// system's error for a file that cannot be read, or the form's `MultipartEncodingFailure`.
    func source() throws -> UploadSource {
        switch self {
        case .file(let file):
            do {
                _ = try FileManager.default.attributesOfItem(atPath: file.path)
            } catch {
                throw ProviderError.underlying(error, nil)
            }
            return .file(file)
        case .form(let form):
            do {
                return try form.bodyStream().uploadSource
            } catch {
                throw ProviderError.underlying(error, nil)
            }
        }
    }
}

extension Endpoint {
    /// The upload of an upload task, `nil` for any other task. Throws
    /// `ProviderError.underlying(MultipartEncodingFailure.methodDoesNotSupportMultipart, nil)` for a
    /// form whose method cannot carry it (`supportsMultipart`), which Moya stops the program for.
    func upload() throws -> EndpointUpload? {
        switch task {
        case .uploadFile(let file):
            return .file(file)
        case .uploadMultipart(let parts), .uploadCompositeMultipart(let parts, _):
            return try multipartUpload(MultipartFormData(parts: parts))
        case .uploadMultipartFormData(let form), .uploadCompositeMultipartFormData(let form, _):
            return try multipartUpload(form)
        default:
            return nil
        }
    }

    private func multipartUpload(_ form: MultipartFormData) throws -> EndpointUpload {
        guard method.supportsMultipart else {
            throw ProviderError.underlying(MultipartEncodingFailure.methodDoesNotSupportMultipart(method.rawValue), nil)
        }
        return .form(form)
    }
}
