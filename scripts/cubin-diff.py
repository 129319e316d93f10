#!/usr/bin/env python3
"""Compare two cubins (ELF) section by section.

ptxas embeds the PTX text itself (.nv_debug_ptx_txt) and a SASS-to-PTX-line
map (.nv_debug_line_sass) when the PTX carries .loc line info, so two PTX
files that differ only in whitespace or comments give cubins that differ in
exactly those sections. This tool compares every other section byte for byte
(code, constants, attributes, symbols, relocations, DWARF .debug_line/.debug_info).

Usage: cubin-diff.py A.cubin B.cubin   (exit 0: equivalent, 1: different)
"""
import struct
import sys

IGNORED = {".nv_debug_ptx_txt", ".nv_debug_line_sass", ".rela.nv_debug_line_sass",
           ".rel.nv_debug_line_sass"}


def sections(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise SystemExit(f"{path}: not an ELF64 file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    hdrs = []
    for i in range(shnum):
        name, typ, flags, addr, off, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        hdrs.append((name, typ, off, size))
    stroff = hdrs[shstrndx][2]
    out = {}
    for name, typ, off, size in hdrs:
        end = data.index(b"\0", stroff + name)
        sname = data[stroff + name:end].decode()
        body = b"" if typ == 8 else data[off:off + size]  # SHT_NOBITS has no bytes
        out[sname] = (typ, size, body)
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    a, b = sections(sys.argv[1]), sections(sys.argv[2])
    diff = []
    for name in sorted(set(a) | set(b)):
        if name in IGNORED:
            continue
        if a.get(name) != b.get(name):
            diff.append(name)
    if diff:
        print("cubins differ in: " + ", ".join(diff))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
