import Foundation
import HealthwheelCore
import Mail
import Reports
import StoreContract

/// Emailing a client's progress report: the whole message (HTML with `cid:` pictures, plain text, the PDF) is
/// composed from the data as it is now and written to the outbox in the transaction that accepts the request,
/// within the company's daily allowance; the `MailSender` delivers it.
public struct ReportEmails: Sendable {
    let clients: any ClientRepository
    let deliveries: any DeliveryRepository
    let reports: ClientReports
    let settings: MailSettings
    let sender: MailSender
    let clock: any WallClock

    /// One per process (`UseCases` builds it); `sender` is woken after each email is accepted.
    public init(store: Repositories, reports: ClientReports, settings: MailSettings, sender: MailSender, clock: any WallClock) {
        self.clients = store.clients
        self.deliveries = store.deliveries
        self.reports = reports
        self.settings = settings
        self.sender = sender
        self.clock = clock
    }

    /// What the trainer asks for. `to` defaults to the client's email.
    public struct Request: Sendable {
        /// Recipients; nil sends to the client's email (refused when they have none). An empty list is refused.
        public var to: [String]?
        /// Copied recipients; at most 10 recipients with `to`. Each must be a plain ASCII address.
        public var cc: [String]
        /// The trainer's note, shown above the report.
        public var message: String?
        /// The report's period, language and units, as for `ClientReports.report`.
        public var options: ClientReports.Options

        /// A request as decoded by the API; `send` checks it all and names every problem.
        public init(to: [String]? = nil, cc: [String] = [], message: String? = nil, options: ClientReports.Options = .init()) {
            self.to = to
            self.cc = cc
            self.message = message
            self.options = options
        }
    }

    static let maxRecipients = 10
    static let maxMessageLength = 5_000

    /// Accepts the email into the outbox and returns its delivery, `queued`. `answer` makes the idempotency
    /// record kept with it, from the delivery as accepted.
    public func send(
        _ request: Request,
        client id: UUID,
        by trainer: Trainer,
        keeping answer: (Delivery) throws -> IdempotencyRecord? = { _ in nil }
    ) async throws -> Delivery {
        let company = trainer.companyId
        guard let record = try await clients.find(id, in: company) else { throw ServiceError.notFound("client") }
        let (to, cc, note) = try validate(request, clientEmail: record.client.email)
        let now = clock.now
        // A report of a period that ends before it starts shows nothing; one mailed to a client is a mistake.
        if let from = request.options.from, from > request.options.to ?? now {
            let field = request.options.to == nil ? "period.from" : "period.to"
            throw ServiceError.invalid(field, request.options.to == nil ? "must not be after now" : "must not be before period.from")
        }
        // A cheap look first, so a company over its allowance does not get a report drawn for nothing; the
        // insert checks again, in its transaction.
        if let reached = try await deliveries.dailyLimitReached(company: company, limit: settings.dailyLimit, at: now) {
            throw limitReached(reached, now)
        }

        let report = try await reports.report(client: id, in: company, options: request.options)
        let companyName = report.companyName
        let deliveryId = UUID()
        let domain = settings.from.split(separator: "@").last.map(String.init) ?? "healthwheel.invalid"
        let envelope = ReportMail.Envelope(
            from: Mailbox(name: companyName, address: settings.from),
            replyTo: Mailbox(name: trainer.name, address: trainer.email),
            to: to.map { Mailbox(address: $0) },
            cc: cc.map { Mailbox(address: $0) },
            messageID: "\(deliveryId.lowercaseHyphenated)@\(domain)",
            date: now
        )
        // Drawing and encoding (a few hundred kilobytes of base64) happen off the cooperative pool.
        let (subject, message) = try await PictureQueue.run {
            let mail = try ReportMail.compose(
                report,
                pictures: try report.pictures(),
                pdf: try ReportPDF.render(report),
                note: note,
                trainerName: trainer.name,
                envelope: envelope
            )
            return (mail.subject, mail.encoded())
        }
        let delivery = Delivery(
            id: deliveryId,
            companyId: company,
            clientId: id,
            trainerId: trainer.id,
            to: to,
            cc: cc,
            subject: subject,
            createdAt: now,
            updatedAt: now,
            nextAttemptAt: now
        )
        do {
            try await deliveries.enqueue(
                delivery,
                message: message,
                dailyLimit: settings.dailyLimit,
                keeping: try answer(delivery),
                audit: .about(id, in: company, .created, .delivery, id: delivery.id, by: .trainer(trainer.id), at: now)
            )
        } catch let reached as DailyLimitReached {
            throw limitReached(reached, now)
        }
        sender.wake()
        return delivery
    }

