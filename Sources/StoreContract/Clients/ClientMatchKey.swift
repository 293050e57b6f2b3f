/// What an import matches a vCard to a stored client by (`ClientRepository.matches`), as the original app
/// matched Contacts.
public enum ClientMatchKey: Hashable, Sendable {
    /// The card's UID, as the client keeps it (`vcardUID`).
    case uid(String)
    /// The email, lowercased as clients keep it.
    case email(String)
    /// The exact full name: given and family name joined by a space, trimmed.
    case fullName(String)
}
