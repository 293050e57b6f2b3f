"""Reads a ZIP archive with Python's zipfile, as a recipient of an export would: checks every entry's CRC
(testzip) and prints one JSON line per entry: name, size, compress_type, SHA-256 of the bytes read back, and
whether the ZIP64 end records were found. With a second argument, extracts every entry into that folder."""

import hashlib
import json
import sys
import zipfile

with zipfile.ZipFile(sys.argv[1]) as archive:
    bad = archive.testzip()
    if bad is not None:
        print(json.dumps({"bad": bad}))
        sys.exit(1)
    with open(sys.argv[1], "rb") as raw:
        zip64 = b"PK\x06\x06" in raw.read()[-200:]
    if len(sys.argv) > 2:
        archive.extractall(sys.argv[2])
    for info in archive.infolist():
        data = archive.read(info)
        print(json.dumps({"name": info.filename, "size": info.file_size, "method": info.compress_type,
                          "sha256": hashlib.sha256(data).hexdigest(), "zip64": zip64}))
