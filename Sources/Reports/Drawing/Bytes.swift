import CZlib

/// zlib's deflate in its zlib wrapping, as PNG's IDAT and PDF's FlateDecode streams both hold it.
enum Deflate {
    /// Written into an uninitialised array of deflate's bound: zeroing a megabyte first, for a wheel, cost as
    /// much as deflating it at a low level.
    static func zlib(_ bytes: [UInt8], level: Int32) -> [UInt8] {
        var stream = z_stream()
        guard deflateInit2_(&stream, level, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            preconditionFailure("zlib could not start deflating")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        return [UInt8](unsafeUninitializedCapacity: bound) { output, count in
            bytes.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(bound)
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "zlib could not deflate (\(status))")
                count = Int(stream.total_out)
            }
        }
    }
}

extension [UInt8] {
    /// Appends `value` as four bytes, most significant first (PNG's and TrueType's integers).
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
