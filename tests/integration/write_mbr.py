"""t_refusals: write a DOS partition table with one Linux partition (start
2048, to the end) by hand, the one sfdisk makes from "label: dos" and ",",
for machines without fdisk.

argv: IMAGE SIZE_BYTES
"""
import struct, sys
path, size = sys.argv[1], int(sys.argv[2])
start, count = 2048, size // 512 - 2048
entry = struct.pack("<B3sB3sII", 0, b"\x20\x21\x00", 0x83, b"\xfe\xff\xff",
                    start, count)
mbr = bytearray(512)
mbr[440:444] = struct.pack("<I", 0x5eed1e55)
mbr[446:462] = entry
mbr[510:512] = b"\x55\xaa"
with open(path, "r+b") as f:
    f.write(mbr)
