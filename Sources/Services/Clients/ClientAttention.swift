import Foundation
import HealthwheelCore
import StoreContract

/// The clients a trainer should look at first: a flagged wheel category, a screening never done, open, due
/// soon or overdue, or no result for `quietDays`. Each client's facts come from the wheel cache (one cached
/// rendering per client, kept until their results, the catalog or the threshold change), so a warm view reads
/// nothing from the database but the wheel stamps.
public struct ClientAttention: Sendable {
    let roster: ClientRoster
    let wheels: ClientWheels

    /// Days without a result after which a client counts as gone quiet.
    public static let quietDays = 90
    /// The view covers this many clients at most, in name order (`Outcome.isPartial` says when there are more).
    public static let maximumClients = 5_000

    public init(roster: ClientRoster, wheels: ClientWheels) {
        self.roster = roster
        self.wheels = wheels
    }

    /// Why a client needs attention.
    public enum Reason: Sendable, Equatable {
        /// The wheel's flagged categories, by name.
        case flagged([String])
        case screening(ScreeningDue)
        /// No result for `quietDays`: the newest result's date, or nil when there is none at all.
        case noRecentResult(Date?)
    }

    /// A client who needs attention, and why.
    public struct Entry: Sendable {
        public var summary: ClientSummary
        public var reasons: [Reason]
    }

    /// The clients needing attention in name order, and whether the company has more clients than were looked at.
    public func clients(
        in company: UUID,
        now: Date,
        language: String = "en",
        freshness: Freshness = .unknown
    ) async throws -> (
        entries: [Entry], isPartial: Bool
    ) {
        let listed = try await roster.summaries(
            in: company,
            search: nil,
            after: nil,
            limit: Self.maximumClients,
            now: now,
            freshness: freshness
        )
        var entries: [Entry] = []
        for (position, summary) in listed.items.enumerated() {
            // A cold view reads each client's wheel (inline, microseconds each): thousands in a row would hold a
            // cooperative thread, so other requests get their turn between every few dozen.
            if position % 50 == 49 { await Task.yield() }
            var reasons: [Reason] = []
            let facts = try await wheels.attentionFacts(client: summary.id, company: company, language: language)
            if !facts.flagged.isEmpty { reasons.append(.flagged(facts.flagged)) }
            let screening = ScreeningDue.state(summary.screening, now: now)
            if screening.needsAttention { reasons.append(.screening(screening)) }
            if facts.lastResult.map({ now.timeIntervalSince($0) > Double(Self.quietDays) * 86_400 }) ?? true {
                reasons.append(.noRecentResult(facts.lastResult))
            }
            if !reasons.isEmpty { entries.append(Entry(summary: summary, reasons: reasons)) }
        }
        return (entries, listed.nextCursor != nil)
    }
}

extension ClientWheels {
    /// What the attention view needs of a client's wheel: its flagged categories' names and its newest result's
    /// date, cached as the wheel's other renderings are.
    func attentionFacts(client: UUID, company: UUID, language: String) async throws -> (flagged: [String], lastResult: Date?) {
        let bytes = try await rendered(client: client, company: company, rendering: "attention-" + language, language: language, themeVersion: 0) {
            slices in
            let last = slices.flatMap(\.exercises).compactMap(\.latest?.recordedAt).max()
            let flagged = slices.filter(\.flagged).map(\.name)
            return Array(([last.map { String($0.timeIntervalSince1970) } ?? ""] + flagged).joined(separator: "\u{1F}").utf8)
        }.slices
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
        return (Array(parts.dropFirst()), Double(parts[0]).map(Date.init(timeIntervalSince1970:)))
    }
}
