import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a request carries. Named `RequestTask` so it does not shadow Swift's `Task`.
public enum RequestTask: Sendable {
    /// No parameters and no body.
    case requestPlain
    /// A raw body.
    case requestData(Data)
    /// A body encoded with a default `JSONEncoder`; sets `Content-Type: application/json` unless present.
    case requestJSONEncodable(any Encodable & Sendable)
    /// A body encoded with the given encoder; sets `Content-Type: application/json` unless present.
    case requestCustomJSONEncodable(any Encodable & Sendable, encoder: JSONEncoder)
    /// Parameters encoded by `encoding` (query string or body).
    case requestParameters(parameters: [String: any Sendable], encoding: any ParameterEncoding)
    /// An `Encodable` value encoded by a `ParameterEncoder` (Alamofire's `parameters:encoder:`):
    /// `URLEncodedFormParameterEncoder` for a query string or form body, `JSONParameterEncoder`
    /// for a JSON body. Failures are `ProviderError.parameterEncoding`.
    case requestEncodableParameters(parameters: any Encodable & Sendable, encoder: any ParameterEncoder)
    /// A raw body plus parameters in the query string.
    case requestCompositeData(bodyData: Data, urlParameters: [String: any Sendable])
    /// Body parameters encoded by `bodyEncoding` plus parameters in the query string.
    case requestCompositeParameters(bodyParameters: [String: any Sendable], bodyEncoding: any ParameterEncoding, urlParameters: [String: any Sendable])
    /// A file streamed from disk as the body; progress reports the upload.
    case uploadFile(URL)
    /// A `multipart/form-data` body built from the parts, streamed (file parts from disk).
    case uploadMultipart([MultipartFormBodyPart])
    /// A `multipart/form-data` body built by a `MultipartFormData`, streamed.
    case uploadMultipartFormData(MultipartFormData)
    /// A `multipart/form-data` body from the parts plus parameters in the query string.
    case uploadCompositeMultipart([MultipartFormBodyPart], urlParameters: [String: any Sendable])
    /// A `multipart/form-data` body from a `MultipartFormData` plus parameters in the query string.
    case uploadCompositeMultipartFormData(MultipartFormData, urlParameters: [String: any Sendable])
    /// The response body streamed to a file, then moved where `destination` says.
    case downloadDestination(DownloadDestination)
    /// Parameters encoded by `encoding`, and the response body downloaded as `.downloadDestination` does.
    case downloadParameters(parameters: [String: any Sendable], encoding: any ParameterEncoding, destination: DownloadDestination)
}

extension RequestTask {
    /// The destination of a download task, `nil` for other tasks.
    var downloadDestination: DownloadDestination? {
        switch self {
        case .downloadDestination(let destination), .downloadParameters(_, _, let destination): return destination
        default: return nil
        }
    }

    /// Whether the body is an upload whose progress the progress closure reports.
    var isUpload: Bool {
        switch self {
        case .uploadFile, .uploadMultipart, .uploadMultipartFormData, .uploadCompositeMultipart,
             .uploadCompositeMultipartFormData:
            return true
        default:
            return false
        }
    }
}
