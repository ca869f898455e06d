#!/usr/bin/env python3
# elf-section.py FILE NAME size          print the section's size in bytes
#                                        (uncompressed: ch_size of a
#                                        SHF_COMPRESSED section)
# elf-section.py FILE NAME damage FROM   flip bits in the section's bytes
#                                        from fraction FROM of it (past a
#                                        compression header) to its end
# For tests that build ELF64 little-endian files (x86_64). Exit 1: no such
# section.
import struct
import sys

path, name, what = sys.argv[1], sys.argv[2].encode(), sys.argv[3]
b = bytearray(open(path, 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)


def shdr(i):
    # sh_name sh_type sh_flags sh_addr sh_offset sh_size ...
    return struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize)


stroff = shdr(shstrndx)[4]
for i in range(shnum):
    s = shdr(i)
    if b[stroff + s[0]:b.index(0, stroff + s[0])] != name:
        continue
    off, size, compressed = s[4], s[5], s[2] & 0x800
    if what == 'size':
        print(struct.unpack_from('<IIQQ', b, off)[2] if compressed else size)
    else:
        skip = 24 if compressed else 0  # Elf64_Chdr
        start = max(off + skip + 8, off + int(size * float(sys.argv[4])))
        for k in range(start, off + size - 8, 7):
            b[k] ^= 0x5a
        open(path, 'wb').write(b)
    sys.exit(0)
sys.exit(1)
