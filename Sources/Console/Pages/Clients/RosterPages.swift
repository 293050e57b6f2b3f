import Foundation
import HealthwheelCore
import Hummingbird
import Mustache
import NIOCore
import Services
import StoreContract

/// `/clients`: the roster (search as you type, sorting, the clients who need attention), a new client, a
/// client's details edited. Rows come from the in-memory directory the API's list uses.
struct RosterPages: Sendable {
    let roster: ClientRoster
    let trainers: TrainerAccounts
    let attention: ClientAttention
    let frames: Frames
    let clock: any WallClock

    /// Clients on one page of the roster.
    static let pageSize = 50
    /// Sorting by anything but the name reads the matching clients whole: up to this many.
    static let sortableClients = 5_000

    func addRoutes(to group: RouterGroup<SignedInContext>) {
        group.get("clients", use: list)
        group.get("clients/new", use: new)
        group.get("clients/import", use: importForm)
        group.post("clients/import", use: importCards)
        group.get("clients/export.vcf", use: exportCards)
        group.post("clients", use: create)
        group.get("clients/:id/edit", use: edit)
        group.post("clients/:id", use: update)
        group.post("clients/:id/delete", use: delete)
    }

    enum Sort: String, CaseIterable {
        case name, age, screening
    }

    struct Roster {
        var query: String
        var sort: String
        var sorts: [Choice]
        var attentionView: Bool
        var rows: [RosterRow]
        var nextLink: String?
        /// The list stops at `sortableClients` (sorted) or `ClientAttention.maximumClients` (needs attention).
        var tooManyToSort: Bool
        var count: String
    }

    struct Choice {
        var value: String
        var label: String
        var selected: Bool
    }

    @Sendable func list(request: Request, context: SignedInContext) async throws -> Response {
        let framed = try await frames.frame(request, context, title: "roster.title", section: "clients")
        let parameters = request.uri.queryParameters
        let query = parameters["q"].map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
        let sort = parameters["sort"].flatMap { Sort(rawValue: String($0)) } ?? .name
        let attentionView = parameters["view"] == "attention"
        let now = clock.now
        let names = try await trainerNames(context)
        // Search as you type asks for the rows alone.
        let template = parameters["part"] == "rows" ? "roster-results" : "roster"
        let make = { @Sendable () async throws -> Roster in
            try await roster(
                context,
                query: query,
                sort: sort,
                attentionView: attentionView,
                parameters: parameters,
                names: names,
                framed: framed,
                now: now
            )
        }
        // Who needs attention moves with results, which no list version follows: that view is made every time.
        guard !attentionView else { return try frames.page(template, try await make(), framed) }
        let version = try await roster.listVersion(of: context.company, freshness: context.principal.freshness)
        let trainers: String = names.sorted { $0.key.uuidString < $1.key.uuidString }.map { "\($0.key) \($0.value)" }.joined(separator: ",")
        let cursor: String = parameters["cursor"].map(String.init) ?? ""
        let from: String = parameters["from"].map(String.init) ?? ""
        let parts: [String] = [
            context.company.uuidString, String(version), trainers, CalendarDate(now).description, query, sort.rawValue, cursor, from,
        ]
        return try await frames.page(template, framed, inputs: PageRenderer.inputs(parts), content: make)
    }

    /// The roster's content: a page of the list in the order asked for, or the clients who need attention.
    private func roster(
        _ context: SignedInContext,
        query: String,
        sort: Sort,
        attentionView: Bool,
        parameters: Hummingbird.Parameters,
        names: [UUID: String],
        framed: Frames.Framed,
        now: Date
    ) async throws -> Roster {
        let strings = framed.strings
        var summaries: [ClientSummary]
        var nextLink: String?
        var tooManyToSort = false
        var reasons: [UUID: [ClientAttention.Reason]] = [:]
        if attentionView {
            let needing = try await attention.clients(
                in: context.company,
                now: now,
                language: framed.frame.language,
                freshness: context.principal.freshness
            )
            summaries = needing.entries.map(\.summary)
            for entry in needing.entries { reasons[entry.summary.id] = entry.reasons }
            tooManyToSort = needing.isPartial
        } else if sort == .name {
            let cursor = parameters["cursor"].flatMap { Cursor(token: String($0)) }
            let page = try await roster.summaries(
                in: context.company,
                search: query.isEmpty ? nil : query,
                after: cursor,
                limit: Self.pageSize,
                now: now,
                freshness: context.principal.freshness
            )
            summaries = page.items
            nextLink = page.nextCursor.map { "/clients?" + Self.query(["q": query, "sort": sort.rawValue, "cursor": $0.token]) }
        } else {
            let all = try await roster.summaries(
                in: context.company,
                search: query.isEmpty ? nil : query,
                after: nil,
                limit: Self.sortableClients,
                now: now,
                freshness: context.principal.freshness
            )
            tooManyToSort = all.nextCursor != nil
            summaries = Self.sorted(all.items, by: sort, now: now)
            let offset = parameters["from"].flatMap { Int($0) }.map { max(0, min($0, summaries.count)) } ?? 0
            let end = min(offset + Self.pageSize, summaries.count)
            if end < summaries.count { nextLink = "/clients?" + Self.query(["q": query, "sort": sort.rawValue, "from": String(end)]) }
            summaries = Array(summaries[offset..<end])
        }
        let rows = summaries.map {
            RosterRow($0, now: now, trainers: names, reasons: reasons[$0.id] ?? [], strings: strings, format: framed.format)
        }
        return Roster(
            query: query,
            sort: sort.rawValue,
            sorts: Sort.allCases.map { Choice(value: $0.rawValue, label: strings.text("roster.sort.\($0.rawValue)"), selected: $0 == sort) },
            attentionView: attentionView,
            rows: rows,
            nextLink: nextLink,
            tooManyToSort: tooManyToSort,
            count: strings.text(rows.count == 1 ? "roster.countOne" : "roster.count", ["count": String(rows.count)])
        )
    }

