import Foundation

/// A client's record as HL7 FHIR R4 JSON, for the physiotherapists' and doctors' systems trainers work beside:
/// a `collection` Bundle of the Patient, the trainers as Practitioners, each screening as a QuestionnaireResponse
/// with its Questionnaire, each result as an Observation (LOINC where the exercise has a code, always Healthwheel's
/// own exercise code, values in UCUM, the 1–10 score as a component) and each photo or video as a Media resource
/// the Observation is derived from. Entries are named `urn:uuid:` and refer to each other by those names.
public enum FHIR {
    /// Healthwheel's code systems and identifiers (URNs in the namespace of the API's problem types).
    public static let exerciseSystem = "urn:healthwheel:fhir:exercise"
    public static let scoreSystem = "urn:healthwheel:fhir:score"
    public static let clientSystem = "urn:healthwheel:fhir:client"
    public static let trainerSystem = "urn:healthwheel:fhir:trainer"
    static let loinc = "http://loinc.org"
    static let ucum = "http://unitsofmeasure.org"
    static let categories = "http://terminology.hl7.org/CodeSystem/observation-category"
    static let mediaTypes = "http://terminology.hl7.org/CodeSystem/media-type"
    static let absentReasons = "http://terminology.hl7.org/CodeSystem/data-absent-reason"

    /// LOINC codes of the vital signs profile: their Observations go in the `vital-signs` category.
    static let vitalSigns: Set<String> = ["29463-7", "8302-2", "39156-5", "85354-9", "8480-6", "8462-4", "40443-4", "8867-4", "9279-1", "8310-5"]
    static let bodyMassIndex = "39156-5"

    /// The canonical URL of a shipped questionnaire (its `version` travels beside it).
    public static func questionnaireURL(_ id: String) -> String { "urn:healthwheel:questionnaire:\(id)" }

