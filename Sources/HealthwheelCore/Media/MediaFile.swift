import Foundation

/// A photo or video linked to a result: what the API shows of it. The bytes themselves are kept apart (sealed,
/// see `MediaStorage` in Store) and served by `GET /v1/media/{id}`.
public struct MediaFile: Sendable, Equatable {
    /// Time-ordered, made when the upload starts.
    public var id: UUID
    public var companyId: UUID
    /// The result's client: deleting the client deletes the media with the result.
    public var clientId: UUID
    public var resultId: UUID
    public var format: MediaFormat
    /// Bytes as stored (a photo without its GPS block).
    public var bytes: Int
    /// SHA-256 of the stored bytes, lower-case hex: the download's `ETag`.
    public var sha256: String
    /// Pixels as shown (a turned video's size turned), when the file says.
    public var width: Int?
    public var height: Int?
    /// A video's running time, when its header says.
    public var durationSeconds: Double?
    /// The trainer's words for it; at most `maximumCaptionLength` characters.
    public var caption: String?
    /// Bytes of the photo's stored preview (a JPEG fitting 1024 × 1024 that thumbnails and reports are drawn
    /// from); nil for a video. Not shown by the API.
    public var previewBytes: Int?
    /// Bytes of the photo's small preview (a JPEG fitting 320 × 320, for list thumbnails and reports); nil for a
    /// video or a photo stored before small previews existed. Not shown by the API.
    public var smallPreviewBytes: Int?
    /// The trainer who uploaded it.
    public var createdBy: UUID
    public var createdAt: Date
    /// When the caption last changed; `createdAt` until then.
    public var updatedAt: Date

    /// Captions are short: what the photo shows.
    public static let maximumCaptionLength = 500

    public var kind: MediaKind { format.kind }

    public init(
        id: UUID,
        companyId: UUID,
        clientId: UUID,
        resultId: UUID,
        format: MediaFormat,
        bytes: Int,
        sha256: String,
        width: Int? = nil,
        height: Int? = nil,
        durationSeconds: Double? = nil,
        caption: String? = nil,
        previewBytes: Int? = nil,
        smallPreviewBytes: Int? = nil,
        createdBy: UUID,
        createdAt: Date,
        updatedAt: Date? = nil
    ) {
        self.id = id
        self.companyId = companyId
        self.clientId = clientId
        self.resultId = resultId
        self.format = format
        self.bytes = bytes
        self.sha256 = sha256
        self.width = width
        self.height = height
        self.durationSeconds = durationSeconds
        self.caption = caption
        self.previewBytes = previewBytes
        self.smallPreviewBytes = smallPreviewBytes
        self.createdBy = createdBy
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
    }

    /// A caption as stored: trimmed, nil when blank; or why it cannot be one.
    public static func caption(_ raw: String?, field: String = "caption") throws(ValidationError) -> String? {
        guard let raw, case let value = raw.trimmingWhiteSpace(), !value.isEmpty else { return nil }
        if raw.schemaLength > maximumCaptionLength { throw ValidationError(field, "must be at most \(maximumCaptionLength) characters") }
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) {
            throw ValidationError(field, "must not contain control characters")
        }
        return value
    }
}
