import Reports

/// The strings a reader's texts are written in: the language they asked for, refused as `lang` unless reports
/// are written in it, else their company theme's.
func readerStrings(asked: String?, themeLanguage: String) throws -> ReportStrings {
    if let asked, !ReportStrings.languages.contains(asked) {
        throw ServiceError.invalid("lang", "must be one of \(ReportStrings.languages.joined(separator: ", "))")
    }
    return try ReportStrings(language: asked ?? themeLanguage)
}
