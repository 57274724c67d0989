#!/bin/bash
# run: heavy
# ssdctl report, on drives with real records (file targets run by the
# daemon) and on a synthetic year of history:
#  - drives: a (quick checkpoints), b (no checkpoint), c (failed: blocks
#    planted bad before its second cycle, max_bad_fraction 1 %);
#  - pages: a alone, b alone, c alone, the three side by side, each from
#    the state directory; a from the running daemon too, whose data
#    (--json) is the state directory's;
#  - each page: valid HTML (tidy, no warning), self-contained (no script,
#    no link, nothing to fetch), and in headless Chromium (report_browser
#    .py): no console message, no empty section, every figure drawn or
#    said why not, the figures this drive has data for drawn, a
#    screenshot, and a PDF of A4 pages;
#  - the content: a's probes and latency rows are its checkpoints.jsonl's,
#    c's failure (TBW and the max_bad_fraction rule) and its verify
#    errors, b says it has no checkpoint; several drives compared at the
#    first checkpoint and the latest; damaged lines in the records are
#    left out, never fatal, and so is a record that is no regular file
#    (its sections say why);
#  - a year of history (report_synth.py: 300 checkpoints, a snapshot
#    every 10 TB, 17 000 events, hourly archive): under 5 s, under 5 MB,
#    valid, and drawn;
#  - usage errors (exit 2) and an unknown drive (exit 1).
. "$(dirname "$0")/lib.sh"
need_root
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
[ -x "$CTL" ] || die "$CTL is missing (make -C $ROOT)"
PY=/usr/bin/python3	# Debian's, with python3-websocket (make deps)
for c in chromium tidy gnuplot rrdtool; do
	command -v $c >/dev/null || die "$c missing (make deps installs it)"
done
"$PY" -c 'import websocket' || die "python3-websocket missing (make deps)"
export SSDTORTURE_SOCKET=$T/none.sock	# offline unless -s is given
ST=$T/state BS=65536

# conf C_CYCLES C_MAX_BAD: the three drives
conf() {
	write_conf "$T/r.conf" "$ST" <<EOF
[drive:a]
device = $T/a.img
size = 64M
block_size = 64k
idle = 0
cycles = 2
checkpoint = quick
checkpoint_every = 100M
checkpoint_probes = rand-read-4k-qd1,rand-write-4k-qd1,seq-read-128k-qd32
probe_seconds = 1s
probe_ramp = 0s
rated_tbw = 1GB

[drive:b]
device = $T/b.img
size = 32M
block_size = 64k
idle = 0
cycles = 1
checkpoint = off

[drive:c]
device = $T/c.img
size = 32M
block_size = 64k
static_fraction = 0.25
idle = 0
trim = no
cycles = $1
checkpoint = off
max_bad_fraction = $2
EOF
}

log "three drives: a with checkpoints, b without, c failed"
truncate -s 64M "$T/a.img"
truncate -s 32M "$T/b.img" "$T/c.img"
conf 1 100%
run_ssdt "$T/run1.log" -c "$T/r.conf" --oneshot
assert_rc "first run" 0 "$RC" "$T/run1.log"
# garbage over 64 of c's static blocks (its first 8 MiB, verified every
# cycle and never written again): an eighth of its 512 blocks
python3 - "$T/c.img" <<'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_RDWR)
for b in range(40, 104):
    os.pwrite(fd, os.urandom(65536), b * 65536)
os.close(fd)
EOF
conf 2 1%
run_ssdt "$T/run2.log" -c "$T/r.conf" --oneshot
assert_eq "c failed" failed "$(state_get "$ST/c/state" run)"
assert_eq "a finished" finished "$(state_get "$ST/a/state" run)"

# page NAME ARGS...: a report from the state directory into $T/NAME.html,
# checked by tidy and the page rules here; sets RC
page() {
	local name=$1
	shift
	"$CTL" report "$@" --state-dir "$ST" -o "$T/$name.html" >"$T/$name.out" 2>&1
	RC=$?
	assert_rc "report $name" 0 "$RC" "$T/$name.out"
	assert_eq "$name: nothing said on stderr" "" "$(cat "$T/$name.out")"
	tidy -q -e "$T/$name.html" >"$T/$name.tidy" 2>&1
	assert_rc "$name: tidy finds nothing" 0 "$?" "$T/$name.tidy"
	if grep -Eqi '<script|<link|<img|<iframe|src=|url\((["'"'"']?)(https?|//)' "$T/$name.html"; then
		fail "$name: the page refers outside itself"
	else pass_check; fi
	assert_eq "$name: one page, no leftover" "" "$(ls "$T" | grep -F "$name.html.")"
}

