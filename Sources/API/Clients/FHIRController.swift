import HealthwheelCore
import Hummingbird
import Services

/// `GET /v1/clients/{id}/fhir` (the client's record as a FHIR R4 Bundle) and `GET /v1/questionnaires/{id}/fhir`
/// (a shipped questionnaire as a FHIR Questionnaire), as `application/fhir+json`.
struct FHIRController {
    let fhir: ClientFHIR

    /// FHIR's own media type for JSON (R4, section 2.6).
    static let contentType = "application/fhir+json; fhirVersion=4.0; charset=utf-8"

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("clients/:id/fhir", use: client)
        group.get("questionnaires/:questionnaireId/fhir", use: questionnaire)
    }

    @Sendable func client(request: Request, context: AuthenticatedContext) async throws -> Response {
        let bundle = try await fhir.bundle(try context.id(of: "client"), by: context.trainer) { "/v1/media/\($0.id.uppercaseHyphenated)" }
        return try Self.response(bundle)
    }

    @Sendable func questionnaire(request: Request, context: AuthenticatedContext) async throws -> Response {
        try Self.response(try fhir.questionnaire(context.parameters.get("questionnaireId") ?? ""))
    }

    static func response(_ resource: JSONValue) throws -> Response {
        var response = try Response.json(resource)
        response.headers[.contentType] = contentType
        return response
    }
}
