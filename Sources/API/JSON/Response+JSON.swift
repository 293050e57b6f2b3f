import Foundation
import HTTPTypes
import Hummingbird

extension Response {
    /// A JSON response. Dates are RFC 3339 in UTC.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        try JSONReply(value, status: status, headers: headers).response
    }
}