# browser NAME SECTION...: report_browser.py on $T/NAME.html, the
# sections named having all their figures drawn; its output in BROWSER_OUT;
# 1 when it did not run
browser() {
	local name=$1 out
	shift
	# the sanitizer stage (REPORT_SAN=1) checks ssdctl's code on the same
	# records; the pages in Chromium are the integration stage's to check
	[ "${REPORT_SAN:-0}" = 1 ] && return 1
	out=$("$PY" "$IT_DIR/report_browser.py" "$T/$name.html" "$T/$name" "$@" 2>&1)
	BROWSER_OUT=$out
	note "$name in Chromium: $(grep -v '^drawn ' <<<"$out" | tr '\n' ' ')"
	assert_eq "$name: Chromium finds nothing wrong" ok "$(tail -1 <<<"$out")"
	assert_gt "$name: a screenshot" "$(awk '$1 == "png_bytes" { print $2 }' <<<"$out")" 10000
	assert_gt "$name: PDF pages" "$(awk '$1 == "pdf_pages" { print $2 }' <<<"$out")" 0
	assert_eq "$name: every PDF page A4 (points)" 595x842 \
	    "$(awk '$1 == "pdf_sizes" { $1 = ""; print substr($0, 2) }' <<<"$out")"
}

log "one drive with checkpoints"
page a a
browser a a-tbw a-performance a-cache a-temperature
"$CTL" report a --state-dir "$ST" --json >"$T/a.json" || fail "report a --json"
python3 - "$T/a.json" "$ST/a/checkpoints.jsonl" >"$T/a.check" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
d = r["drives"][0]
lines = [json.loads(l) for l in open(sys.argv[2])]
bad = []
ids = {l["probe"] for l in lines}
if {p["probe"] for p in d["probes"]} != ids:
    bad.append("probes %s vs %s" % ([p["probe"] for p in d["probes"]], ids))
last = max(l["checkpoint"] for l in lines)
if [c["checkpoint"] for c in d["checkpoints"]] != sorted({l["checkpoint"] for l in lines}):
    bad.append("checkpoints %s" % d["checkpoints"])
for p in d["probes"]:
    l = next(x for x in lines if x["probe"] == p["probe"] and x["checkpoint"] == last)
    for k in ("read_lat_us", "write_lat_us"):
        if p.get(k) != l.get(k):
            bad.append("%s %s: %s vs %s" % (p["probe"], k, p.get(k), l.get(k)))
    want = l["read_iops"] + l["write_iops"] if p["unit"] == "IOPS" else \
        (l["read_bytes_per_sec"] + l["write_bytes_per_sec"]) / 1e6
    if abs(p["values"][-1] - want) > 1e-6 * want:
        bad.append("%s latest %s vs %s" % (p["probe"], p["values"][-1], want))
if d["failure"] is not None or d["errors_total"] != 0 or d["state"] != "finished":
    bad.append("summary %s %s %s" % (d["failure"], d["errors_total"], d["state"]))
if d["percent_used"] is not None or d["waf"] is not None:
    bad.append("a file has no SMART: unknown, not %s" % d["percent_used"])
print("\n".join(bad) or "ok")
EOF
assert_eq "a: the model is checkpoints.jsonl's (probes, latest figures, latency)" ok "$(cat "$T/a.check")"
assert_file_contains "a: the page has the probe table" "$T/a.html" "rand-write-4k-qd1"
assert_file_contains "a: unknown SMART is said so" "$T/a.html" ">unknown<"

log "one drive without checkpoints, one failed"
page b b
browser b b-tbw
assert_file_contains "b: says it has no checkpoint" "$T/b.html" "No performance checkpoint has run yet"
page c c
browser c c-tbw
"$CTL" report c --state-dir "$ST" --json | python3 -c '
import json, sys
d = json.load(sys.stdin)["drives"][0]
f = d["failure"] or {}
ok = d["state"] == "failed" and "max_bad_fraction" in (f.get("cause") or "") \
    and f.get("host_bytes_written", 0) > 0 and d["errors"]["corrupt"] > 0 \
    and any(e["event"] == "failed" for e in d["events"]) \
    and [e["time"] for e in d["events"]] == sorted((e["time"] for e in d["events"]), reverse=True)
