import Foundation

/// Writes clients as vCard 4.0 (RFC 6350) that `VCardParser` reads back to the same details.
public enum VCardWriter {
    /// One card. `uid` identifies the client across export and re-import.
    public static func card(for client: Client, uid: String, photo: (contentType: String, bytes: [UInt8])?) -> String {
        var lines = ["BEGIN:VCARD", "VERSION:4.0", "UID:\(escape(uid))"]
        lines.append("FN:\(escape(client.fullName))")
        lines.append("N:\(escape(client.familyName ?? ""));\(escape(client.givenName ?? ""));;;")
        if let email = client.email { lines.append("EMAIL;TYPE=home:\(escape(email))") }
        if let phone = client.phone { lines.append("TEL;TYPE=cell:\(escape(phone))") }
        if let birthDate = client.birthDate {
            lines.append("BDAY:" + String(format: "%04d%02d%02d", birthDate.year, birthDate.month, birthDate.day))
        }
        if let sex = client.sex { lines.append("GENDER:\(sex == .male ? "M" : "F")") }
        if let notes = client.notes { lines.append("NOTE:\(escape(notes))") }
        if let photo { lines.append("PHOTO:data:\(photo.contentType);base64,\(Data(photo.bytes).base64EncodedString())") }
        lines.append("END:VCARD")
        return lines.map(fold).joined()
    }

    /// Escapes the characters vCard text values reserve. Every line break (LF, CRLF or a lone CR) becomes `\n`: a raw
    /// one would end the property, and the text after it would be read as properties of its own.
    static func escape(_ text: String) -> String {
        var escaped = String.UnicodeScalarView()
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { afterCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\n" where afterCarriageReturn: continue  // the CR already wrote it
            case "\n", "\r": escaped.append(contentsOf: "\\n".unicodeScalars)
            case "\\", ",", ";":
                escaped.append("\\")
                escaped.append(scalar)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// Lines longer than 75 octets continue on lines starting with a space, never splitting a UTF-8 character.
    static func fold(_ line: String) -> String {
        var output = ""
        var current = ""
        var octets = 0
        for character in line {
            let size = String(character).utf8.count
            if octets + size > 75 {
                output += current + "\r\n"
                current = " "
                octets = 1
            }
            current.append(character)
            octets += size
        }
        return output + current + "\r\n"
    }
}
