import Foundation

/// A colour written `#rrggbb`, as themes and packs give them.
public struct HexColour: Sendable, Hashable, CustomStringConvertible {
    /// `rr` in `#rrggbb`: gamma-encoded sRGB, as written (`relativeLuminance` linearises it).
    public let red: UInt8
    /// `gg` in `#rrggbb`: gamma-encoded sRGB, as written (`relativeLuminance` linearises it).
    public let green: UInt8
    /// `bb` in `#rrggbb`: gamma-encoded sRGB, as written (`relativeLuminance` linearises it).
    public let blue: UInt8

    /// A colour from its sRGB components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rrggbb` (either case); nil for anything else, including the short `#rgb` form.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return nil }
        var components: [UInt8] = []
        for index in stride(from: 1, to: 7, by: 2) {
            guard let high = Self.nibble(bytes[index]), let low = Self.nibble(bytes[index + 1]) else { return nil }
            components.append(high << 4 | low)
        }
        self.init(red: components[0], green: components[1], blue: components[2])
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `#rrggbb` in lower case: one spelling per colour, so equal themes encode alike.
    public var description: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "#")]
        for component in [red, green, blue] {
            text.append(digits[Int(component >> 4)])
            text.append(digits[Int(component & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Components from 0 to 1, for drawing.
    public var unitComponents: (red: Double, green: Double, blue: Double) {
        (Double(red) / 255, Double(green) / 255, Double(blue) / 255)
    }

    /// This colour moved `amount` (0 to 1) of the way towards `other`: a light rule from a text colour, say.
    public func blended(with other: HexColour, amount: Double) -> HexColour {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * amount).rounded()) }
        return HexColour(red: mix(red, other.red), green: mix(green, other.green), blue: mix(blue, other.blue))
    }

    /// Relative luminance as WCAG 2.x defines it (sRGB, linearised).
    public var relativeLuminance: Double {
        func linear(_ component: UInt8) -> Double {
            let value = Double(component) / 255
            return value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// The WCAG contrast ratio between two colours: from 1 (none) to 21 (black on white).
    public func contrast(with other: HexColour) -> Double {
        let (lighter, darker) = (max(relativeLuminance, other.relativeLuminance), min(relativeLuminance, other.relativeLuminance))
        return (lighter + 0.05) / (darker + 0.05)
    }

    /// How different two colours look: the CIE 1976 ΔE between them in CIELAB (D65). About 2 is barely visible;
    /// under 25 two colours read as the same colour at a glance (a red slice beside a red warning marker).
    public func difference(from other: HexColour) -> Double {
        let (a, b) = (lab, other.lab)
        return ((a.l - b.l) * (a.l - b.l) + (a.a - b.a) * (a.a - b.a) + (a.b - b.b) * (a.b - b.b)).squareRoot()
    }

    private var lab: (l: Double, a: Double, b: Double) {
        func linear(_ component: UInt8) -> Double {
            let value = Double(component) / 255
            return value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(red), linear(green), linear(blue))
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.950_47
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.088_83
        func f(_ t: Double) -> Double { t > 0.008_856 ? cbrt(t) : 7.787 * t + 16 / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }
}
