"""t_dying: the errormap picture of ssdctl graph, read as XML.

argv: CMD FILE [ARGS]
  size FILE: "svg W H" when well-formed with width/height = viewBox
  runs FILE PASS: the data rectangles of the row of PASS, one a line:
    "X0 X1 CLASS FILL" (pixels within the plot)
  covers FILE PASS CLASS FROM TO SPAN: exit 0 if a rectangle of CLASS
    in PASS's row covers the pixels bytes FROM..TO of SPAN fall on
  text FILE: every text, one a line
"""
import sys, xml.etree.ElementTree as ET
cmd, f = sys.argv[1], sys.argv[2]
try:
    root = ET.parse(f).getroot()
except ET.ParseError as e:
    sys.exit(print("not well-formed: %s" % e))
NS = "{http://www.w3.org/2000/svg}"
plot = next(r for r in root.iter(NS + "rect") if r.get("id") == "plot")
px, pw = int(plot.get("x")), int(plot.get("width"))
def runs(p):
    for g in root.iter(NS + "g"):
        if int(g.get("data-first")) <= p <= int(g.get("data-last")):
            for r in g.iter(NS + "rect"):
                if r.get("class") != "stripe":
                    x = int(r.get("x")) - px
                    yield x, x + int(r.get("width")), r.get("class"), r.get("fill")
if cmd == "size":
    vb = root.get("viewBox").split()
    ok = root.tag == NS + "svg" and vb[2:] == [root.get("width"), root.get("height")]
    print("svg %s %s" % (root.get("width"), root.get("height")) if ok else "bad size")
elif cmd == "runs":
    for r in runs(int(sys.argv[3])):
        print(*r)
elif cmd == "covers":
    p, cls, a, b, span = int(sys.argv[3]), sys.argv[4], *map(int, sys.argv[5:8])
    x0, x1 = a * pw // span, -(-b * pw // span)
    sys.exit(0 if any(c == cls and r0 <= x0 and x1 <= r1 for r0, r1, c, _ in runs(p)) else 1)
elif cmd == "text":
    for t in root.iter(NS + "text"):
        print(t.text)
