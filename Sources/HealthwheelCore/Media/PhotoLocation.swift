/// Removes where a photo was taken (its EXIF GPS block) and keeps every other byte as it was: the GPS directory
/// and the values it points to are zeroed and its entry leaves the first directory, in place, so no offset
/// elsewhere in the file moves. Works on JPEG (APP1 `Exif`), PNG (`eXIf`, checksum renewed) and HEIC (the `Exif`
/// item). Linear in the file; every offset is checked against the bytes before it is followed.
public enum PhotoLocation {
    /// `bytes` without GPS data, and whether there was any.
    public static func removed(from bytes: [UInt8], format: MediaFormat) -> (bytes: [UInt8], removedGPS: Bool) {
        var bytes = bytes
        var removed = false
        for exif in exifBlocks(in: bytes, format: format) {
            if TIFFLocation.erase(in: &bytes, tiff: exif.tiff) {
                removed = true
                if let crc = exif.pngChunk { renewCRC(&bytes, chunk: crc) }
            }
        }
        return (bytes, removed)
    }

    /// The EXIF orientation (1–8) of the photo's first EXIF block that has one; 5–8 mean it is shown turned a
    /// quarter, so its width and height as shown are swapped.
    public static func orientation(of bytes: [UInt8], format: MediaFormat) -> Int? {
        for exif in exifBlocks(in: bytes, format: format) {
            if let value = TIFFLocation.orientation(in: bytes, tiff: exif.tiff) { return value }
        }
        return nil
    }

    /// Where an EXIF (TIFF) block lies, and for PNG the chunk whose checksum covers it.
    struct ExifBlock {
        var tiff: Range<Int>
        /// The `eXIf` chunk's type-and-data range (what its CRC covers).
        var pngChunk: Range<Int>?
    }

    static func exifBlocks(in bytes: [UInt8], format: MediaFormat) -> [ExifBlock] {
        switch format {
        case .jpeg: jpegExif(bytes)
        case .png: pngExif(bytes)
        case .heic: heicExif(bytes)
        case .mp4, .quicktime: []
        }
    }

    // MARK: - JPEG: APP1 segments that start "Exif\0\0", before the image data.

    static func jpegExif(_ bytes: [UInt8]) -> [ExifBlock] {
        var blocks: [ExifBlock] = []
        var position = 2
        while position + 4 <= bytes.count, bytes[position] == 0xFF {
            let marker = bytes[position + 1]
            if marker == 0xFF {
                position += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { break }  // image data or end: metadata comes before
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                position += 2
                continue
            }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let data = position + 4
            let end = position + 2 + length
            guard length >= 2, end <= bytes.count else { break }
            if marker == 0xE1, end - data > 6, bytes[data..<data + 6].elementsEqual(Array("Exif".utf8) + [0, 0]) {
                blocks.append(ExifBlock(tiff: data + 6..<end))
            }
            position = end
        }
        return blocks
    }

    // MARK: - PNG: the eXIf chunk holds a TIFF block as is.

    static func pngExif(_ bytes: [UInt8]) -> [ExifBlock] {
        var blocks: [ExifBlock] = []
        var position = 8
        while position + 12 <= bytes.count {
            let length = readBigEndian(bytes, position, 4)
            let type = position + 4
            let data = position + 8
            guard length <= bytes.count - data - 4 else { break }
            if bytes[type..<type + 4].elementsEqual("eXIf".utf8) {
                blocks.append(ExifBlock(tiff: data..<data + length, pngChunk: type..<data + length))
            }
            if bytes[type..<type + 4].elementsEqual("IEND".utf8) { break }
            position = data + length + 4
        }
        return blocks
    }