print("ok" if ok else json.dumps({k: d[k] for k in ("state", "failure", "errors")}))
' >"$T/c.check"
assert_eq "c: failed, its TBW and cause, corrupt blocks, events newest first" ok "$(cat "$T/c.check")"
assert_file_contains "c: the page says it failed" "$T/c.html" "failed at "

log "three drives side by side"
page abc a b c --at latest
browser abc a-tbw b-tbw c-tbw &&
    assert_eq "abc: a bar chart for each probe a ran, none not drawn (the wear of file targets: not drawn, said why)" \
    "$(($(python3 -c 'import json, sys; print(len({json.loads(l)["probe"] for l in open(sys.argv[1])}))' "$ST/a/checkpoints.jsonl"))) 1" \
    "$(awk '$1 == "drawn" && $2 == "drives" { print $3, $4 }' <<<"$BROWSER_OUT")"
for at in 0 latest 100MB; do
	"$CTL" report a b c --state-dir "$ST" --at $at --json >"$T/cmp-$at.json" ||
	    fail "report a b c --at $at --json"
done
python3 - "$T" "$ST/a/checkpoints.jsonl" <<'EOF' >"$T/cmp.check"
import json, sys
t, lines = sys.argv[1], [json.loads(l) for l in open(sys.argv[2])]
bad = []
for at in ("0", "latest", "100MB"):
    c = json.load(open("%s/cmp-%s.json" % (t, at)))["comparison"]
    if c["at"] != at: bad.append("at %s" % c["at"])
    for p in c["probes"]:
        names = [b["drive"] for b in p["drives"]]
        if names != ["a", "b", "c"]: bad.append("bars %s" % names)
        a = p["drives"][0]
        want = [l for l in lines if l["probe"] == p["probe"]]
        pick = {"0": want[0], "latest": want[-1]}.get(at) or \
            next((l for l in want if l["host_bytes_written"] >= 100 * 10 ** 6), None)
        if pick is None:
            if a["value"] is not None: bad.append("%s %s: a bar past the end" % (at, p["probe"]))
        elif a["checkpoint"] != pick["checkpoint"]:
            bad.append("%s %s: checkpoint %s, not %s" % (at, p["probe"], a["checkpoint"], pick["checkpoint"]))
        if any(b["value"] is not None for b in p["drives"][1:]):
            bad.append("%s: b or c has a bar" % p["probe"])
print("\n".join(bad) or "ok")
EOF
assert_eq "comparison: a's bars are the checkpoint the milestone picks, b and c none" ok "$(cat "$T/cmp.check")"

log "from the daemon: the same data as from the state directory"
conf 2 1%
start_ssdt "$T/d.log" -c "$T/r.conf"
for _ in $(seq 1 100); do
	"$CTL" -s "$ST.sock" status >/dev/null 2>&1 && break
	sleep 0.1
done
"$CTL" -s "$ST.sock" report a c -o "$T/daemon.html" >"$T/daemon.out" 2>&1
assert_rc "report a c from the daemon" 0 "$?" "$T/daemon.out"
tidy -q -e "$T/daemon.html" >"$T/daemon.tidy" 2>&1
assert_rc "daemon page: tidy finds nothing" 0 "$?" "$T/daemon.tidy"
"$CTL" -s "$ST.sock" report a c --json >"$T/daemon.json" || fail "report --json from the daemon"
"$CTL" report a c --state-dir "$ST" --json >"$T/dir.json"
python3 - "$T/daemon.json" "$T/dir.json" <<'EOF' >"$T/same.check"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
keys = ("name", "host_bytes_written", "errors", "errors_total", "probes",
        "checkpoints", "snapshots", "long_tests", "events", "failure", "state")
diff = ["%s.%s" % (x["name"], k) for x, y in zip(a["drives"], b["drives"])
        for k in keys if x.get(k) != y.get(k)]
