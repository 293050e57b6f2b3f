import Foundation

/// ISO base media files (MP4, QuickTime, HEIF) built box by box, for tests that need their structure, not
/// their pictures.
public enum TestMedia {
    /// A box: 32-bit size, type, payload.
    public static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        TestPictures.be32(payload.count + 8) + Array(type.utf8) + payload
    }

    /// A file-type box with `brand` as its major brand.
    public static func ftyp(_ brand: String) -> [UInt8] { box("ftyp", Array(brand.utf8) + [0, 0, 0, 0] + Array("isommp41".utf8)) }

    /// A movie with `moov` after `mdat` (as phones record): mvhd (timescale 600, 3,000 ticks) and a track whose
    /// matrix turns 1920 × 1080 a quarter.
    public static func movie(turned: Bool, moovFirst: Bool = false) -> [UInt8] {
        var mvhd: [UInt8] = [0, 0, 0, 0] + [UInt8](repeating: 0, count: 8) + TestPictures.be32(600) + TestPictures.be32(3_000)
        mvhd += [UInt8](repeating: 0, count: 80)
        let one = 0x0001_0000
        let matrix =
            turned
            ? [0, one, 0, -one, 0, 0, 0, 0, 0x4000_0000] : [one, 0, 0, 0, one, 0, 0, 0, 0x4000_0000]
        var tkhd: [UInt8] = [0, 0, 0, 3] + [UInt8](repeating: 0, count: 20) + [UInt8](repeating: 0, count: 16)
        tkhd += matrix.flatMap { TestPictures.be32($0) }
        tkhd += TestPictures.be32(1920 << 16) + TestPictures.be32(1080 << 16)
        let moov = box("moov", box("mvhd", mvhd) + box("trak", box("tkhd", tkhd)))
        let mdat = box("mdat", [UInt8](repeating: 7, count: 5_000))
        return moovFirst ? ftyp("qt  ") + moov + mdat : ftyp("qt  ") + mdat + moov
    }
}

/// Every regular file's bytes under `folder` (none when it does not exist); a file removed while the folder is
/// read (by a server still cleaning up) is not counted.
public func filesUnder(_ folder: URL) throws -> [[UInt8]] {
    guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
    return walker.compactMap { item in
        guard let url = item as? URL, (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { return nil }
        return (try? Data(contentsOf: url)).map { [UInt8]($0) }
    }
}