    static func renewCRC(_ bytes: inout [UInt8], chunk: Range<Int>) {
        let crc = PictureHeader.crc32(bytes[chunk])
        for index in 0..<4 { bytes[chunk.upperBound + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(index))) }
    }

    // MARK: - HEIC: the item of type `Exif` (meta → iinf names it, iloc places it); its data is a 4-byte offset
    // to the TIFF header, then the block.

    static func heicExif(_ bytes: [UInt8]) -> [ExifBlock] {
        // `meta` is a full box: 4 bytes of version and flags before its children.
        guard let meta = ISOBoxes.children(of: 0..<bytes.count, in: bytes).first(where: { $0.type == "meta" }), meta.payload.count >= 4
        else { return [] }
        let children = ISOBoxes.children(of: meta.payload.lowerBound + 4..<meta.payload.upperBound, in: bytes)
        guard let iinf = children.first(where: { $0.type == "iinf" }), let iloc = children.first(where: { $0.type == "iloc" }) else {
            return []
        }
        let exifItems = Set(exifItemIDs(iinf: iinf.payload, bytes))
        guard !exifItems.isEmpty else { return [] }
        return itemExtents(iloc: iloc.payload, bytes).compactMap { item, extent in
            guard exifItems.contains(item), extent.count > 4 else { return nil }
            let skip = readBigEndian(bytes, extent.lowerBound, 4)
            guard skip <= extent.count - 4 else { return nil }
            return ExifBlock(tiff: extent.lowerBound + 4 + skip..<extent.upperBound)
        }
    }

    /// Item ids whose `infe` (version 2 or 3) says `Exif`.
    static func exifItemIDs(iinf: Range<Int>, _ bytes: [UInt8]) -> [Int] {
        guard iinf.count >= 4 else { return [] }
        // Version 0 counts its entries in 2 bytes, later versions in 4; either may be cut short.
        let countSize = bytes[iinf.lowerBound] == 0 ? 2 : 4
        guard iinf.count >= 4 + countSize else { return [] }
        return ISOBoxes.children(of: iinf.lowerBound + 4 + countSize..<iinf.upperBound, in: bytes).compactMap { infe in
            let p = infe.payload
            guard infe.type == "infe", p.count >= 12 else { return nil }
            let version = bytes[p.lowerBound]
            guard version >= 2 else { return nil }
            let idSize = version == 2 ? 2 : 4
            guard p.count >= 4 + idSize + 2 + 4 else { return nil }
            let typeAt = p.lowerBound + 4 + idSize + 2
            guard bytes[typeAt..<typeAt + 4].elementsEqual("Exif".utf8) else { return nil }
            return readBigEndian(bytes, p.lowerBound + 4, idSize)
        }
    }

    /// Each item's single extent in the file (construction method 0, offsets from the file's start); items in
    /// several extents or built another way are left alone.
    static func itemExtents(iloc: Range<Int>, _ bytes: [UInt8]) -> [(item: Int, extent: Range<Int>)] {
        var reader = ISOReader(bytes: bytes, range: iloc)
        guard let version = reader.read(1), reader.skip(3), let sizes = reader.read(2) else { return [] }
        let offsetSize = sizes >> 12
        let lengthSize = (sizes >> 8) & 0xF
        let baseOffsetSize = (sizes >> 4) & 0xF
        let indexSize = version == 1 || version == 2 ? sizes & 0xF : 0
        guard let count = reader.read(version < 2 ? 2 : 4) else { return [] }
        var extents: [(Int, Range<Int>)] = []
        for _ in 0..<count {
            guard let item = reader.read(version < 2 ? 2 : 4) else { break }
            var method = 0
            if version == 1 || version == 2 {
                guard let value = reader.read(2) else { break }
                method = value & 0xF
            }
            guard reader.skip(2), let base = reader.read(baseOffsetSize), let extentCount = reader.read(2) else { break }
            var itemExtents: [Range<Int>] = []
            for _ in 0..<extentCount {
                guard reader.skip(indexSize), let offset = reader.read(offsetSize), let length = reader.read(lengthSize) else {
                    return extents
                }
                // Eight-byte fields can read as negative numbers, or sum past Int: only an extent inside the file counts.
                guard method == 0, base >= 0, offset >= 0, length >= 0, base <= bytes.count, offset <= bytes.count - base else { continue }
                let start = base + offset
                if length <= bytes.count - start { itemExtents.append(start..<start + length) }
            }
            if extentCount == 1, let only = itemExtents.first { extents.append((item, only)) }
        }
        return extents
    }
}

/// Erases the GPS directory of one TIFF block (EXIF is TIFF) in place, and reads its orientation.
enum TIFFLocation {
    static let gpsPointerTag = 0x8825
    static let orientationTag = 0x0112

