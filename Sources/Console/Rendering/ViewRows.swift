import Foundation

// The view models every page or the busiest pages show, giving their members without reflection (`ViewRow`):
// the frame of every page, the roster and a client's page. Others are read by reflection, once per render.

extension PageFrame: ViewRow {
    var members: [String: Any] {
        var members: [String: Any] = ["language": language, "title": title, "csrf": csrf, "current": current]
        members["trainer"] = trainer
        members["themeStylesheet"] = themeStylesheet
        members["notice"] = notice
        return members
    }
}

extension PageFrame.SignedInTrainer: ViewRow {
    var members: [String: Any] { ["name": name, "company": company, "isAdmin": isAdmin] }
}

extension RosterPages.Choice: ViewRow {
    var members: [String: Any] { ["value": value, "label": label, "selected": selected] }
}

extension RosterPages.Roster: ViewRow {
    var members: [String: Any] {
        var members: [String: Any] = [
            "query": query, "sort": sort, "sorts": sorts, "attentionView": attentionView, "rows": rows, "tooManyToSort": tooManyToSort,
            "count": count,
        ]
        members["nextLink"] = nextLink
        return members
    }
}

extension ClientPages.ClientPage: ViewRow {
    var members: [String: Any] {
        var members: [String: Any] = [
            "link": link, "header": header, "wheel": wheel, "wheelAlt": wheelAlt, "today": today, "glance": glance, "trends": trends,
            "latest": latest, "canRecord": canRecord, "isAdmin": isAdmin,
        ]
        members["compare"] = compare
        return members
    }
}

extension ClientPages.ClientHeader: ViewRow {
    var members: [String: Any] {
        var members: [String: Any] = ["name": name, "initials": initials, "screening": screening, "screeningLabel": screeningLabel]
        members["photo"] = photo
        members["age"] = age
        members["goal"] = goal
        members["trainer"] = trainer
        members["screeningDue"] = screeningDue
        members["flags"] = flags
        members["contact"] = contact
        return members
    }
}

extension ClientPages.GlanceRow: ViewRow {
    var members: [String: Any] {
        var members: [String: Any] = [
            "name": name, "categoryClass": categoryClass, "score": score, "changeDirection": changeDirection, "flagged": flagged,
        ]
        members["change"] = change
        members["weakest"] = weakest
        return members
    }
}

extension ClientPages.LatestResult: ViewRow {
    var members: [String: Any] {
        ["date": date, "exercise": exercise, "values": values, "score": score, "photos": photos]
    }
}

extension ClientPages.Photo: ViewRow {
    var members: [String: Any] { ["src": src, "alt": alt] }
}

extension TrendChart: ViewRow {
    var members: [String: Any] { ["name": name, "categoryClass": categoryClass, "svg": svg, "summary": summary] }
}
