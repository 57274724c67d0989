"""t_graph: is an image well-formed, and how big? PNG: the signature, IHDR
first with a good CRC, IEND last. SVG: parses as XML, an <svg> root,
width/height (cairo writes "pt", one per pixel) agreeing with the viewBox.

argv: FILE (.png, or else SVG)
Prints "png W H" or "svg W H", or else a complaint (exit status 1).
"""
import struct, sys, zlib
import xml.etree.ElementTree as ET
p = sys.argv[1]
d = open(p, "rb").read()
if p.endswith(".png"):
    if d[:8] != b"\x89PNG\r\n\x1a\n": sys.exit(print("not a PNG signature"))
    ln, typ = struct.unpack(">I4s", d[8:16])
    if typ != b"IHDR" or ln != 13: sys.exit(print("no IHDR first"))
    if struct.unpack(">I", d[29:33])[0] != zlib.crc32(d[12:29]): sys.exit(print("IHDR CRC"))
    if d[-8:-4] != b"IEND": sys.exit(print("no IEND last"))
    print("png %d %d" % struct.unpack(">II", d[16:24]))
else:
    try:
        root = ET.fromstring(d)
    except ET.ParseError as e:
        sys.exit(print("SVG is not well-formed XML: %s" % e))
    if root.tag != "{http://www.w3.org/2000/svg}svg": sys.exit(print("root is " + root.tag))
    num = lambda a: float(root.get(a, "nan").rstrip("ptx"))
    w, h = num("width"), num("height")
    vb = [float(x) for x in root.get("viewBox", "0 0 0 0").split()]
    if vb[2:] != [w, h]: sys.exit(print("viewBox %s vs %gx%g" % (vb, w, h)))
    print("svg %g %g" % (w, h))
