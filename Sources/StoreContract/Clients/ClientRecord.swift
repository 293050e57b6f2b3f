import Foundation
import HealthwheelCore

/// A client as stored, with what the overview needs beside it.
public struct ClientRecord: Sendable, Equatable {
    public var client: Client
    public var hasPhoto: Bool
    public var screening: ScreeningOverview.Facts

    public init(client: Client, hasPhoto: Bool, screening: ScreeningOverview.Facts) {
        self.client = client
        self.hasPhoto = hasPhoto
        self.screening = screening
    }
}
