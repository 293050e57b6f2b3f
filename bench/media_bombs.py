"""Writes the files the outside probe found harmful to the server, for bench/isolation's hostile_media, and the list
bench/media_bombs.lua reads ("path type" a line):

    python3 bench/media_bombs.py FOLDER

- a JPEG of 2,000 progressive scans (252 KB took 21 s to decode) and one of 30,000 Exif segments (4.7 s);
- the two HEIC files of about 200 bytes that ended the server (an ispe of 2^32-1 squared, an iinf cut short);
- an MP4 of 8-byte boxes (8 MiB here; the probe's 59 MiB took 30 s to upload).
"""
import os
import struct
import sys


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind.encode() + payload


def main():
    folder = sys.argv[1]
    frame = segment(0xC2, bytes([8, 0x0B, 0xB8, 0x0F, 0xA0, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]))  # 4000 x 3000
    scan = segment(0xDA, bytes([3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0])) + bytes(100)
    exif = segment(0xE1, b"Exif\0\0" + b"MM\0*\0\0\0\x08\0\0\0\0\0\0" + bytes(24))
    heic = box("ftyp", b"heic\0\0\0\0mif1heic")
    files = {
        "scans.jpg": (b"\xff\xd8" + frame + scan * 2000 + b"\xff\xd9", "image/jpeg"),
        "exif.jpg": (b"\xff\xd8" + exif * 30000 + frame + scan + b"\xff\xd9", "image/jpeg"),
        "ispe.heic": (heic + box("meta", bytes(4) + box("iprp", box("ipco", box("ispe", bytes(4) + b"\xff" * 8)))), "image/heic"),
        "iinf.heic": (heic + box("meta", bytes(4) + box("iinf", b"\x01" + bytes(5)) + box("iloc", b"\0\0\0\0\x44\0\0\0")), "image/heic"),
        "boxes.mp4": (box("ftyp", b"isom\0\0\0\0isommp41") + box("free", b"") * ((8 << 20) // 8), "video/mp4"),
    }
    with open(os.path.join(folder, "bombs.list"), "w") as listing:
        for name, (data, kind) in files.items():
            path = os.path.join(folder, name)
            with open(path, "wb") as f:
                f.write(data)
            listing.write(f"{path} {kind}\n")


if __name__ == "__main__":
    main()
