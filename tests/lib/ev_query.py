"""ev_query FILE FROM_BYTE FIELDS [key=value...] (tests/lib/state.sh): the
matching events of an events.jsonl from a byte offset.
"""
import json, signal, sys
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
path, start, fields = sys.argv[1], int(sys.argv[2]), sys.argv[3]
conds = [a.split("=", 1) for a in sys.argv[4:]]
def s(v):
    if v is None: return "-"
    if isinstance(v, bool): return "true" if v else "false"
    return str(v)
try:
    f = open(path, "rb")
except OSError:
    sys.exit(0)
if start > 0:
    # start on a line boundary: skip the rest of a line cut by `start`
    f.seek(start - 1)
    if f.read(1) != b"\n":
        f.readline()
else:
    f.seek(0)
for raw in f.read().decode(errors="replace").splitlines():
    if not raw.strip():
        continue
    try:
        e = json.loads(raw)
    except ValueError:
        print("ev_query: bad JSON line: " + raw[:200], file=sys.stderr); continue
    if all((s(e.get(k)) == v) if v != "" else (k not in e) for k, v in conds):
        print(" ".join(s(e.get(x)) for x in fields.split(",")) if fields else raw)
