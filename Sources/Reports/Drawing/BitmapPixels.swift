extension Bitmap {
    /// Pixels in cairo's layout where they lie (premultiplied ARGB32, one native-endian (little-endian here)
    /// 32-bit word a pixel, rows `stride` bytes apart), for as long as their owner keeps them.
    struct Pixels {
        let width: Int
        let height: Int
        let stride: Int
        let bytes: UnsafeBufferPointer<UInt8>

        /// Whether every pixel is fully opaque.
        var isOpaque: Bool {
            for row in 0..<height {
                var at = row * stride + 3
                for _ in 0..<width {
                    if bytes[at] != 255 { return false }
                    at += 4
                }
            }
            return true
        }

        /// Each pixel from the top left, row by row, as straight (not premultiplied) red, green, blue and alpha,
        /// with its row.
        func forEachStraightPixel(_ body: (_ row: Int, _ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8) -> Void) {
            for row in 0..<height {
                var at = row * stride
                for _ in 0..<width {
                    let (blue, green, red, alpha) = (bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3])
                    at += 4
                    if alpha == 255 {
                        body(row, red, green, blue, 255)
                    } else {
                        func straight(_ value: UInt8) -> UInt8 {
                            alpha == 0 ? 0 : UInt8(min(255, (Int(value) * 255 + Int(alpha) / 2) / Int(alpha)))
                        }
                        body(row, straight(red), straight(green), straight(blue), alpha)
                    }
                }
            }
        }
    }

    /// Calls `body` with each pixel as `Pixels.forEachStraightPixel` gives it.
    func forEachStraightPixel(_ body: (_ row: Int, _ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8) -> Void) {
        pixels.withUnsafeBufferPointer { Pixels(width: width, height: height, stride: stride, bytes: $0).forEachStraightPixel(body) }
    }
}
