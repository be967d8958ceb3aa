import Foundation

/// Why a `multipart/form-data` body cannot be built (Alamofire's `multipartEncodingFailed` reasons).
public enum MultipartEncodingFailure: Error, Sendable, Equatable {
    /// A file part's URL is not a `file://` URL.
    case fileURLInvalid(URL)
    /// A file part's file does not exist or cannot be read.
    case fileNotReachable(URL)
    /// A file part's URL names a directory.
    case fileIsDirectory(URL)
    /// A file part's size cannot be read.
    case fileSizeNotAvailable(URL)
    /// A part's stream could not be read (or ended before its announced length), or a file
    /// part's file was shorter or longer when the body was read than when it was appended.
    case inputStreamReadFailed
    /// `writeEncodedData(to:)` was given a URL that is not a `file://` URL.
    case outputStreamURLInvalid(URL)
    /// `writeEncodedData(to:)` was given a file that exists already.
    case outputStreamFileAlreadyExists(URL)
    /// `writeEncodedData(to:)` could not create the file (its folder is missing or not writable).
    case outputStreamCreationFailed(URL)
    /// Multipart bodies go with `POST`, `PUT`, `PATCH` or `CONNECT` only (`HTTPMethod.supportsMultipart`).
    case methodDoesNotSupportMultipart(String)
}
