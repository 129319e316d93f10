#!/usr/bin/env python3
"""Compare two cubins (ELF) section by section.

ptxas embeds the PTX text itself (.nv_debug_ptx_txt, or .nv_debug_ptx_txt.<hash of the text> per function
when the module has device calls) and a SASS-to-PTX-line
map (.nv_debug_line_sass) when the PTX carries .loc line info, so two PTX
files that differ only in whitespace or comments give cubins that differ in
exactly those sections. This tool compares every other section byte for byte
(code, constants, attributes, symbols, relocations, DWARF .debug_line/.debug_info).

One more place holds PTX line numbers: a .shared variable declared inside a
function becomes the symbol `$__<name>__<PTX line>`. Symbol and section names
are compared with that number replaced, and the symbol table is compared entry
by entry with names resolved (so that a shifted string offset is not a
difference).

Usage: cubin-diff.py A.cubin B.cubin   (exit 0: equivalent, 1: different)
"""
import re
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

    def cstr(base, off):
        end = data.index(b"\0", base + off)
        return data[base + off:end]

    named = {}
    for i, (name, typ, off, size) in enumerate(hdrs):
        named[i] = norm(cstr(stroff, name).decode())
    out = {}
    dup = {}
    for i, (name, typ, off, size) in enumerate(hdrs):
        # SHT_NOBITS and CUDA's relocatable shared-memory sections
        # (SHT_LOPROC+10) occupy no bytes in the file.
        body = b"" if typ in (8, 0x7000000A) else data[off:off + size]
        if typ == 3:  # string table: compare the normalized strings
            body = b"\0".join(norm(x.decode(errors="replace")).encode() for x in body.split(b"\0"))
            size = None
        elif typ == 2:  # symbol table: resolve names through the linked string table
            link = struct.unpack_from("<I", data, shoff + i * shentsize + 0x28)[0]
            strbase = hdrs[link][2]
            ents = []
            for e in range(0, len(body), 24):
                st_name, rest = struct.unpack_from("<I", body, e)[0], body[e + 4:e + 24]
                ents.append((norm(cstr(strbase, st_name).decode(errors="replace")), rest))
            body = repr(ents).encode()
        key = named[i]
        dup[key] = dup.get(key, 0) + 1
        if dup[key] > 1:
            key += f"#{dup[key]}"
        out[key] = (typ, size, body)
    return out


def norm(name):
    name = re.sub(r"\$__(.+?)__\d+", r"$__\1__#", name)
    # With device calls ptxas splits the PTX text per function into sections
    # named by a hash of that text.
    return re.sub(r"^(\.(?:rela?)?\.?nv_debug_ptx_txt)\.\d+$", r"\1", name)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    a, b = sections(sys.argv[1]), sections(sys.argv[2])
    diff = []
    for name in sorted(set(a) | set(b)):
        if name in IGNORED or name.startswith(".nv_debug_ptx_txt"):
            continue
        if a.get(name) != b.get(name):
            diff.append(name)
    if diff:
        print("cubins differ in: " + ", ".join(diff))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
