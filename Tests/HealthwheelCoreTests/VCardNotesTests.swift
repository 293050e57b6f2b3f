import Foundation
import HealthwheelCore
import Testing

/// NOTE, and the report of everything a card holds that a client does not keep.
@Suite struct VCardNotesTests {
    func only(_ text: String) throws -> VCardContact {
        let cards = VCardParser.parse(text)
        #expect(cards.count == 1)
        return try cards[0].get()
    }

    func card(_ version: String = "3.0", _ lines: String...) -> String {
        (["BEGIN:VCARD", "VERSION:\(version)", "FN:Ann Lee"] + lines + ["END:VCARD", ""]).joined(separator: "\r\n")
    }

    // MARK: - NOTE

    @Test func aFoldedNoteIsUnescapedIntoNote() throws {
        let contact = try only(
            card("3.0", #"NOTE:Knee surgery 2019\nprefers mornings\, not Mon"#, #" days\; a towel \\o/\N"#, "\tthanks")
        )
        #expect(contact.note == "Knee surgery 2019\nprefers mornings, not Mondays; a towel \\o/\nthanks")
        #expect(contact.notes.isEmpty)
    }

    @Test func severalNotesAreJoinedWithABlankLineAndEmptyOnesSkipped() throws {
        let contact = try only(card("4.0", "NOTE:first", "NOTE: ", "NOTE:second\\nline"))
        #expect(contact.note == "first\n\nsecond\nline")
    }

    @Test func aCardWithoutANoteHasNone() throws {
        #expect(try only(card()).note == nil)
    }

    @Test func aQuotedPrintableNoteIsDecodedInItsCharsetAcrossSoftBreaks() throws {
        let contact = try only(card("2.1", "NOTE;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:Caf=E9 au lait=0D=0A=", "second line"))
        #expect(contact.note == "Café au lait\nsecond line")
    }

    /// U+0000, raw or quoted-printable, refuses the card (as in JSON), naming the property, wherever the card keeps
    /// it (a property's name goes into the notes); the next card is read.
    @Test func aCardHoldingTheNULCharacterIsRefusedNamingTheProperty() throws {
        let cards = VCardParser.parse(
            card("2.1", "NOTE;ENCODING=QUOTED-PRINTABLE:a=00b") + card("3.0", "TEL:021\u{0}555") + card("3.0", "X-PET\u{0}:Rex")
                + card("3.0", "TEL:021555123")
        )
        let reasons = cards.map { result -> String? in if case .failure(let failure) = result { failure.reason } else { nil } }
        #expect(
            reasons == [
                "NOTE: the value contains the NUL character (U+0000)", "TEL: the value contains the NUL character (U+0000)",
                "a property kept in the notes: the value contains the NUL character (U+0000)", nil,
            ]
        )
    }

    @Test func aMalformedNoteIsReportedAndTheClientStillImported() throws {
        let contact = try only(card("2.1", "NOTE;ENCODING=QUOTED-PRINTABLE:=ZZ", "TEL:021555123"))
        #expect(contact.note == nil && contact.phone == "021555123")
        #expect(contact.notes == ["note not imported: the quoted-printable value is malformed"])
    }

    @Test func aValueMentioningQuotedPrintableEndingInEqualsIsNotASoftBreak() throws {
        // Only the head (before the first colon) declares an encoding; the next line is a property of its own.
        let contact = try only(card("3.0", "NOTE:use QUOTED-PRINTABLE=", "TEL:021555123"))
        #expect(contact.note == "use QUOTED-PRINTABLE=")
        #expect(contact.phone == "021555123")
    }

    @Test func aHeadFoldedInsideTheEncodingStillJoinsSoftBreaks() throws {
        let contact = try only(card("2.1", "N;CHARSET=UTF-8;ENCODING=QUOTED-", " PRINTABLE:=C3=85ngstr=", "=C3=B6m;Zo=C3=AB;;;"))
        #expect(contact.familyName == "Ångström" && contact.givenName == "Zoë")
    }

    // MARK: - What is not kept

