import Foundation
import HealthwheelCore
import Hummingbird
import NIOCore
import Services

/// `/v1/clients/{id}/wheel`: the client's health wheel, one slice per category in wheel order, from the newest
/// result of each exercise, as JSON or drawn in the company's theme (`wheel.svg`, `wheel.png?size=`). Its cost
/// does not grow with the number of past results.
struct WheelController {
    let wheels: ClientWheels
    let pictures: WheelPictures
    let themes: CompanyThemes
    let clock: any WallClock

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("clients/:id/wheel", use: wheel)
        group.get("clients/:id/wheel.svg", use: svg)
        group.get("clients/:id/wheel.png", use: png)
    }

    @Sendable func svg(request: Request, context: AuthenticatedContext) async throws -> Response {
        try await picture(.svg, contentType: "image/svg+xml", request, context)
    }

    @Sendable func png(request: Request, context: AuthenticatedContext) async throws -> Response {
        try await picture(.png, contentType: "image/png", request, context)
    }

    private func picture(
        _ format: WheelPictures.Format,
        contentType: String,
        _ request: Request,
        _ context: AuthenticatedContext
    ) async throws -> Response {
        let client = try context.id(of: "client")
        let width = try request.uri.pixelSize() ?? WheelPictures.defaultWidth
        var compare: Date?
        if let raw = request.uri.parameter("compare", blankIsAbsent: false) {
            guard let day = CalendarDate(raw) else { throw Problem.invalid("compare", "must be a date as YYYY-MM-DD") }
            // The wheel as it stood at the end of that day (UTC).
            compare = day.end
        }
        let language = request.readerLanguage
        let bytes = try await pictures.picture(
            client: client,
            company: context.trainer.companyId,
            format: format,
            width: width,
            language: language,
            compare: compare
        )
        return Response(
            status: .ok,
            headers: [
                .contentType: contentType,
                .cacheControl: "private, no-cache",
                // The picture is data to look at: nothing in it may run or load anything, wherever it is opened.
                .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'",
                .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    @Sendable func wheel(request: Request, context: AuthenticatedContext) async throws -> Response {
        let client = try context.id(of: "client")
        let imperial = try wantsImperialUnits(request)
        let company = context.trainer.companyId
        // The theme's version and the client's wheel stamp came with the session: a warm wheel reads nothing else.
        let language = try await themes.readerLanguage(asked: request.readerLanguage, company: company, freshness: context.principal.freshness)
        let wheel = try await wheels.wheel(
            client: client,
            company: company,
            imperial: imperial,
            language: language,
            freshness: context.principal.freshness
        ) { slices, display in
            try ResponseJSONEncoder().encode(slices.map { SliceBody($0, display: display) })
        }
        return try .json(WheelBody(flagBelow: wheel.flagBelow, generatedAt: clock.now, slices: PreencodedJSON(bytes: wheel.slices))).speaking(
            language
        )
    }
}