print("ok" if not diff and a["comparison"] == b["comparison"] else "differ: %s" % diff)
EOF
assert_eq "daemon and state directory: the same content" ok "$(cat "$T/same.check")"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["drives"][0]
w = d["host_bytes_written"]
print(d["rated_tbw_bytes"], "%.6f" % d["rated_share_percent"], "%.6f" % (100 * w / 1e9))
' "$T/daemon.json" >"$T/rated"
read -r rated share want <"$T/rated"
assert_eq "a: rated_tbw from the daemon" 1000000000 "$rated"
assert_eq "a: the share of it written" "$want" "$share"
assert_match "a: ssdctl status shows the rating" "rated: +1.000 GB, [0-9.]+ % of it written" \
    "$("$CTL" -s "$ST.sock" status a)"
"$CTL" -s "$ST.sock" report nosuch -o "$T/x.html" >"$T/nosuch.out" 2>&1
assert_rc "an unknown drive (daemon)" 1 "$?" "$T/nosuch.out"
kill -TERM "$SSDT_PID"
wait_exit "$SSDT_PID" 10

log "damaged and hostile records: left out or escaped, never a crash or a hang"
cp -a "$ST" "$T/damaged"
DM=$T/damaged/a
for f in events.jsonl smart.jsonl checkpoints.jsonl; do
	printf 'garbage{{\n{"event": 5}\n\0\n{}\n42\n[]\n' >>"$DM/$f"
done
cat >>"$DM/checkpoints.jsonl" <<'EOF2'
{"checkpoint": 1, "probe": "rand-read-4k-qd1", "flags": "throughput", "host_bytes_written": "x"}
{"checkpoint": 2, "probe": "zz-<i>evil</i>", "read_iops": 5, "write_iops": 0, "block_size": 4096, "flags": ["<img src=x onerror=alert(1)>", 7], "read_lat_us": {"p50": "<b>"}}
EOF2
cat >>"$DM/smart.jsonl" <<'EOF2'
{"time": 9000000000000000000, "host_bytes_written": 0, "waf": 1e308, "smart": {"percent_used": "<b>x</b>", "temperature_c": -1e300}}
{"time": 1, "host_bytes_written": 18446744073709551615, "smart": {"model": "<script>alert(1)</script>"}, "rated_tbw_bytes": -5}
EOF2
sed -i -e 's/^errors.corrupt .*/errors.corrupt -7/' \
    -e 's|^reason .*|reason <u>planted</u>|' "$DM/state"
grep -q '^reason <u>planted' "$DM/state" || die "no reason line in the state to plant into"
"$CTL" report a --state-dir "$T/damaged" -o "$T/damaged.html" >"$T/damaged.out" 2>&1
assert_rc "report on damaged and hostile records" 0 "$?" "$T/damaged.out"
tidy -q -e "$T/damaged.html" >"$T/damaged.tidy" 2>&1
assert_rc "damaged: tidy finds nothing" 0 "$?" "$T/damaged.tidy"
if grep -Eq '<(img|script|b|i|u)[ >]' "$T/damaged.html"; then
	fail "damaged: markup from the records reached the page: $(grep -Eo '<(img|script|b|i|u)[ >][^<]*' "$T/damaged.html" | head -3)"
else pass_check; fi
assert_file_contains "damaged: the planted markup shown as text" "$T/damaged.html" "&lt;img src=x"
browser damaged a-tbw
"$CTL" report a --state-dir "$T/damaged" --json | python3 -c '
import json, sys; d = json.load(sys.stdin)["drives"][0]; print(len(d["probes"]))' >"$T/damaged.n"
assert_eq "damaged records: the probes still all there" \
    "$(python3 -c 'import json, sys
ids = set()
for l in open(sys.argv[1]):
    try:
        o = json.loads(l)
    except ValueError:
        continue
    if isinstance(o, dict) and isinstance(o.get("checkpoint"), int) and isinstance(o.get("probe"), str):
        ids.add(o["probe"])
print(len(ids))' "$DM/checkpoints.jsonl")" "$(cat "$T/damaged.n")"
# the same records through a daemon (it reads them anew at each call)
sed "s|$ST|$T/damaged|g" "$T/r.conf" >"$T/damaged.conf"
start_ssdt "$T/dd.log" -c "$T/damaged.conf"
for _ in $(seq 1 100); do
	"$CTL" -s "$T/damaged.sock" status >/dev/null 2>&1 && break
	sleep 0.1
done
cat "$DM/checkpoints.jsonl" >/dev/null
"$CTL" -s "$T/damaged.sock" report a c -o "$T/damaged-d.html" >"$T/damaged-d.out" 2>&1
assert_rc "report on damaged records, from the daemon" 0 "$?" "$T/damaged-d.out"
if grep -Eq '<(img|script|b|i|u)[ >]' "$T/damaged-d.html"; then
	fail "damaged (daemon): markup from the records reached the page"