    /// A TIFF block's byte order and bounds: every read is checked against them.
    struct Block {
        let range: Range<Int>
        let littleEndian: Bool

        init?(_ bytes: [UInt8], _ range: Range<Int>) {
            guard range.count >= 8 else { return nil }
            switch (bytes[range.lowerBound], bytes[range.lowerBound + 1]) {
            case (0x49, 0x49): littleEndian = true
            case (0x4D, 0x4D): littleEndian = false
            default: return nil
            }
            self.range = range
        }

        func holds(_ offset: Int, _ count: Int) -> Bool {
            offset >= 0 && count >= 0 && count <= range.count && offset <= range.count - count
        }

        /// The unsigned number of `count` bytes at `offset` from the block's start, or nil past its end.
        func read(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int? {
            guard holds(offset, count) else { return nil }
            let slice = bytes[range.lowerBound + offset..<range.lowerBound + offset + count]
            return littleEndian ? slice.reversed().reduce(0) { $0 << 8 | Int($1) } : slice.reduce(0) { $0 << 8 | Int($1) }
        }

        /// The first directory's offset and number of entries.
        func firstDirectory(_ bytes: [UInt8]) -> (offset: Int, entries: Int)? {
            guard let offset = read(bytes, 4, 4), let entries = read(bytes, offset, 2) else { return nil }
            return (offset, entries)
        }
    }

    /// The first directory's orientation entry (a SHORT from 1 to 8), if any.
    static func orientation(in bytes: [UInt8], tiff: Range<Int>) -> Int? {
        guard let block = Block(bytes, tiff), let (ifd0, entries) = block.firstDirectory(bytes) else { return nil }
        for index in 0..<entries {
            let entry = ifd0 + 2 + 12 * index
            guard let tag = block.read(bytes, entry, 2) else { return nil }
            if tag == orientationTag, let value = block.read(bytes, entry + 8, 2), (1...8).contains(value) { return value }
        }
        return nil
    }

    /// True when a GPS directory was found and erased.
    static func erase(in bytes: inout [UInt8], tiff: Range<Int>) -> Bool {
        guard let block = Block(bytes, tiff), let (ifd0, entries) = block.firstDirectory(bytes) else { return false }
        func zero(_ offset: Int, _ count: Int) {
            guard block.holds(offset, count) else { return }
            for index in tiff.lowerBound + offset..<tiff.lowerBound + offset + count { bytes[index] = 0 }
        }
        let first = ifd0 + 2
        guard let pointerIndex = (0..<entries).first(where: { block.read(bytes, first + 12 * $0, 2) == gpsPointerTag }),
            let gps = block.read(bytes, first + 12 * pointerIndex + 8, 4), let gpsEntries = block.read(bytes, gps, 2)
        else { return false }
        // The values the GPS entries point to (those over 4 bytes), then the directory itself.
        let typeSizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8]
        for index in 0..<gpsEntries {
            let entry = gps + 2 + 12 * index
            guard let type = block.read(bytes, entry + 2, 2), let count = block.read(bytes, entry + 4, 4),
                let offset = block.read(bytes, entry + 8, 4)
            else { break }
            let size = (typeSizes[type] ?? 1).multipliedReportingOverflow(by: count)
            if !size.overflow, size.partialValue > 4 { zero(offset, size.partialValue) }
        }
        zero(gps, min(2 + 12 * gpsEntries + 4, tiff.count))
        // Out of the first directory: later entries (and the next-directory offset) move up one place.
        let pointer = first + 12 * pointerIndex
        let tail = first + 12 * entries + 4
        guard tail <= tiff.count else { return true }
        let start = tiff.lowerBound
        bytes.replaceSubrange(start + pointer..<start + tail - 12, with: Array(bytes[start + pointer + 12..<start + tail]))
        zero(tail - 12, 12)
        let newCount = entries - 1
        let (high, low) = (UInt8(newCount >> 8), UInt8(newCount & 0xFF))
        (bytes[start + ifd0], bytes[start + ifd0 + 1]) = block.littleEndian ? (low, high) : (high, low)
        return true
    }
}

func readBigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
    bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
}