    @Test func unkeptPropertiesAreNamedOnceEachInOrderOfFirstAppearance() throws {
        let contact = try only(
            card(
                "3.0",
                "ADR;TYPE=HOME:;;1 Main St;Springfield;;;",
                "ORG:Acme;",
                "item1.URL:https\\://acme.example",
                "item1.X-ABLabel:_$!<HomePage>!$_",
                "ADR;TYPE=WORK:;;2 Side St;Springfield;;;",
                "TITLE:Coach",
                "NICKNAME:Annie",
                "X-SOCIALPROFILE;type=twitter:x-apple:annie",
                "IMPP:xmpp:ann@example.com",
                "RELATED;TYPE=spouse:Bob",
                "item2.X-ABDATE:2010-05-01",
                "item2.X-ABLabel:_$!<Anniversary>!$_",
                "X-ANDROID-CUSTOM:vnd.android.cursor.item/relation;Bob;1;;;;;;;;;;;;;",
                "CATEGORIES:clients,runners",
                "org:Acme again"
            )
        )
        let expected =
            "not imported (not kept by Healthwheel): ADR, ORG, URL, TITLE, NICKNAME, X-SOCIALPROFILE, IMPP, RELATED, "
            + "X-ABDATE, X-ANDROID-CUSTOM (relation), CATEGORIES"
        #expect(contact.notes == [expected])
    }

    @Test func metadataAndEmptyValuesAreNotNamed() throws {
        let contact = try only(
            card(
                "3.0",
                "PRODID:-//Apple Inc.//macOS 14.5//EN",
                "REV:2024-05-01T10:00:00Z",
                "KIND:individual",
                "UID:abc",
                "X-ABUID:ABC:ABPerson",
                "X-ABShowAs:PERSON",
                "item1.EMAIL:ann@example.com",
                "item1.X-ABLabel:_$!<Other>!$_",
                "ORG:;",
                "ADR;TYPE=HOME:;;;;;;"
            )
        )
        #expect(contact.notes.isEmpty)
        #expect(contact.uid == "abc" && contact.email == "ann@example.com")
    }

    @Test func anUnkeptPropertyThatDoesNotDecodeIsNamedAndDoesNotFailTheCard() throws {
        let contact = try only(card("2.1", "ADR;HOME;ENCODING=QUOTED-PRINTABLE:;;=ZZ;;;;", "TEL;CELL:021555123"))
        #expect(contact.phone == "021555123")
        #expect(contact.notes == ["not imported (not kept by Healthwheel): ADR"])
    }

    @Test func extraEmailsAndPhoneNumbersAreNamed() throws {
        let contact = try only(
            card(
                "3.0",
                "EMAIL;TYPE=HOME:home@x.example",
                "EMAIL;TYPE=WORK;TYPE=pref:work@x.example",
                "EMAIL:HOME@x.example",
                "TEL;TYPE=HOME:(888) 555-1212",
                "TEL;TYPE=CELL:021 555 123",
                "TEL;TYPE=WORK:888-555-1212",
                "TEL;TYPE=FAX:888-555-9999"
            )
        )
        #expect(contact.email == "work@x.example" && contact.phone == "021 555 123")
        #expect(
            contact.notes == [
                "email not imported (a client keeps one): home@x.example",
                "phone not imported (a client keeps one): (888) 555-1212",
                "phone not imported (a client keeps one): 888-555-9999",
            ]
        )
    }

    @Test func theFirstBirthdayAndSexAreKeptAndConflictingOnesNamed() throws {
        let contact = try only(
            card("4.0", "BDAY:19800622", "GENDER:M;he/him", "BDAY:1980-06-22", "BDAY:1981-01-01", "X-GENDER:Female", "GENDER:M")
        )
        #expect(contact.birthDate == CalendarDate(year: 1980, month: 6, day: 22) && contact.sex == .male)
        #expect(
            contact.notes == [
                "gender identity not imported: he/him",
                "birthday not imported (a client keeps one): 1981-01-01",
                "gender not imported (a client keeps one): Female",
            ]
        )
    }

    @Test func aGenderThatIsNeitherMaleNorFemaleIsNamedUnlessUnknown() throws {
        #expect(try only(card("4.0", "GENDER:O")).notes == ["gender 'O' not imported (a client's sex is male or female)"])
        #expect(try only(card("4.0", "GENDER:U")).notes.isEmpty)
    }

    @Test func emptyParametersAndQuotedSeparatorsAreRead() throws {
        let contact = try only(card("3.0", "TEL;;CELL;:021555123", #"EMAIL;X-LABEL="a;b:c,d";TYPE=pref:ann@example.com"#))
        #expect(contact.phone == "021555123" && contact.email == "ann@example.com")
        #expect(contact.notes.isEmpty)
    }
}
