import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a finished download is moved: given the temporary file and the response, returns the destination.
public typealias DownloadDestination = @Sendable (_ temporaryURL: URL, _ response: HTTPURLResponse) -> URL

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
    /// A raw body plus parameters in the query string.
    case requestCompositeData(bodyData: Data, urlParameters: [String: any Sendable])
    /// Body parameters encoded by `bodyEncoding` plus parameters in the query string.
    case requestCompositeParameters(bodyParameters: [String: any Sendable], bodyEncoding: any ParameterEncoding, urlParameters: [String: any Sendable])
    /// A `multipart/form-data` body built from the parts.
    case uploadMultipart([MultipartFormBodyPart])
    /// The contents of a file as the body.
    case uploadFile(URL)
    /// A download stored where the closure says.
    case downloadDestination(DownloadDestination)
}
