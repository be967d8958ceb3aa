/// The MIME type of a file from its extension, for multipart file parts that name none:
/// common types as Apple's type system (which Alamofire asks) reports them, else
/// `application/octet-stream`.
public enum MIMEType {
    /// `application/octet-stream`, for extensions not in the table.
    public static let fallback = "application/octet-stream"

    /// The type for `pathExtension` (case-insensitive, without the dot).
    public static func forPathExtension(_ pathExtension: String) -> String {
        table[pathExtension.lowercased()] ?? fallback
    }

    private static let table: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
        "heic": "image/heic", "heif": "image/heif", "webp": "image/webp", "tif": "image/tiff",
        "tiff": "image/tiff", "bmp": "image/bmp", "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon",
        "pdf": "application/pdf", "json": "application/json", "xml": "application/xml",
        "zip": "application/zip", "gz": "application/x-gzip", "tar": "application/x-tar",
        "txt": "text/plain", "text": "text/plain", "html": "text/html", "htm": "text/html",
        "css": "text/css", "csv": "text/csv", "js": "text/javascript", "md": "text/markdown",
        "rtf": "text/rtf", "mp3": "audio/mpeg", "m4a": "audio/mp4", "wav": "audio/vnd.wave",
        "aac": "audio/aac", "mp4": "video/mp4", "m4v": "video/x-m4v", "mov": "video/quicktime",
        "avi": "video/avi", "doc": "application/msword", "xls": "application/vnd.ms-excel",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ]
}
