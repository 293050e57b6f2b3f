import Testing

@testable import Services

/// `RenderedObjects` keeps each list entry's JSON without its keys; every entry must come back byte for byte.
@Suite struct RenderedObjectsTests {
    static let objects = [
        #"{"id":"A1","name":"Ana","notes":null,"flags":[],"age":35}"#,
        #"{"id":"B2","name":"He said \"hi, {there}\" [ok]\\","notes":"a,b:c","flags":["x","]"],"age":-1.5e3}"#,
        #"{"id":"C3","name":"","notes":{"nested":[1,{"deep":"}"}]},"flags":[[]],"age":0}"#,
        // Other keys, other order, no keys, and what is not one compact object: all kept whole.
        #"{"name":"Ana","id":"A1","notes":null,"flags":[],"age":35}"#,
        #"{"id":"D4"}"#,
        "{}",
        #"{ "id": "E5" }"#,
        #"{"id":"F6","name":"x","notes":null,"flags":[],"age":1}trailing"#,
        #"{"id":"G7","name":"unterminated"#,
        "not json at all",
        "",
        #"["an","array"]"#,
    ]

    @Test func everyObjectComesBackByteForByte() {
        var store = RenderedObjects()
        let long = String(repeating: "ü", count: 20_000)
        let all = Self.objects + [#"{"id":"H8","name":"\#(long)","notes":null,"flags":[],"age":2}"#]
        for object in all { store.append(Array(object.utf8)) }
        #expect(store.count == all.count)
        for (index, object) in all.enumerated() {
            #expect(String(decoding: store[index], as: UTF8.self) == object, "object \(index)")
        }
    }

    @Test func objectsOfOneShapeKeepOnlyTheirValues() {
        var store = RenderedObjects()
        var bytes = 0
        for index in 0..<2_000 {
            let object = Array(#"{"identifier":"client-\#(index)","givenName":"Olivia","familyName":"Smith","assignedTrainerId":null}"#.utf8)
            bytes += object.count
            store.append(object)
        }
        store.trim()
        // The keys are 58 of each object's 95 bytes, kept once; the values take 37 and their place in the store 12.
        #expect(store.byteCount < bytes * 6 / 10)
        #expect(String(decoding: store[1_234], as: UTF8.self).contains(#""identifier":"client-1234","#))
    }

    @Test func membersAreReadOnlyFromACompactObject() {
        let json = Array(#"{"a":"x\"}","b":[1,{"c":"]"}]}"#.utf8)
        let members = RenderedObjects.members(of: json)
        #expect(members?.map { String(decoding: json[$0.key], as: UTF8.self) } == [#""a""#, #""b""#])
        #expect(members?.map { String(decoding: json[$0.value], as: UTF8.self) } == [#""x\"}""#, #"[1,{"c":"]"}]"#])
        #expect(RenderedObjects.members(of: Array(#"{"a":}"#.utf8)) == nil)
        #expect(RenderedObjects.members(of: Array(#"{"a":1,}"#.utf8)) == nil)
        #expect(RenderedObjects.members(of: Array(#"{"a":1}}"#.utf8)) == nil)
    }
}