    /// The delivery with `id`, if it is one of `company`'s; else `notFound("delivery")`.
    public func delivery(_ id: UUID, in company: UUID) async throws -> Delivery {
        guard let delivery = try await deliveries.find(id, in: company) else { throw ServiceError.notFound("delivery") }
        return delivery
    }

    /// The client's emailed reports, newest first.
    public func list(client: UUID, in company: UUID, after cursor: Cursor?, limit: Int) async throws -> Page<Delivery> {
        guard try await clients.find(client, in: company) != nil else { throw ServiceError.notFound("client") }
        return try await deliveries.list(client: client, in: company, after: cursor, limit: limit)
    }

    private func limitReached(_ reached: DailyLimitReached, _ now: Date) -> ServiceError {
        .limited(
            retryAfter: max(1, Int(reached.retryAt.timeIntervalSince(now).rounded(.up))),
            detail: "the company has sent its \(reached.limit) emails for the past 24 hours"
        )
    }

    /// Every problem at once: addresses, how many, the note's length, and a recipient at all.
    private func validate(_ request: Request, clientEmail: String?) throws -> (to: [String], cc: [String], note: String?) {
        var errors: [FieldError] = []
        func addresses(_ raw: [String], _ field: String) -> [String] {
            raw.enumerated().compactMap { index, address in
                do throws(ValidationError) {
                    let value = try InputRules.email(address, field: "\(field)[\(index)]")
                    // Headers and the SMTP envelope carry the address as it is: plain ASCII, no specials.
                    guard value.unicodeScalars.allSatisfy({ $0.isASCII && !"<>()[],;:\\\"".unicodeScalars.contains($0) }) else {
                        errors.append(FieldError("\(field)[\(index)]", "must be a plain ASCII email address"))
                        return nil
                    }
                    return value
                } catch {
                    errors += error.errors
                    return nil
                }
            }
        }
        // The stored client's address is the client record's matter: without a usable one, a 409 after the
        // body's own problems.
        var stored: FieldError?
        let to: [String]
        if let requested = request.to {
            to = addresses(requested, "to")
            if requested.isEmpty { errors.append(FieldError("to", "must name at least one address")) }
        } else if let clientEmail {
            // The client's stored address passed the client rules, which allow what mail headers cannot carry.
            to = addresses([clientEmail], "to")
            if to.isEmpty {
                errors.removeLast()
                stored = FieldError("to", "is required: the client's email address is not a plain ASCII address")
            }
        } else {
            to = []
            stored = FieldError("to", "is required: the client has no email address")
        }
        let cc = addresses(request.cc, "cc")
        // Each list on its own, as the document's `maxItems` says; the daily allowance bounds the rest.
        for (field, count) in [("to", request.to?.count ?? 1), ("cc", request.cc.count)] where count > Self.maxRecipients {
            errors.append(FieldError(field, "at most \(Self.maxRecipients) addresses"))
        }
        var note = request.message?.trimmingCharacters(in: .whitespacesAndNewlines)
        if note?.isEmpty == true { note = nil }
        if let message = request.message, message.schemaLength > Self.maxMessageLength {
            errors.append(FieldError("message", "must be at most \(Self.maxMessageLength) characters"))
        }
        if let note, note.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }) {
            errors.append(FieldError("message", "must not contain control characters"))
        }
        if !errors.isEmpty { throw ServiceError.invalid(errors) }
        if let stored { throw ServiceError.conflict(slug: "client-email-missing", detail: "to \(stored.message)", errors: [stored]) }
        return (to, cc, note)
    }
}
