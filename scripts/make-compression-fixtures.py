#!/usr/bin/env python3
"""Writes the compressed bodies the inflater tests decode, made by zlib (Python's gzip and zlib
modules), into Tests/HTTPWireTests/Fixtures/compression/. Run from the repository root; the
output is committed, so the tests need no Python. Deterministic: fixed text, fixed mtime."""
import gzip
import io
import os
import zlib

OUT = os.path.join("Tests", "HTTPWireTests", "Fixtures", "compression")

def text():
    # Varied and repetitive enough to use literals, matches and dynamic Huffman blocks.
    words = ["photo", "feed", "landscape", "portrait", "{\"title\": ", "\\u00e9", "tags", "\n"]
    parts = []
    state = 12345
    for _ in range(20000):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        parts.append(words[state % len(words)])
        parts.append(str(state % 97))
    return "".join(parts).encode()

def gzip_bytes(data, level, name=None):
    buffer = io.BytesIO()
    with gzip.GzipFile(filename=name or "", mode="wb", compresslevel=level, fileobj=buffer, mtime=0) as f:
        f.write(data)
    return buffer.getvalue()

def raw_deflate(data, level):
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()

def gzip_with_header_fields(data):
    """One member whose header has every optional field (FEXTRA, FNAME, FCOMMENT and FHCRC, the
    CRC-16 of the header before it), around zlib's raw DEFLATE data, with its CRC-32 and ISIZE."""
    import struct
    flags = 0x04 | 0x08 | 0x10 | 0x02
    header = bytes([0x1F, 0x8B, 8, flags]) + struct.pack("<I", 0) + bytes([0, 3])
    extra = b"AP" + struct.pack("<H", 4) + b"\x01\x02\x03\x04"
    header += struct.pack("<H", len(extra)) + extra + b"words.txt\x00" + b"a comment\x00"
    header += struct.pack("<H", zlib.crc32(header) & 0xFFFF)
    return header + raw_deflate(data, 6) + struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)

def flushed_zlib(data):
    """zlib's format as a server compressing on the fly writes it: a sync or full flush (an empty
    stored block) after each piece."""
    c = zlib.compressobj(6)
    out = b""
    for index, start in enumerate(range(0, len(data), 10000)):
        out += c.compress(data[start:start + 10000])
        out += c.flush(zlib.Z_SYNC_FLUSH if index % 2 == 0 else zlib.Z_FULL_FLUSH)
    return out + c.flush()

def main():
    os.makedirs(OUT, exist_ok=True)
    plain = text()
    files = {
        "plain.txt": plain,
        "plain.gzip-9-named.gz": gzip_bytes(plain, 9, "plain.txt"),
        "plain.gzip-1.gz": gzip_bytes(plain, 1),
        "plain.gzip-0-stored.gz": gzip_bytes(plain, 0),
        "plain.two-members.gz": gzip_bytes(plain[:1000], 6) + gzip_bytes(plain[1000:], 6),
        "plain.zlib-6.deflate": zlib.compress(plain, 6),
        "plain.raw-9.deflate": raw_deflate(plain, 9),
        "empty.gz": gzip_bytes(b"", 6),
        # For the client's content-coding rules (RFC 9110 section 8.4, RFC 1952), over sockets.
        "plain.header-fields.gz": gzip_with_header_fields(plain),
        "plain.gzip-of-gzip.gz": gzip_bytes(gzip_bytes(plain, 6), 6),
        "plain.gzip-of-zlib.gz": gzip_bytes(zlib.compress(plain, 6), 6),
        "plain.flushed.deflate": flushed_zlib(plain),
        "plain.empty-members.gz": gzip_bytes(b"", 6) + gzip_bytes(plain, 6) + gzip_bytes(b"", 6),
        "empty.zlib.deflate": zlib.compress(b"", 6),
        "empty.raw.deflate": raw_deflate(b"", 6),
        # 64 MB of zeros in about 64 KB: a decompression bomb for the size limit.
        "zeros-64mb.gz": gzip_bytes(bytes(64 * 1024 * 1024), 9),
    }
    for name, data in files.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        print(f"{name}: {len(data)} bytes")

if __name__ == "__main__":
    main()
