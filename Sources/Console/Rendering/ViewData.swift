import Mustache

/// A page's view model as nested dictionaries and arrays, made once before it is rendered, with a fingerprint of
/// everything in it. Mustache looks each name up through the objects on its stack; on a struct it does so by
/// reflection (`Mirror`), once per lookup and per object, which made reflection most of a page's cost. A
/// dictionary answers a lookup directly. Absent optionals are left out, so a name not set falls through to the
/// object around it, as Mustache expects. The fingerprint (`canonical`, every label and value in order) names the
/// page this view renders to: the same view, the same page.
struct ViewData {
    /// Every label and value written out, each after its length: two different views never write the same bytes.
    private(set) var canonical: [UInt8] = []

    /// 128 bits of the canonical bytes (two SipHash digests under different prefixes; the process's own random
    /// seed): the name of the page this view renders to. SHA-256 cost more than the rest of a cached page.
    var fingerprint: String {
        var first = Hasher()
        var second = Hasher()
        first.combine(0x5A)
        second.combine(0xA5)
        canonical.withUnsafeBytes {
            first.combine(bytes: $0)
            second.combine(bytes: $0)
        }
        return String(UInt64(bitPattern: Int64(first.finalize())), radix: 36) + "." + String(UInt64(bitPattern: Int64(second.finalize())), radix: 36)
    }

    mutating func box(_ value: Any) -> Any? {
        switch value {
        case let text as String:
            write("s", text)
            return text
        case let flag as Bool:
            write("b", flag ? "1" : "0")
            return flag
        case let number as Int:
            write("i", String(number))
            return number
        case let number as Double:
            write("d", String(number))
            return number
        case let row as any ViewRow:
            return box(row.members)
        case let members as [String: Any]:
            write("{", String(members.count))
            var boxed: [String: Any] = [:]
            for key in members.keys.sorted() {
                write("k", key)
                if let value = box(members[key]!) { boxed[key] = value }
            }
            return boxed
        case let array as [Any]:
            write("[", String(array.count))
            return array.compactMap { box($0) }
        default: break
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else {
                write("n", "")
                return nil
            }
            return box(wrapped.value)
        case .struct, .class:
            write("{", String(mirror.children.count))
            var members: [String: Any] = [:]
            members.reserveCapacity(mirror.children.count)
            for child in mirror.children {
                guard let label = child.label else { continue }
                write("k", label)
                if let boxed = box(child.value) { members[label] = boxed }
            }
            return members
        case .collection:
            write("[", String(mirror.children.count))
            return mirror.children.compactMap { box($0.value) }
        default:
            let text = String(describing: value)
            write("?", text)
            return text
        }
    }

    private mutating func write(_ kind: Character, _ text: String) {
        canonical.append(UInt8(ascii: kind.unicodeScalars.first!))
        canonical.append(contentsOf: String(text.utf8.count).utf8)
        canonical.append(UInt8(ascii: ":"))
        canonical.append(contentsOf: text.utf8)
    }
}

/// A view model that gives its members as a dictionary itself, without reflection: for the rows a page shows
/// fifty of.
protocol ViewRow {
    var members: [String: Any] { get }
}