    static func sorted(_ clients: [ClientSummary], by sort: Sort, now: Date) -> [ClientSummary] {
        switch sort {
        case .name: return clients
        case .age:
            // Youngest first; clients without a birth date last, in name order (the order they came in).
            return clients.enumerated().sorted { left, right in
                switch (left.element.birthDate, right.element.birthDate) {
                case (let l?, let r?): l != r ? l > r : left.offset < right.offset
                case (nil, nil): left.offset < right.offset
                case (nil, _): false
                case (_, nil): true
                }
            }.map(\.element)
        case .screening:
            // Most in need of screening first: never screened, drafts, then the oldest completion.
            func rank(_ client: ClientSummary) -> (Int, Double) {
                guard let completed = client.screening.latestCompletedAt else { return (client.screening.hasDraft ? 1 : 0, 0) }
                return (2, completed.timeIntervalSince1970)
            }
            return clients.enumerated().sorted { left, right in
                let (l, r) = (rank(left.element), rank(right.element))
                return l != r ? l < r : left.offset < right.offset
            }.map(\.element)
        }
    }

    /// `name=value&…` of the non-empty values, escaped for a query.
    static func query(_ values: [String: String]) -> String {
        values.filter { !$0.value.isEmpty }.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? "")" }
            .joined(separator: "&")
    }

    func trainerNames(_ context: SignedInContext) async throws -> [UUID: String] {
        Dictionary(uniqueKeysWithValues: try await trainers.colleagues(of: context.trainer).map { ($0.id, $0.name) })
    }

    // MARK: vCards

    struct ImportPage {
        var done: Bool
        var created: Int
        var updated: Int
        var skipped: Int
        var items: [ImportLine]
        var csrfQuery: String
    }

    struct ImportLine {
        var index: Int
        var status: String
        var statusLabel: String
        var name: String
        var link: String?
        var detail: String?
    }

    @Sendable func importForm(request: Request, context: SignedInContext) async throws -> Response {
        let framed = try await frames.frame(request, context, title: "import.title", section: "clients")
        let content = ImportPage(done: false, created: 0, updated: 0, skipped: 0, items: [], csrfQuery: context.session.csrfToken)
        return try frames.page("import", content, framed)
    }

    /// The import's summary, card by card: added, updated, or skipped with the reason.
    @Sendable func importCards(request: Request, context: SignedInContext) async throws -> Response {
        let file = try await UploadedFile.read(request, limit: ClientRoster.maximumVCardBytes)
        let report = try await roster.importVCardFile(file.bytes, by: context.trainer)
        let framed = try await frames.frame(request, context, title: "import.title", section: "clients")
        let strings = framed.strings
        let items = report.items.map { item in
            ImportLine(
                index: item.index,
                status: item.status.rawValue,
                statusLabel: strings.text("import.status.\(item.status.rawValue)"),
                name: item.name ?? "–",
                link: item.status == .skipped ? nil : item.clientId.map { "/clients/\($0.lowercaseHyphenated)" },
                detail: ([item.reason].compactMap { $0 } + item.notes).map(strings.refusal).joined(separator: "; ").nilIfEmpty
            )
        }
        let content = ImportPage(
            done: true,
            created: report.count(.created),
            updated: report.count(.updated),
            skipped: report.count(.skipped),
            items: items,
            csrfQuery: context.session.csrfToken
        )
        return try frames.page("import", content, framed)
    }

    @Sendable func exportCards(request: Request, context: SignedInContext) async throws -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/vcard; charset=utf-8", .contentDisposition: "attachment; filename=\"clients.vcf\"", .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(string: try await roster.vCardFile(of: context.company)))
        )
    }

    // MARK: New and edit

    struct ClientFormPage {
        var action: String
        var isNew: Bool
        var cancel: String
        var values: ClientForm
        var imperial: Bool
        var sexes: [Choice]
        var trainers: [Choice]
        var errors: [String: String]
        var errorList: [ConsolePageErrors.FieldLine]
        var canDelete: Bool
        var deleteAction: String
    }

    @Sendable func new(request: Request, context: SignedInContext) async throws -> Response {
        var values = ClientForm()
        values.assignedTrainerId = context.trainer.id.uuidString.lowercased()
        return try await formPage(request, context, values: values, client: nil, errors: [], status: .ok)
    }

    @Sendable func create(request: Request, context: SignedInContext) async throws -> Response {
        let values = ClientForm(context.form)
        let units = try await frames.units(context)
        do {
            let record = try await roster.create(try values.edit(from: nil, units: units, today: CalendarDate(clock.now)), by: context.trainer)
            return Notice.redirect("/clients/\(record.client.id.lowercaseHyphenated)", "clientCreated").response
        } catch  where !error.formErrors.isEmpty {
            return try await formPage(request, context, values: values, client: nil, errors: error.formErrors, status: .unprocessableContent)
        }
    }

    @Sendable func edit(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.id(of: "client")
        let record = try await roster.record(id, in: context.company, freshness: context.principal.freshness)
        return try await formPage(request, context, values: ClientForm(record.client), client: record.client, errors: [], status: .ok)
    }

    @Sendable func update(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.id(of: "client")
        let record = try await roster.record(id, in: context.company)
        let values = ClientForm(context.form)
        let units = try await frames.units(context)
        do {
            _ = try await roster.update(
                id,
                with: try values.edit(from: ClientForm(record.client), units: units, today: CalendarDate(clock.now)),
                by: context.trainer
            )
            return Notice.redirect("/clients/\(id.lowercaseHyphenated)", "clientSaved").response
        } catch  where !error.formErrors.isEmpty {
            return try await formPage(
                request,
                context,
                values: values,
                client: record.client,
                errors: error.formErrors,
                status: .unprocessableContent
            )
        }
    }

    @Sendable func delete(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.id(of: "client")
        guard context.form["confirm"] == "yes" else { throw ServiceError.invalid("confirm", "must be ticked to delete a client") }
        try await roster.delete(id, by: context.trainer)
        return Notice.redirect("/clients", "clientDeleted").response
    }

    private func formPage(
        _ request: Request,
        _ context: SignedInContext,
        values: ClientForm,
        client: Client?,
        errors: [FieldError],
        status: HTTPResponse.Status
    ) async throws -> Response {
        let framed = try await frames.frame(
            request,
            context,
            title: client == nil ? "clientForm.newTitle" : "clientForm.editTitle",
            section: "clients"
        )
        let strings = framed.strings
        let errors = strings.refusals(errors)
        let colleagues = try await trainers.colleagues(of: context.trainer)
        let path = client.map { "/clients/\($0.id.lowercaseHyphenated)" }
        let byField = errors.byField
        let content = ClientFormPage(
            action: path ?? "/clients",
            isNew: client == nil,
            cancel: path ?? "/clients",
            values: values,
            imperial: framed.theme.theme.units == .imperial,
            sexes: [Choice(value: "", label: strings.text("clientForm.sexUnset"), selected: values.sex.isEmpty)]
                + Sex.allCases.map { Choice(value: $0.rawValue, label: strings.text("sex.\($0.rawValue)"), selected: values.sex == $0.rawValue) },
            trainers: [Choice(value: "", label: strings.text("clientForm.unassigned"), selected: values.assignedTrainerId.isEmpty)]
                + colleagues.map {
                    Choice(
                        value: $0.id.uuidString.lowercased(),
                        label: $0.name,
                        selected: $0.id.uuidString.lowercased() == values.assignedTrainerId.lowercased()
                    )
                },
            errors: byField,
            errorList: errors.map { .init(field: strings.text("fields.\($0.field)"), message: $0.message) },
            canDelete: client != nil && (context.trainer.role == Role.admin || client?.assignedTrainerId == context.trainer.id),
            deleteAction: (path ?? "") + "/delete"
        )
        return try frames.page("client-form", content, framed, status: status)
    }
}
