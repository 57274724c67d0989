"""t_dying: decode a verify pass's error map (errors/pass-N.map) independently
of the daemon: the "ssdtmap1" header, then varint gap, varint count and one
class byte per extent.

argv: MAPFILE
Prints every block the map lists, one a line: "BLOCK CLASS". An assertion
error when the file is not a map.
"""
import sys
CLS = {1: "corrupt", 2: "misdirected", 3: "stale", 4: "foreign",
       5: "unwritten", 6: "io_error", 7: "lost_flush", 8: "torn"}
p = open(sys.argv[1], "rb").read()
assert p[:8] == b"ssdtmap1", "not a map"
at, nxt = 16, 0
def varint():
    global at
    v = s = 0
    while True:
        b = p[at]; at += 1
        v |= (b & 0x7f) << s; s += 7
        if not b & 0x80:
            return v
while at < len(p):
    gap = varint(); n = varint(); c = CLS[p[at]]; at += 1
    start = nxt + gap
    for b in range(start, start + n):
        print(b, c)
    nxt = start + n