    /// The client's record as a Bundle. `mediaURL` says where each file's bytes are found (the API's route, or a
    /// path inside an export); `now` stamps the bundle.
    public static func bundle(_ record: FHIRRecord, mediaURL: (MediaFile) -> String, now: Date) -> JSONValue {
        let client = record.client
        let patient = reference(client.id)
        let trainers = Dictionary(record.trainers.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func trainer(_ id: UUID) -> JSONValue {
            trainers[id] == nil ? ["identifier": ["system": .string(trainerSystem), "value": .string(id.lowercaseHyphenated)]] : reference(id)
        }
        var entries: [(UUID, JSONValue)] = [(client.id, self.patient(client))]
        entries += record.trainers.map { ($0.id, practitioner($0)) }
        entries += profileObservations(client, patient: patient)
        for (index, questionnaire) in record.questionnaires.enumerated() {
            entries.append((client.id.derived(100 + index), self.questionnaire(questionnaire)))
        }
        // The shipped version types the answers (a screening of an older version is answered by the same keys).
        let questionnaires = Dictionary(record.questionnaires.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for screening in record.screenings {
            let questionnaire = questionnaires[screening.questionnaireId]
            entries.append(
                (screening.id, response(screening, questionnaire: questionnaire, patient: patient, author: screening.completedBy.map(trainer)))
            )
        }
        for item in record.results {
            entries.append(
                (item.result.id, observation(item, patient: patient, performer: trainer(item.result.trainerId), flagBelow: record.flagBelow))
            )
            for file in item.media {
                entries.append(
                    (file.id, media(file, patient: patient, operator: trainer(file.createdBy), observation: item.result.id, url: mediaURL(file)))
                )
            }
        }
        return object([
            ("resourceType", "Bundle"),
            ("id", .string(client.id.derived(0).lowercaseHyphenated)),
            ("type", "collection"),
            ("timestamp", .string(instant(now))),
            ("entry", .array(entries.map { id, resource in ["fullUrl": .string("urn:uuid:\(id.lowercaseHyphenated)"), "resource": resource] })),
        ])
    }

    // MARK: - Patient, practitioners

    static func patient(_ client: Client) -> JSONValue {
        let given = client.givenName.flatMap { $0.isEmpty ? nil : JSONValue.array([.string($0)]) }
        let name = object([("text", text(client.fullName)), ("family", text(client.familyName)), ("given", given)])
        var telecom: [JSONValue] = []
        if let email = client.email, !email.isEmpty { telecom.append(["system": "email", "value": .string(email)]) }
        if let phone = client.phone, !phone.isEmpty { telecom.append(["system": "phone", "value": .string(phone)]) }
        return object([
            ("resourceType", "Patient"),
            ("id", .string(client.id.lowercaseHyphenated)),
            ("identifier", [["system": .string(clientSystem), "value": .string(client.id.lowercaseHyphenated)]]),
            ("name", name.object?.count == 0 ? nil : [name]),
            ("telecom", telecom.isEmpty ? nil : .array(telecom)),
            ("gender", client.sex.map { .string($0.rawValue) }),
            ("birthDate", client.birthDate.map { .string($0.description) }),
        ])
    }

    static func practitioner(_ trainer: Trainer) -> JSONValue {
        [
            "resourceType": "Practitioner",
            "id": .string(trainer.id.lowercaseHyphenated),
            "identifier": [["system": .string(trainerSystem), "value": .string(trainer.id.lowercaseHyphenated)]],
            "name": [["text": .string(trainer.name)]],
            "telecom": [["system": "email", "value": .string(trainer.email)]],
        ]
    }

    /// The height and mass on the client's profile, as vital signs dated when the profile last changed.
    static func profileObservations(_ client: Client, patient: JSONValue) -> [(UUID, JSONValue)] {
        var measured: [(UUID, JSONValue)] = []
        let profile: [(Double?, code: String, name: String, unit: String, toSI: Double)] = [
            (client.height, "8302-2", "Body height", "cm", 0.01), (client.mass, "29463-7", "Body weight", "kg", 1),
        ]
        for (index, item) in profile.enumerated() {
            guard let value = item.0 else { continue }
            let id = client.id.derived(1 + index)
            measured.append(
                (
                    id,
                    [
                        "resourceType": "Observation",
                        "id": .string(id.lowercaseHyphenated),
                        "status": "final",
                        "category": [category("vital-signs")],
                        "code": [
                            "coding": [["system": .string(loinc), "code": .string(item.code), "display": .string(item.name)]],
                            "text": .string(item.name),
                        ],
                        "subject": patient,
                        "effectiveDateTime": .string(instant(client.updatedAt)),
                        "valueQuantity": quantity(value / item.toSI, unit: item.unit),
                        "note": [["text": "As recorded on the client's profile"]],
                    ]
                )
            )
        }
        return measured
    }

    // MARK: - Results

    static func observation(_ item: FHIRRecord.Result, patient: JSONValue, performer: JSONValue, flagBelow: Double) -> JSONValue {
        let result = item.result
        let state = result.state
        let exercise = item.exercise
        let name = exercise?.name ?? result.exerciseId
        let categoryCode = exercise?.loinc.map { vitalSigns.contains($0) ? "vital-signs" : "exam" } ?? "activity"

        var value: JSONValue?
        var components: [JSONValue] = []
        // An exercise no longer known keeps its values, without units (no unit is named "").
        let fields = exercise?.fields ?? state.values.keys.sorted().map { Exercise.Field(key: $0, label: $0, quantity: .ratio, unit: "") }
        let ownValue = fields.count == 1 && (fields[0].loinc == nil || fields[0].loinc == exercise?.loinc) && exercise?.loinc != bodyMassIndex
        for field in fields {
            guard let stored = state.values[field.key] else { continue }
            let measured = displayed(stored, field: field)
            if ownValue {
                value = measured
                continue
            }
            components.append([
                "code": concept(loinc: field.loinc, own: "\(result.exerciseId).\(field.key)", text: field.label), "valueQuantity": measured,
            ])
        }
        // A BMI is worked out from the body weight recorded and the height the script was given.
        if exercise?.loinc == bodyMassIndex,
            let mass = fields.first(where: { $0.quantity == .mass }).flatMap({ state.values[$0.key] }),
            let height = state.subject?.height, height > 0
        {
            value = ["value": .number(decimal(mass / (height * height), places: 1)), "unit": "kg/m2", "system": .string(ucum), "code": "kg/m2"]
        }
        components.append(scoreComponent(state))

        var interpretation: JSONValue?
        if let score = state.score {
            let verdict =
                score < flagBelow ? "below the target of \(number(flagBelow)): needs attention" : "at or above the target of \(number(flagBelow))"
            interpretation = [["text": .string("Healthwheel score \(number(score)) of 10, \(verdict)")]]
        }
        return object([
            ("resourceType", "Observation"),
            ("id", .string(result.id.lowercaseHyphenated)),
            ("status", result.revision > 1 ? "amended" : "final"),
            ("category", [category(categoryCode)]),
            ("code", concept(loinc: exercise?.loinc, own: result.exerciseId, text: name)),
            ("subject", patient),
            ("effectiveDateTime", .string(instant(state.recordedAt))),
            ("issued", .string(instant(result.updatedAt))),
            ("performer", [performer]),
            ("valueQuantity", value),
            ("note", state.observations.flatMap { $0.isEmpty ? nil : [["text": .string($0)]] }),
            ("interpretation", interpretation),
            (
                "referenceRange",
                [
                    [
                        "text": .string(
                            "Healthwheel scores run from 1 to 10, scored from published norms for the client's sex and age; the company's target is \(number(flagBelow)) or more"
                        )
                    ]
                ]
            ),
            ("derivedFrom", item.media.isEmpty ? nil : .array(item.media.map { reference($0.id) })),
            ("component", .array(components)),
        ])
    }

    static func scoreComponent(_ state: ScoredState) -> JSONValue {
        let code: JSONValue = [
            "coding": [["system": .string(scoreSystem), "code": "score", "display": "Healthwheel score (1 to 10)"]],
            "text": "Healthwheel score (1 to 10)",
        ]
        if let score = state.score {
            return ["code": code, "valueQuantity": ["value": .number(decimal(score)), "unit": "score", "system": .string(ucum), "code": "{score}"]]
        }
        let reason = state.scoreError ?? "not scored"
        return ["code": code, "dataAbsentReason": ["coding": [["system": .string(absentReasons), "code": "error"]], "text": .string(reason)]]
    }

    /// A stored (SI) value in the unit the exercise shows it in, with its UCUM code.
    static func displayed(_ stored: Double, field: Exercise.Field) -> JSONValue {
        guard let toSI = field.quantity.units.first(where: { $0.name == field.unit })?.toSI else { return ["value": .number(decimal(stored))] }
        return quantity(stored / toSI, unit: field.unit)
    }

    static func quantity(_ value: Double, unit: String) -> JSONValue {
        let code = ucumCode(unit)
        return ["value": .number(decimal(value)), "unit": .string(unit == "count" ? "count" : unit), "system": .string(ucum), "code": .string(code)]
    }

    /// The UCUM code of each unit a field may be shown in.
    static func ucumCode(_ unit: String) -> String {
        switch unit {
        case "bpm": "/min"
        case "mmHg": "mm[Hg]"
        case "count": "{count}"
        case "ratio": "1"
        case "in": "[in_i]"
        case "ft": "[ft_i]"
        case "yd": "[yd_i]"
        case "mi": "[mi_i]"
        case "lb": "[lb_av]"
        case "st": "[stone_av]"
        default: unit  // m, cm, mm, km, kg, g, s, min, h, kPa, %
        }
    }

    static func media(_ file: MediaFile, patient: JSONValue, operator trainer: JSONValue, observation: UUID, url: String) -> JSONValue {
        let kind = file.kind == .photo ? ("image", "Image") : ("video", "Video")
        return object([
            ("resourceType", "Media"),
            ("id", .string(file.id.lowercaseHyphenated)),
            ("status", "completed"),
            ("type", ["coding": [["system": .string(mediaTypes), "code": .string(kind.0), "display": .string(kind.1)]]]),
            ("partOf", [reference(observation)]),
            ("subject", patient),
            ("createdDateTime", .string(instant(file.createdAt))),
            ("operator", trainer),
            ("height", file.height.map { .number(Double($0)) }),
            ("width", file.width.map { .number(Double($0)) }),
            ("duration", file.durationSeconds.map { .number(decimal($0)) }),
            (
                "content",
                object([
                    ("contentType", .string(file.format.contentType)), ("url", .string(url)), ("size", .number(Double(file.bytes))),
                    ("title", text(file.caption)), ("creation", .string(instant(file.createdAt))),
                ])
            ),
        ])
    }

    // MARK: - Building blocks

    static func reference(_ id: UUID) -> JSONValue { ["reference": .string("urn:uuid:\(id.lowercaseHyphenated)")] }

    /// A code in Healthwheel's exercise system, after its LOINC code where it has one.
    static func concept(loinc code: String?, own: String, text: String) -> JSONValue {
        let ownCoding: JSONValue = ["system": .string(exerciseSystem), "code": .string(own), "display": .string(text)]
        let coding: [JSONValue] = code.map { [["system": .string(loinc), "code": .string($0), "display": .string(text)], ownCoding] } ?? [ownCoding]
        return ["coding": .array(coding), "text": .string(text)]
    }

    static func category(_ code: String) -> JSONValue { ["coding": [["system": .string(categories), "code": .string(code)]]] }

    /// An object without the members that are nil (FHIR has no nulls).
    static func object(_ members: [(String, JSONValue?)]) -> JSONValue {
        .object(Dictionary(members.compactMap { key, value in value.map { (key, $0) } }, uniquingKeysWith: { first, _ in first }))
    }

    static func text(_ value: String?) -> JSONValue? { value.flatMap { $0.isEmpty ? nil : .string($0) } }

    /// FHIR's instant: UTC to the second.
    static func instant(_ date: Date) -> String { date.formatted(.iso8601) }

    /// Unit conversions leave binary fractions (85.00000000000001 cm): a decimal as written by hand.
    static func decimal(_ value: Double, places: Int = 6) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(decimal(value, places: 2))
    }
}

extension UUID {
    /// Another id, the same for the same `index`, for a resource that has none of its own (a profile height, the
    /// bundle): the last two bytes turned by `index + 1`, so neither the version nor the variant changes.
    func derived(_ index: Int) -> UUID {
        var bytes = uuid
        bytes.14 ^= UInt8(truncatingIfNeeded: (index + 1) >> 8)
        bytes.15 ^= UInt8(truncatingIfNeeded: index + 1)
        return UUID(uuid: bytes)
    }
}
