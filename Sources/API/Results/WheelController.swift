import Foundation
import HealthwheelCore
import Hummingbird
import Services

/// `/v1/clients/{id}/wheel`: the client's health wheel, one slice per category in wheel order, from the newest
/// result of each exercise. Its cost does not grow with the number of past results.
struct WheelController {
    let wheels: ClientWheels
    let clock: any WallClock

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("clients/:id/wheel", use: wheel)
    }

    @Sendable func wheel(request: Request, context: AuthenticatedContext) async throws -> Response {
        let client = try context.id(of: "client")
        let imperial = try wantsImperialUnits(request)
        let wheel = try await wheels.wheel(client: client, company: context.trainer.companyId, imperial: imperial) { slices, display in
            try ResponseJSONEncoder().encode(slices.map { SliceBody($0, display: display) })
        }
        return try .json(WheelBody(flagBelow: wheel.flagBelow, generatedAt: clock.now, slices: PreencodedJSON(bytes: wheel.slices)))
    }
}
