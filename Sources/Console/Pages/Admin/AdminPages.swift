import Foundation
import HealthwheelCore
import Hummingbird
import Reports
import Services
import StoreContract

/// `/admin`: a company's admin pages (trainers with the last-admin rule shown, company settings, the audit trail
/// with its filters; webhooks are `WebhookPages`), and `/account`: a trainer's own password. Every page and action checks the admin rule in
/// the use case, as the API does; a trainer opening an admin page gets the 403 page.
struct AdminPages: Sendable {
    let useCases: UseCases
    let frames: Frames

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.get("admin", use: overview)
        group.get("admin/trainers", use: trainers)
        group.post("admin/trainers", use: addTrainer)
        group.post("admin/trainers/:id", use: changeRole)
        group.post("admin/trainers/:id/delete", use: removeTrainer)
        group.get("admin/settings", use: settings)
        group.post("admin/settings", use: saveSettings)
        group.get("admin/audit", use: audit)
        group.get("account", use: account)
        group.post("account/password", use: changePassword)
    }

    struct Overview {
        var links: [Link]
    }

    struct Link {
        var href: String
        var title: String
        var lead: String
    }

    @Sendable func overview(request: Request, context: SignedInContext) async throws -> Response {
        try context.trainer.requireAdmin(to: "open the admin pages")
        let framed = try await frames.frame(request, context, title: "admin.title", section: "admin")
        let strings = framed.strings
        let links = ["trainers", "theme", "packs", "settings", "audit", "webhooks"].map { key in
            Link(href: "/admin/\(key)", title: strings.text("admin.\(key).title"), lead: strings.text("admin.\(key).lead"))
        }
        return try frames.page("admin", Overview(links: links), framed)
    }

    // MARK: Trainers

    struct TrainersPage {
        var rows: [TrainerRow]
        var values: [String: String]
        var errors: [String: String]
        var errorList: [ConsolePageErrors.FieldLine]
        var roles: [RosterPages.Choice]
    }

    struct TrainerRow {
        var id: String
        var name: String
        var email: String
        var role: String
        var roleLabel: String
        var isSelf: Bool
        var lastAdmin: Bool
        var otherRole: String
        var otherRoleLabel: String
        var action: String
    }

    @Sendable func trainers(request: Request, context: SignedInContext) async throws -> Response {
        try await trainersPage(request, context, values: [:], errors: [], status: .ok)
    }

    private func trainersPage(
        _ request: Request,
        _ context: SignedInContext,
        values: [String: String],
        errors: [FieldError],
        status: HTTPResponse.Status
    )
        async throws -> Response
    {
        try context.trainer.requireAdmin(to: "manage trainers")
        let framed = try await frames.frame(request, context, title: "admin.trainers.title", section: "admin")
        let strings = framed.strings
        let errors = strings.refusals(errors)
        let all = try await useCases.trainers.accounts.colleagues(of: context.trainer)
        let admins = all.filter { $0.role == .admin }.count
        let rows = all.map { trainer in
            let other: Role = trainer.role == .admin ? .trainer : .admin
            return TrainerRow(
                id: trainer.id.lowercaseHyphenated,
                name: trainer.name,
                email: trainer.email,
                role: trainer.role.rawValue,
                roleLabel: strings.text("roles.\(trainer.role.rawValue)"),
                isSelf: trainer.id == context.trainer.id,
                lastAdmin: trainer.role == .admin && admins == 1,
                otherRole: other.rawValue,
                otherRoleLabel: strings.text("admin.trainers.makeRole.\(other.rawValue)"),
                action: "/admin/trainers/\(trainer.id.lowercaseHyphenated)"
            )
        }
        let content = TrainersPage(
            rows: rows,
            values: values,
            errors: errors.byField,
            errorList: errors.map { .init(field: strings.text("admin.trainers.fields.\($0.field)"), message: $0.message) },
            roles: Role.allCases.map {
                RosterPages.Choice(
                    value: $0.rawValue,
                    label: strings.text("roles.\($0.rawValue)"),
                    selected: (values["role"] ?? "trainer") == $0.rawValue
                )
            }
        )
        return try frames.page("admin-trainers", content, framed, status: status)
    }

    @Sendable func addTrainer(request: Request, context: SignedInContext) async throws -> Response {
        let form = context.form
        let values = ["name": form["name"] ?? "", "email": form["email"] ?? "", "role": form["role"] ?? "trainer"]
        do {
            _ = try await useCases.trainers.accounts.create(
                NewTrainer(email: values["email"]!, name: values["name"]!, role: values["role"]!, password: form["password"] ?? ""),
                by: context.trainer
            )
        } catch  where !error.formErrors.isEmpty {
            return try await trainersPage(request, context, values: values, errors: error.formErrors, status: .unprocessableContent)
        }
        return Notice.redirect("/admin/trainers", "trainerAdded").response
    }

    @Sendable func changeRole(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.id(of: "trainer")
        let target = try await useCases.trainers.accounts.profile(id, by: context.trainer)
        do {
            _ = try await useCases.trainers.accounts.update(
                target,
                with: TrainerEdit(role: context.form["role"]),
                by: context.trainer,
                session: context.session.tokenDigest
            )
        } catch  where !error.formErrors.isEmpty {
            return try await trainersPage(request, context, values: [:], errors: error.formErrors, status: .conflict)
        }
        return Notice.redirect("/admin/trainers", "trainerSaved").response
    }

    @Sendable func removeTrainer(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.id(of: "trainer")
        do {
            try await useCases.trainers.accounts.delete(id, by: context.trainer)
        } catch  where !error.formErrors.isEmpty {
            return try await trainersPage(request, context, values: [:], errors: error.formErrors, status: .conflict)
        }
        return Notice.redirect("/admin/trainers", "trainerRemoved").response
    }

    // MARK: Settings

    struct SettingsPage {
        var correctionWindowSeconds: String
        var wheelFlagBelow: String
        /// Filled in by `settingsPage`, in the reader's language.
        var errors: [String: String] = [:]
    }

    @Sendable func settings(request: Request, context: SignedInContext) async throws -> Response {
        try context.trainer.requireAdmin(to: "change the company's settings")
        let current = try await useCases.trainers.company.settings(of: context.company)
        return try await settingsPage(
            request,
            context,
            SettingsPage(
                correctionWindowSeconds: String(current.correctionWindowSeconds),
                wheelFlagBelow: MeasurementFields.number(current.wheelFlagBelow, digits: 1)
            ),
            status: .ok
        )
    }

    private func settingsPage(
        _ request: Request,
        _ context: SignedInContext,
        _ content: SettingsPage,
        errors: [FieldError] = [],
        status: HTTPResponse.Status
    ) async throws -> Response {
        let framed = try await frames.frame(request, context, title: "admin.settings.title", section: "admin")
        var content = content
        content.errors = framed.strings.refusals(errors).byField
        return try frames.page("admin-settings", content, framed, status: status)
    }

    @Sendable func saveSettings(request: Request, context: SignedInContext) async throws -> Response {
        let form = context.form
        var edit = CompanySettings.Edit()
        var problems = FieldErrorCollector()
        let window = form.text("correctionWindowSeconds")
        let flag = form.text("wheelFlagBelow")?.replacingOccurrences(of: ",", with: ".")
        if let window {
            if let seconds = Int(window) {
                edit.correctionWindowSeconds = seconds
            } else {
                problems.add("correctionWindowSeconds", "must be a whole number")
            }
        }
        if let flag {
            if let value = Double(flag), value.isFinite { edit.wheelFlagBelow = value } else { problems.add("wheelFlagBelow", "must be a number") }
        }
        do {
            try problems.throwIfAny()
            _ = try await useCases.trainers.company.updateSettings(with: edit, by: context.trainer, at: useCases.clock.now)
        } catch  where !error.formErrors.isEmpty {
            let content = SettingsPage(correctionWindowSeconds: window ?? "", wheelFlagBelow: flag ?? "")
            return try await settingsPage(request, context, content, errors: error.formErrors, status: .unprocessableContent)
        }
        return Notice.redirect("/admin/settings", "settingsSaved").response
    }

    // MARK: Audit trail

    struct AuditPage {
        var lines: [AuditLine]
        var nextLink: String?
        var actions: [RosterPages.Choice]
        var actors: [RosterPages.Choice]
        var from: String
        var to: String
        var client: String
    }

    struct AuditLine {
        var at: String
        var actor: String
        var action: String
        var subject: String
        var client: String?
        var clientLink: String?
    }

    static let auditPage = 50

    @Sendable func audit(request: Request, context: SignedInContext) async throws -> Response {
        try context.trainer.requireAdmin(to: "read the audit trail")
        let framed = try await frames.frame(request, context, title: "admin.audit.title", section: "admin")
        let strings = framed.strings
        let parameters = request.uri.queryParameters
        let text = { (name: String) -> String? in
            guard let value = parameters[name[...]], !value.isEmpty else { return nil }
            return String(value)
        }
        let from = text("from").flatMap { CalendarDate($0) }
        let to = text("to").flatMap { CalendarDate($0) }
        let filter = AuditFilter(
            clientId: text("client").flatMap(UUID.init(hyphenatedHex:)),
            actorId: text("actor").flatMap(UUID.init(hyphenatedHex:)),
            action: text("action"),
            from: from.map(\.start),
            to: to.map(\.end)
        )
        let cursor = text("cursor").flatMap { Cursor(token: $0) }
        let page = try await useCases.audit.list(filter, after: cursor, limit: Self.auditPage, by: context.trainer)
        let colleagues = try await useCases.trainers.accounts.colleagues(of: context.trainer)
        let names = Dictionary(uniqueKeysWithValues: colleagues.map { ($0.id, $0.name) })
        let moment = strings.moments()
        let lines = page.items.map { stored in
            let event = stored.event
            let actor: String =
                switch event.actor {
                case .trainer(let id): names[id] ?? strings.text("admin.audit.formerTrainer")
                case .operatorCommand: strings.text("admin.audit.operator")
                case .server: strings.text("admin.audit.server")
                }
            return AuditLine(
                at: moment(event.at),
                actor: actor,
                action: event.name,
                subject: event.subjectId ?? "",
                client: stored.erased ? strings.text("admin.audit.erased") : event.clientId?.lowercaseHyphenated,
                clientLink: stored.erased ? nil : event.clientId.map { "/clients/\($0.lowercaseHyphenated)" }
            )
        }
        var query = ["from": from?.description ?? "", "to": to?.description ?? "", "client": text("client") ?? "", "actor": text("actor") ?? ""]
        query["action"] = text("action") ?? ""
        let actionNames = AuditEvent.Subject.allCases.flatMap { subject in AuditEvent.Action.allCases.map { "\(subject.rawValue).\($0.rawValue)" } }
        let action = text("action")
        let actor = text("actor")?.lowercased()
        var actions = [RosterPages.Choice(value: "", label: strings.text("admin.audit.anyAction"), selected: action == nil)]
        actions += actionNames.map { RosterPages.Choice(value: $0, label: $0, selected: $0 == action) }
        var actors = [RosterPages.Choice(value: "", label: strings.text("admin.audit.anyone"), selected: actor == nil)]
        actors += colleagues.map {
            RosterPages.Choice(value: $0.id.lowercaseHyphenated, label: $0.name, selected: $0.id.lowercaseHyphenated == actor)
        }
        var nextLink: String?
        if let next = page.nextCursor {
            var withCursor = query
            withCursor["cursor"] = next.token
            nextLink = "/admin/audit?" + RosterPages.query(withCursor)
        }
        let content = AuditPage(
            lines: lines,
            nextLink: nextLink,
            actions: actions,
            actors: actors,
            from: from?.description ?? "",
            to: to?.description ?? "",
            client: text("client") ?? ""
        )
        return try frames.page("admin-audit", content, framed)
    }

    // MARK: Account

    struct AccountPage {
        var name: String
        var email: String
        var role: String
        var errors: [String: String]
    }

    @Sendable func account(request: Request, context: SignedInContext) async throws -> Response {
        try await accountPage(request, context, errors: [], status: .ok)
    }

    private func accountPage(
        _ request: Request,
        _ context: SignedInContext,
        errors: [FieldError],
        status: HTTPResponse.Status
    ) async throws -> Response {
        let framed = try await frames.frame(request, context, title: "account.title", section: "account")
        let trainer = context.trainer
        let content = AccountPage(
            name: trainer.name,
            email: trainer.email,
            role: framed.strings.text("roles.\(trainer.role.rawValue)"),
            errors: framed.strings.refusals(errors).byField
        )
        return try frames.page("account", content, framed, status: status)
    }

    /// A new password ends every session of the trainer, this one included: they sign in again with it.
    @Sendable func changePassword(request: Request, context: SignedInContext) async throws -> Response {
        let form = context.form
        let trainer = try await useCases.trainers.accounts.profile(context.trainer.id, by: context.trainer)
        do {
            _ = try await useCases.trainers.accounts.update(
                trainer,
                with: TrainerEdit(password: form["password"] ?? "", currentPassword: form["currentPassword"] ?? ""),
                by: context.trainer,
                session: context.session.tokenDigest
            )
            try await useCases.trainers.sessions.logout(tokenDigest: context.session.tokenDigest)
        } catch  where !error.formErrors.isEmpty {
            return try await accountPage(request, context, errors: error.formErrors, status: .unprocessableContent)
        }
        var redirect = ConsoleRedirect(location: "/sign-in?notice=passwordChanged")
        redirect.cookies = [frames.cookies.cleared(request)]
        return redirect.response
    }
}
