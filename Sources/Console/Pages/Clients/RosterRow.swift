import Foundation
import HealthwheelCore
import Reports
import Services

/// One client of the roster as its row shows them. Gives its members without reflection (`ViewRow`): a roster
/// page shows fifty of these.
struct RosterRow: ViewRow {
    let link: String
    let name: String
    let initials: String
    let photo: String?
    let age: String?
    let contact: String?
    let trainer: String?
    /// `none`, `draft`, `due`, `overdue` or `current`: the screening badge's class and words.
    let screening: String
    let screeningLabel: String
    let flags: String?
    let reasons: [String]

    init(
        _ client: ClientSummary,
        now: Date,
        trainers: [UUID: String],
        reasons: [ClientAttention.Reason],
        strings: ConsoleStrings,
        format: ReportFormat
    ) {
        let path = "/clients/\(client.id.lowercaseHyphenated)"
        link = path
        name = client.fullName
        initials = String([client.givenName?.first, client.familyName?.first].compactMap { $0 })
        photo = client.hasPhoto ? path + "/photo?size=96" : nil
        age = client.age(at: now).map { strings.text("roster.age", ["years": String($0)]) }
        contact = client.email ?? client.phone
        trainer = client.assignedTrainerId.flatMap { trainers[$0] }
        screening = ScreeningDue.state(client.screening, now: now).rawValue
        screeningLabel = strings.text("screeningState.\(screening)")
        flags = client.screening.latestCompletedFlags.isEmpty ? nil : client.screening.latestCompletedFlags.joined(separator: ", ")
        self.reasons = reasons.map { reason in
            switch reason {
            case .flagged(let categories): strings.text("attention.flagged", ["categories": categories.joined(separator: ", ")])
            case .screening(let state): strings.text("attention.screening.\(state.rawValue)")
            case .noRecentResult(let last):
                last.map { strings.text("attention.lastResult", ["date": format.date($0)]) }
                    ?? strings.text("attention.noResult")
            }
        }
    }

    var members: [String: Any] {
        var members: [String: Any] = ["link": link, "name": name, "initials": initials, "screening": screening, "screeningLabel": screeningLabel]
        members["photo"] = photo
        members["age"] = age
        members["contact"] = contact
        members["trainer"] = trainer
        members["flags"] = flags
        members["reasons"] = reasons.isEmpty ? nil : reasons
        return members
    }
}
