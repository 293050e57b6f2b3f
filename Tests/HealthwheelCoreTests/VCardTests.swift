import Foundation
import HealthwheelCore
import Testing

/// Cards shaped like real exports: Apple Contacts (macOS, vCard 3.0), Google Contacts (vCard 3.0), an Android
/// phone (vCard 2.1, quoted-printable), and vCard 4.0.
enum SampleCards {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01]
    static var jpegBase64: String { Data(jpeg).base64EncodedString() }

    static let apple = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        PRODID:-//Apple Inc.//macOS 14.5//EN\r
        N:Appleseed;John;;;\r
        FN:John Appleseed\r
        ORG:Apple Inc.;\r
        item1.EMAIL;type=INTERNET;type=pref:John-Appleseed@mac.com\r
        item1.X-ABLabel:_$!<Other>!$_\r
        TEL;type=HOME;type=VOICE:888-555-1212\r
        TEL;type=CELL;type=VOICE;type=pref:888-555-5512\r
        item2.ADR;type=WORK;type=pref:;;3494 Kuhl Avenue;Atlanta;GA;30303;USA\r
        BDAY:1980-06-22\r
        X-GENDER:Male\r
        PHOTO;ENCODING=b;TYPE=JPEG:\(jpegBase64)\r
        UID:2E4CB084-4767-4C85-BBCA-805B1DCB1C8E\r
        X-ABUID:2E4CB084-4767-4C85-BBCA-805B1DCB1C8E:ABPerson\r
        END:VCARD\r

        """

    static let google = """
        BEGIN:VCARD
        VERSION:3.0
        FN:Jane Doe
        N:Doe;Jane;;;
        EMAIL;TYPE=INTERNET;TYPE=HOME:jane.doe@gmail.com
        TEL;TYPE=CELL:+1 650-555-0100
        BDAY:1990-12-01
        PHOTO:https://lh3.googleusercontent.com/contacts/ABCDEF
        CATEGORIES:myContacts
        END:VCARD

        """

    static let android = """
        BEGIN:VCARD
        VERSION:2.1
        N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=85ngstr=C3=B6m;Zo=C3=AB;;;
        FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Zo=C3=AB =C3=85ngstr=C3=B6m
        TEL;CELL;PREF:021555123
        BDAY:19850314
        END:VCARD

        """

    static let version4 = """
        BEGIN:VCARD
        VERSION:4.0
        UID:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1
        FN:Tomás O'Brien
        N:O'Brien;Tomás;;;
        EMAIL;PREF=1:tomas@example.ie
        GENDER:M
        BDAY:--0415
        PHOTO:data:image/jpeg;base64,\(jpegBase64.prefix(8))
         \(jpegBase64.dropFirst(8))
        END:VCARD

        """
}

@Suite struct VCardParserTests {
    func only(_ text: String) throws -> VCardContact {
        let cards = VCardParser.parse(text)
        #expect(cards.count == 1)
        return try cards[0].get()
    }

    @Test func readsAnAppleContactsCard() throws {
        let contact = try only(SampleCards.apple)
        #expect(contact.givenName == "John" && contact.familyName == "Appleseed")
        #expect(contact.email == "John-Appleseed@mac.com")
        #expect(contact.phone == "888-555-5512", "the preferred mobile number wins")
        #expect(contact.birthDate == CalendarDate(year: 1980, month: 6, day: 22))
        #expect(contact.sex == .male)
        #expect(contact.uid == "2E4CB084-4767-4C85-BBCA-805B1DCB1C8E")
        #expect(contact.photo?.contentType == "image/jpeg" && contact.photo?.bytes == SampleCards.jpeg)
        // PRODID, X-ABLabel and X-ABUID are bookkeeping; the home number, ORG and ADR are the person's.
        #expect(
            contact.notes == [
                "phone not imported (a client keeps one): 888-555-1212", "not imported (not kept by Healthwheel): ORG, ADR",
            ]
        )
    }

    @Test func readsAGoogleContactsCardAndNotesTheLinkedPhoto() throws {
        let contact = try only(SampleCards.google)
        #expect(contact.fullName == "Jane Doe")
        #expect(contact.email == "jane.doe@gmail.com" && contact.phone == "+1 650-555-0100")
        #expect(contact.birthDate == CalendarDate(year: 1990, month: 12, day: 1))
        #expect(contact.photo == nil)
        #expect(contact.notes.contains { $0.contains("photo") && $0.contains("link") })
    }

    @Test func decodesQuotedPrintableUTF8AndCompactBirthdays() throws {
        let contact = try only(SampleCards.android)
        #expect(contact.givenName == "Zoë" && contact.familyName == "Ångström")
        #expect(contact.formattedName == "Zoë Ångström")
        #expect(contact.phone == "021555123")
        #expect(contact.birthDate == CalendarDate(year: 1985, month: 3, day: 14))
    }

    @Test func unfoldsLinesAndReadsDataURIPhotosGenderAndYearlessBirthdays() throws {
        let contact = try only(SampleCards.version4)
        #expect(contact.photo?.bytes == SampleCards.jpeg)
        #expect(contact.sex == .male)
        #expect(contact.birthDate == nil)
        #expect(contact.notes.contains { $0.contains("without a year") })
        #expect(contact.familyName == "O'Brien" && contact.givenName == "Tomás")
    }

    @Test func joinsQuotedPrintableSoftLineBreaks() throws {
        let card = "BEGIN:VCARD\nVERSION:2.1\nN;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:Long=\nfamily;Gi=\nven;;;\nEND:VCARD\n"
        let contact = try only(card)
        #expect(contact.familyName == "Longfamily" && contact.givenName == "Given")
    }

    @Test func unescapesStructuredValues() throws {
        let contact = try only("BEGIN:VCARD\nVERSION:3.0\nN:Smith\\, Jr.;Ann\\;Marie;;;\nEND:VCARD\n")
        #expect(contact.familyName == "Smith, Jr." && contact.givenName == "Ann;Marie")
    }

    @Test func aBrokenCardFailsAloneAndTheOthersStillParse() {
        let text =
            SampleCards.google + "BEGIN:VCARD\nVERSION:3.0\nEMAIL:x@example.com\nEND:VCARD\n" + SampleCards.android
            + "BEGIN:VCARD\nN;ENCODING=QUOTED-PRINTABLE:=ZZ;;;\nEND:VCARD\n" + "BEGIN:VCARD\nFN:Never Ends\n"
        let cards = VCardParser.parse(text)
        #expect(cards.count == 5)
        #expect((try? cards[0].get())?.fullName == "Jane Doe")
        #expect((try? cards[2].get())?.fullName == "Zoë Ångström")
        for index in [1, 3, 4] {
            guard case .failure(let failure) = cards[index] else {
                Issue.record("card \(index) should have failed")
                continue
            }
            #expect(!failure.reason.isEmpty)
        }
    }

    @Test func aBodyOfThreeHundredThousandFoldedLinesParsesToOneCard() throws {
        // 1.2 MB of one-character continuation lines: once quadratic (minutes), now read in one pass.
        let body = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:F" + String(repeating: "\r\n x", count: 300_000) + "\r\nEND:VCARD\r\n"
        let contact = try only(body)
        #expect(contact.formattedName?.count == 300_001)
        #expect(contact.formattedName == "F" + String(repeating: "x", count: 300_000))
        #expect(contact.givenName == contact.formattedName && contact.familyName == nil)
    }

    @Test func aValueOfThreeHundredThousandSoftLineBreaksParsesToOneCard() throws {
        let note = "NOTE;ENCODING=QUOTED-PRINTABLE:" + String(repeating: "x=\r\n", count: 300_000) + "y"
        let contact = try only("BEGIN:VCARD\r\nVERSION:2.1\r\nFN:F\r\n\(note)\r\nEND:VCARD\r\n")
        #expect(contact.note == String(repeating: "x", count: 300_000) + "y")
    }

    @Test func fallsBackToTheFormattedNameWhenThereIsNoStructuredName() throws {
        let contact = try only("BEGIN:VCARD\nVERSION:3.0\nFN:Mary Ann Lee\nEND:VCARD\n")
        #expect(contact.givenName == "Mary Ann" && contact.familyName == "Lee")
    }
}

@Suite struct VCardWriterTests {
    func client() -> Client {
        var client = Client(companyId: UUID(), createdAt: Date())
        client.givenName = "Zoë, \"Zo\""
        client.familyName = "Ångström; née Smith"
        client.email = "zoe@example.com"
        client.phone = "+64 21 555 1234"
        client.birthDate = CalendarDate(year: 1985, month: 3, day: 14)
        client.sex = .female
        client.notes = "Left knee: no lunges; mornings, ideally\r\nBring a towel\\mat\nEND:VCARD"
        return client
    }

    @Test func writtenCardsReadBackToTheSameDetails() throws {
        let original = client()
        let photo = [UInt8](repeating: 0xAB, count: 3_000)
        let text = VCardWriter.card(for: original, uid: "urn:uuid:\(original.id)", photo: ("image/jpeg", SampleCards.jpeg + photo))
        let contact = try VCardParser.parse(text)[0].get()
        #expect(contact.givenName == original.givenName)
        #expect(contact.familyName == original.familyName)
        #expect(contact.email == original.email && contact.phone == original.phone)
        #expect(contact.birthDate == original.birthDate && contact.sex == original.sex)
        #expect(contact.uid == "urn:uuid:\(original.id)")
        #expect(contact.photo?.bytes == SampleCards.jpeg + photo)
        #expect(contact.note == "Left knee: no lunges; mornings, ideally\nBring a towel\\mat\nEND:VCARD")
        #expect(contact.notes.isEmpty)
    }

    @Test func notesAreEscapedSoNoLineOfThemEndsTheCard() throws {
        var withNotes = client()
        withNotes.notes = "one\r\nEND:VCARD\rBEGIN:VCARD\nFN:Someone Else"
        let text = VCardWriter.card(for: withNotes, uid: "x", photo: nil)
        #expect(text.contains(#"NOTE:one\nEND:VCARD\nBEGIN:VCARD\nFN:Someone Else"#))
        let cards = VCardParser.parse(text)
        #expect(cards.count == 1)
        #expect(try cards[0].get().note == "one\nEND:VCARD\nBEGIN:VCARD\nFN:Someone Else")
    }

    @Test func aClientWithoutNotesGetsNoNoteLine() {
        var plain = client()
        plain.notes = nil
        #expect(!VCardWriter.card(for: plain, uid: "x", photo: nil).contains("NOTE"))
    }

    @Test func foldsLongLinesAtSeventyFiveOctetsWithoutSplittingCharacters() {
        var long = client()
        long.familyName = String(repeating: "ö", count: 100)
        let text = VCardWriter.card(for: long, uid: "x", photo: nil)
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines.contains { $0.hasPrefix(" ") })
        #expect(text.hasPrefix("BEGIN:VCARD\r\nVERSION:4.0\r\n") && text.hasSuffix("END:VCARD\r\n"))
    }
}
