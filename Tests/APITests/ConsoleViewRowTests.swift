import Foundation
import Testing

@testable import Console

/// The view models that give their members by hand (`ViewRow`) give every one of them: a member left out would
/// leave its template blank without a word.
@Suite struct ConsoleViewRowTests {
    func expectEveryMember(_ row: some ViewRow, sourceLocation: SourceLocation = #_sourceLocation) {
        let labels = Set(Mirror(reflecting: row).children.compactMap(\.label))
        #expect(Set(row.members.keys) == labels, "\(type(of: row))", sourceLocation: sourceLocation)
    }

    @Test func everyHandWrittenViewGivesEveryMember() {
        let trainer = PageFrame.SignedInTrainer(name: "A", company: "C", isAdmin: true)
        expectEveryMember(trainer)
        expectEveryMember(
            PageFrame(language: "en", title: "T", trainer: trainer, csrf: "x", themeStylesheet: "/t.css", current: ["a": true], notice: "n")
        )
        let choice = RosterPages.Choice(value: "v", label: "l", selected: true)
        expectEveryMember(choice)
        expectEveryMember(
            RosterPages.Roster(
                query: "q",
                sort: "name",
                sorts: [choice],
                attentionView: false,
                rows: [],
                nextLink: "/n",
                tooManyToSort: false,
                count: "1"
            )
        )
        let header = ClientPages.ClientHeader(
            name: "N",
            initials: "NI",
            photo: "/p",
            age: "30",
            goal: "g",
            trainer: "t",
            screening: "current",
            screeningLabel: "s",
            screeningDue: "d",
            flags: "f",
            contact: "c"
        )
        expectEveryMember(header)
        let glance = ClientPages.GlanceRow(
            name: "n",
            categoryClass: "c",
            score: "1",
            change: "+1",
            changeDirection: "up",
            flagged: true,
            weakest: "w"
        )
        expectEveryMember(glance)
        let photo = ClientPages.Photo(src: "/s", alt: "a")
        expectEveryMember(photo)
        let latest = ClientPages.LatestResult(date: "d", exercise: "e", values: "v", score: "1", photos: [photo])
        expectEveryMember(latest)
        let trend = TrendChart(name: "n", categoryClass: "c", svg: "<svg/>", summary: "s")
        expectEveryMember(trend)
        expectEveryMember(
            ClientPages.ClientPage(
                link: "/l",
                header: header,
                wheel: "/w",
                wheelAlt: "a",
                compare: "2026-01-01",
                today: "2026-01-02",
                glance: [glance],
                trends: [trend],
                latest: [latest],
                canRecord: true,
                isAdmin: false
            )
        )
    }
}
