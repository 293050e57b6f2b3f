import Foundation
import HealthwheelCore
import StoreContract

/// A client as its rows are written: the derived sort key and search terms computed once, before the write.
struct ClientRow: Sendable {
    let client: Client
    let sortName: String
    /// Sorted, so that `allTerms` is stable.
    let terms: [String]
    /// Every term, each preceded by a space (`client_search_terms.all_terms`).
    let allTerms: String

    init(_ client: Client) {
        self.client = client
        sortName = ClientSearch.sortKey(for: client)
        terms = ClientSearch.terms(for: client).sorted()
        allTerms = terms.map { " " + $0 }.joined()
    }
}