else pass_check; fi
kill -TERM "$SSDT_PID"
wait_exit "$SSDT_PID" 10
# files that are no files: a FIFO, a link to /dev/zero (never waited on,
# never read without end): left out, each with its reason, the rest of
# the page written
cp -a "$ST" "$T/odd"
rm "$T/odd/a/events.jsonl"
mkfifo "$T/odd/a/events.jsonl"
ln -s /dev/zero "$T/odd/a/smart.jsonl"
timeout 30 "$CTL" report a --state-dir "$T/odd" -o "$T/odd.html" >"$T/odd.out" 2>&1
rc=$?
assert_rc "a FIFO and a link to /dev/zero for records: no hang, the page written" 0 "$rc" "$T/odd.out"
assert_contains "odd records: said" "$(cat "$T/odd.out")" "smart.jsonl is a symbolic link"
assert_file_contains "odd records: the events' reason on the page" "$T/odd.html" \
    "Not read: events.jsonl is not a regular file."
assert_file_contains "odd records: the snapshots' reason on the page" "$T/odd.html" \
    "Not read: smart.jsonl is a symbolic link, never followed."
assert_file_contains "odd records: the probe table still there" "$T/odd.html" "rand-write-4k-qd1"

log "usage"
"$CTL" --json report a --state-dir "$ST" | python3 -c 'import json, sys; print(json.load(sys.stdin)["drives"][0]["name"])' >"$T/gj" 2>&1
assert_eq "ssdctl --json report: the data on stdout" a "$(cat "$T/gj")"
"$CTL" report a --state-dir "$ST" >"$T/u1" 2>&1
assert_rc "no -o and no --json" 2 "$?" "$T/u1"
"$CTL" report a --state-dir "$ST" -o "$T/u.html" --at sideways >"$T/u2" 2>&1
assert_rc "--at sideways" 2 "$?" "$T/u2"
"$CTL" report nosuch --state-dir "$ST" -o "$T/u.html" >"$T/u3" 2>&1
assert_rc "an unknown drive (state directory)" 1 "$?" "$T/u3"
assert_contains "an unknown drive: said" "$(cat "$T/u3")" "no drive nosuch"
if [ -e "$T/u.html" ]; then fail "a failed report left a page"; else pass_check; fi

log "a year of history: 300 checkpoints, 17 000 events, an hourly archive"
"$CTL" --json probes >"$T/probes.json"
python3 "$IT_DIR/ckpt_synth.py" "$T/probes.json" "$T/ck300.jsonl" 300 || die "ckpt_synth.py"
python3 "$IT_DIR/report_synth.py" "$T/big" s "$ST/a/a.rrd" "$T/ck300.jsonl" 365 >/dev/null ||
    die "report_synth.py"
t0=$(date +%s%N)
"$CTL" report s --state-dir "$T/big" -o "$T/big.html" >"$T/big.out" 2>&1
assert_rc "report of a year" 0 "$?" "$T/big.out"
ms=$((($(date +%s%N) - t0) / 1000000))
note "a year's report: $ms ms, $(stat -c %s "$T/big.html") bytes"
# REPORT_SAN=1 (the sanitizer stage of make check, its ssdctl several
# times slower by design): the bound is the build's that people run, held
# in the integration stage
[ "${REPORT_SAN:-0}" = 1 ] ||
    assert_lt "a year's report: written in under 5 s (ms)" "$ms" 5000
assert_lt "a year's report: under 5 MB (bytes)" "$(stat -c %s "$T/big.html")" 5000000
tidy -q -e "$T/big.html" >"$T/big.tidy" 2>&1
assert_rc "a year's report: tidy finds nothing" 0 "$?" "$T/big.tidy"
browser big s-tbw s-wear s-performance s-temperature
assert_file_contains "a year's report: 60 of the 301 snapshots in the table, said so" "$T/big.html" "60 of 301 shown"
"$CTL" report s --state-dir "$T/big" --json | python3 -c '
import json, sys; d = json.load(sys.stdin)["drives"][0]
print(d["rated_tbw_bytes"], round(d["rated_share_percent"], 6), d["percent_used"], len(d["snapshots"]), len(d["events"]), d["events_not_listed"])' >"$T/big.check"
# the events a report sees are the last 10000, as the Events method gives
# them: the throttles and verify errors among those, at most 200 listed
n=$(tail -n 10000 "$T/big/s/events.jsonl" | grep -c '"event": "\(throttle\|verify_error\)"')
assert_gt "a year: notable events among the last 10000" "$n" 100
assert_eq "a year (offline): the rating the snapshots kept, 3000 of 3600 TB written; the latest wear; every snapshot; the notable events of the last 10000 (200 at most listed)" \
    "3600000000000000 83.333333 70 301 $((n < 200 ? n : 200)) $((n > 200 ? n - 200 : 0))" "$(cat "$T/big.check")"
