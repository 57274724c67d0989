# state.sh: reading a drive's state file and events.jsonl, shared by the
# integration tests (tests/integration/lib.sh) and the guest tests
# (tests/vm/guest/lib.sh). Sourced by bash.
# shellcheck shell=bash

# state_get STATEFILE KEY : the value of one key ("" when absent).
state_get() {
	awk -v k="$2" '$1 == k { sub(/^[^ ]* ?/, ""); print; exit }' "$1" 2>/dev/null
}

# wait_state STATEFILE PID TIMEOUT_S PYEXPR : poll the state file until the
# Python expression over the dict `s` (values as strings; ints as ints)
# holds; the matching snapshot is left in STATEFILE.snap. Fails when the
# process exits first or time runs out.
wait_state() {
	python3 - "$@" <<'EOF'
import os, sys, time
path, pid, limit, expr = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
def alive(p):
    try:
        with open("/proc/%d/stat" % p) as f:
            st = f.read().rsplit(") ", 1)[1].split()[0]
        return st not in ("Z", "X")
    except OSError:
        return False
def load(p):
    s = {}
    with open(p) as f:
        txt = f.read()
    for line in txt.splitlines():
        k, _, v = line.partition(" ")
        s[k] = int(v) if v.isdigit() else v
    return s, txt
t0 = time.time()
while True:
    try:
        s, txt = load(path)
        if "instance" in s and eval(expr, {}, {"s": s}):
            with open(path + ".snap", "w") as f:
                f.write(txt)
            sys.exit(0)
    except (OSError, KeyError):
        pass
    if not alive(pid):
        print("  wait_state: process %d exited before: %s" % (pid, expr))
        sys.exit(1)
    if time.time() - t0 > limit:
        print("  wait_state: timeout (%.0f s) waiting for: %s" % (limit, expr))
        sys.exit(1)
    time.sleep(float(os.environ.get("SSDT_POLL_S", "0.005")))
EOF
}

# ev_query FILE FROM_BYTE FIELDS [key=value...] : one line per matching
# event with the named fields (comma separated; "-" for a missing one).
# Values compare as strings; "key=" matches a missing key.
ev_query() {
	python3 - "$@" <<'EOF'
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
EOF
}

# ev_count FILE FROM_BYTE [key=value...] : how many events match.
ev_count() {
	local f=$1 from=$2
	shift 2
	ev_query "$f" "$from" event "$@" | wc -l
}

# layout N_BYTES BLOCK_SIZE STATIC_FRACTION : sets NBLK, SBLK (floor(N*f),
# in double arithmetic as the daemon does), DBLK, SBYTES, DBYTES.
layout() {
	read -r NBLK SBLK DBLK SBYTES DBYTES < <(python3 -c '
import sys
size, bs, f = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
n = size // bs; s = int(n * f)
print(n, s, n - s, s * bs, (n - s) * bs)' "$1" "$2" "$3")
}
