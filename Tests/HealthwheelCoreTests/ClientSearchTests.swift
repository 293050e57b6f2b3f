import Foundation
import HealthwheelCore
import Testing

/// `ClientSearch`: the list order and the terms a client is found by.
@Suite struct ClientSearchTests {
    static func client(given: String? = nil, family: String? = nil, email: String? = nil, phone: String? = nil) -> Client {
        var client = Client(companyId: UUID(), createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        client.givenName = given
        client.familyName = family
        client.email = email
        client.phone = phone
        return client
    }

    /// The rule the repository applies: every word of the query prefixes one of the client's terms.
    static func finds(_ query: String, _ client: Client) -> Bool {
        let terms = ClientSearch.terms(for: client)
        return ClientSearch.queryWords(query).allSatisfy { word in terms.contains { $0.hasPrefix(word) } }
    }

    @Test func foldingDropsCaseAndAccents() {
        #expect(ClientSearch.fold("Zoë Ångström") == "zoe angstrom")
        #expect(ClientSearch.fold("ÉMILE Brontë") == "emile bronte")
        #expect(ClientSearch.fold("François") == "francois")
    }

    @Test func asciiFoldsExactlyAsFoundationFoldsIt() {
        func foundation(_ text: String) -> String {
            text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        }
        let every = String(decoding: Array(0..<0x80) as [UInt8], as: UTF8.self)
        #expect(ClientSearch.fold(every) == foundation(every))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let text = String(
                decoding: (0..<Int.random(in: 0...24, using: &generator)).map { _ in UInt8.random(in: 0..<0x80, using: &generator) },
                as: UTF8.self
            )
            #expect(ClientSearch.fold(text) == foundation(text), "\(Array(text.utf8))")
        }
        #expect(ClientSearch.fold("Olivia O'BRIEN-Smith client7@Example.COM") == "olivia o'brien-smith client7@example.com")
    }

    @Test func theSortKeyIsFamilyThenGivenName() {
        let adaZ = ClientSearch.sortKey(for: Self.client(given: "Ada", family: "Zeta"))
        let zoeA = ClientSearch.sortKey(for: Self.client(given: "Zoë", family: "Adams"))
        #expect(zoeA < adaZ)
        let bethAdams = ClientSearch.sortKey(for: Self.client(given: "Beth", family: "Adams"))
        let johnAdams = ClientSearch.sortKey(for: Self.client(given: "John", family: "adams"))
        #expect(bethAdams < johnAdams)
    }

    @Test func sortingIgnoresCaseAndAccents() {
        let names = [("Dick", "van Dyke"), ("Zoë", "Ångström"), ("john", "adams"), ("Amy", "Zeta")]
        let sorted = names.sorted {
            ClientSearch.sortKey(for: Self.client(given: $0.0, family: $0.1)) < ClientSearch.sortKey(for: Self.client(given: $1.0, family: $1.1))
        }
        #expect(sorted.map(\.1) == ["adams", "Ångström", "van Dyke", "Zeta"])
    }

    @Test func aShorterFamilyNameSortsBeforeALongerOneWithTheSameStart() {
        let li = ClientSearch.sortKey(for: Self.client(given: "Zed", family: "Li"))
        let lia = ClientSearch.sortKey(for: Self.client(given: "Ann", family: "Lia"))
        #expect(li < lia)
    }

    @Test func termsAreTheFoldedNameWordsTheEmailAndThePhoneDigits() {
        let client = Self.client(given: "Zoë Anne", family: "Ångström", email: "zoe@example.com", phone: "021 555-1234")
        let terms = ClientSearch.terms(for: client)
        #expect(terms.isSuperset(of: ["zoe", "anne", "angstrom", "zoe@example.com", "0215551234", "215551234"]))
        #expect(!terms.contains { $0.contains(" ") || $0.contains("-") })
    }

    @Test func aClientWithoutDetailsHasNoEmptyTerms() {
        let terms = ClientSearch.terms(for: Self.client(given: "Ada", phone: "+-()"))
        #expect(terms == ["ada"])
    }

    @Test func queryWordsAreFolded() {
        #expect(ClientSearch.queryWords("  Zoë   ÅNG ") == ["zoe", "ang"])
    }

    @Test func queryWordsThatLookLikePhoneNumbersKeepOnlyDigits() {
        #expect(ClientSearch.queryWords("ada (021)555-12") == ["ada", "02155512"])
    }

    @Test func aQueryOfOnlyAPhoneNumberIsOneNumberHoweverItIsGrouped() {
        #expect(ClientSearch.queryWords("+64 (021) 555-12") == ["6402155512"])
    }

    @Test func queryWordsSplitOnCommas() {
        #expect(ClientSearch.queryWords("lovelace,ada") == ["lovelace", "ada"])
    }

    @Test func aQueryOfOnlyPunctuationHasNoWords() {
        #expect(ClientSearch.queryWords(" - ").isEmpty)
    }

    @Test func aFoldedPrefixFindsAnAccentedFamilyName() {
        #expect(Self.finds("ang", Self.client(given: "Zoë", family: "Ångström")))
        #expect(Self.finds("ZOE", Self.client(given: "Zoë", family: "Ångström")))
    }

    @Test func everyQueryWordMustMatch() {
        let zoe = Self.client(given: "Zoë", family: "Ångström")
        #expect(Self.finds("zoe ang", zoe))
        #expect(!Self.finds("zoe adams", zoe))
    }

    @Test func anEmailPrefixFindsTheClient() {
        let client = Self.client(given: "Ada", email: "countess@example.com")
        #expect(Self.finds("countess@ex", client))
        #expect(!Self.finds("count@", client))
    }

    @Test func phoneDigitsFindTheClientWithOrWithoutTheTrunkZero() {
        let client = Self.client(given: "Ada", phone: "021 555-1234")
        #expect(Self.finds("021555", client))
        #expect(Self.finds("21555", client))
        #expect(Self.finds("(021)", client))
        #expect(!Self.finds("022", client))
    }

    @Test func aPhoneNumberTypedWithSpacesFindsTheClient() {
        // Numbers are read out and typed in groups; the groups must still find the client.
        let client = Self.client(given: "Ada", phone: "021 555 1234")
        #expect(Self.finds("021 555 1234", client))
        #expect(Self.finds("021 555", client))
    }

    @Test func aPhoneNumberWithoutItsCountryCodeFindsTheClient() {
        // ClientSearch.terms documents this very example: "21 555" finds "+64 21 555 1234".
        #expect(Self.finds("21 555", Self.client(given: "Ada", phone: "+64 21 555 1234")))
    }
}
