#!/usr/bin/env python3
"""The late clone images of a relocatable object built by ptx-nvcc
(docs/NVCC.md, "Clone images"; layout in include/ptxopt/runtime/NvccShim.h,
version 3): one line per clone, "<image index> <clone name>", images
numbered by their place in the block. Exit 1 when the object has no such
block, or one that is not well formed (wrong magic, a name or fatbinary
outside the block, a fatbinary without fatbinary's magic or not 16-byte
aligned).

    clone-images.py OBJECT
"""
import os
import struct
import subprocess
import sys
import tempfile

SECTION = ".rodata.ptxopt_nvcc_images"
FATBIN_MAGIC = 0xBA55ED50  # fatbinary's header (fatbinary_section.h)


def fail(msg):
    sys.exit("clone-images.py: %s: %s" % (sys.argv[1], msg))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "block")
        r = subprocess.run(["objcopy", "-O", "binary", "--only-section=" + SECTION, sys.argv[1], out],
                           stderr=subprocess.PIPE)
        if r.returncode != 0 or not os.path.exists(out):
            fail("objcopy failed: " + r.stderr.decode(errors="replace").strip())
        with open(out, "rb") as f:
            b = f.read()
    if not b:
        fail("no %s section" % SECTION)
    if b[:8] != b"PTXONVI1":
        fail("bad magic %r" % b[:8])
    (n,) = struct.unpack_from("<I", b, 8)
    images = {}
    for i in range(n):
        name_at, _, fatbin_at = struct.unpack_from("<IIQ", b, 16 + 16 * i)
        end = b.find(b"\0", name_at)
        if name_at >= len(b) or end < 0:
            fail("entry %d: name outside the block" % i)
        if fatbin_at % 16 or fatbin_at + 16 > len(b):
            fail("entry %d: fatbinary at %d (block of %d bytes)" % (i, fatbin_at, len(b)))
        if struct.unpack_from("<I", b, fatbin_at)[0] != FATBIN_MAGIC:
            fail("entry %d: no fatbinary at %d" % (i, fatbin_at))
        images.setdefault(fatbin_at, len(images))
        print(images[fatbin_at], b[name_at:end].decode())


if __name__ == "__main__":
    main()