# ---------------------------------------------------------------- hosts
# state directories copied from two hosts (the same drives a and c on
# both, b on lab1 only): HOST/DRIVE names them, a name on one host alone
# needs none, a colliding one is refused with the hosts; HOST=DIR names a
# host; the page and the data show every drive as HOST/DRIVE
mkdir -p "$T/hosts"
cp -a "$ST" "$T/hosts/lab1"
cp -a "$ST" "$T/hosts/lab2"
rm -rf "$T/hosts/lab2/b"
# lab2's a with no event log it can read (a directory in its place): what
# the report reads of lab2/a is lab2's
rm -f "$T/hosts/lab2/a/events.jsonl"
mkdir "$T/hosts/lab2/a/events.jsonl"
H=(--state-dir "$T/hosts/lab1" --state-dir "$T/hosts/lab2/")
"$CTL" report lab1/a lab2/a b "${H[@]}" --json >"$T/hosts.json" 2>"$T/hosts.err"
assert_rc "report lab1/a lab2/a b from two hosts' state directories" 0 $? "$T/hosts.err"
assert_eq "hosts: the drives as HOST/DRIVE, each with its host" \
    "lab1/a lab1 lab2/a lab2 lab1/b lab1" "$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join("%s %s" % (d["name"], d.get("host")) for d in r["drives"]))' "$T/hosts.json")"
assert_eq "hosts: each drive read from its own host (lab2/a's log unreadable)" \
    "lab1/a: events read; lab2/a: events unread; same TBW" "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["drives"]
say = lambda m: "%s: events %s" % (m["name"], "unread" if "events" in
                                     m.get("unread", {}) else "read")
print("%s; %s; %s" % (say(d[0]), say(d[1]), "same TBW" if
      d[0]["host_bytes_written"] == d[1]["host_bytes_written"] else "TBW differs"))' \
    "$T/hosts.json")"
"$CTL" report a "${H[@]}" --json >/dev/null 2>"$T/collide.err"
assert_rc "hosts: a name on both hosts refused" 1 $? "$T/collide.err"
assert_file_contains "  with the hosts and what to write" "$T/collide.err" \
    "drive a is in 2 state directories (lab1, lab2): name it HOST/DRIVE"
"$CTL" report lab3/a "${H[@]}" --json >/dev/null 2>"$T/nohost.err"
assert_rc "hosts: an unknown host refused" 1 $? "$T/nohost.err"
assert_file_contains "  with the reason" "$T/nohost.err" "no state directory of host lab3"
"$CTL" report lab1/a --state-dir "$T/hosts/lab1" --state-dir "$T/hosts/lab2/../lab1" \
    --json >/dev/null 2>"$T/twice.err"
assert_rc "hosts: two directories of one host name refused" 1 $? "$T/twice.err"
assert_file_contains "  with the reason" "$T/twice.err" "two state directories of host lab1"
"$CTL" report east/c west/c --state-dir east="$T/hosts/lab1" \
    --state-dir west="$T/hosts/lab2" -o "$T/hosts.html" >"$T/hosts.out" 2>&1
assert_rc "hosts: HOST=DIR, a page of east/c and west/c" 0 $? "$T/hosts.out"
tidy -q -e "$T/hosts.html" >"$T/hosts.tidy" 2>&1
assert_rc "hosts page: tidy finds nothing" 0 "$?" "$T/hosts.tidy"
assert_file_contains "hosts page: east/c named" "$T/hosts.html" "east/c"
assert_file_contains "hosts page: west/c named" "$T/hosts.html" "west/c"
assert_gt "hosts page: figures drawn" "$(grep -o '<svg' "$T/hosts.html" | wc -l)" 3

finish
