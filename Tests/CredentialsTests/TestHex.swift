/// Lower-case hex, written here rather than taken from `Credentials`, so a digest test cannot pass through a
/// broken `hexString`.
func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 / 16)], digits[Int($0 % 16)]] })
}

let lowerCaseHexDigits = Set("0123456789abcdef")
