"""t_graph: error maps for ssdctl graph --what errormap --map-dir, written in
the daemon's format (errors/pass-N.map: "ssdtmap1", the block size, then
varint gap, varint count and a class byte per extent) for a 1 TiB span of
4k blocks. Pass 1: 100000 one-block corrupt extents spread over the span;
pass 2: none; pass 3: one io_error block at the middle.

argv: ERRORS_DIR (pass-1.map .. pass-3.map are written there)
"""
import sys
def v(n):
    o = b""
    while n >= 0x80:
        o += bytes([n & 0x7f | 0x80]); n >>= 7
    return o + bytes([n])
h = b"ssdtmap1" + (4096).to_bytes(4, "little") + bytes(4)
gap = (1 << 28) // 100000
open(sys.argv[1] + "/pass-1.map", "wb").write(h + b"".join(v(gap) + v(1) + b"\x01" for _ in range(100000)))
open(sys.argv[1] + "/pass-2.map", "wb").write(h)
open(sys.argv[1] + "/pass-3.map", "wb").write(h + v(1 << 27) + v(1) + b"\x06")
