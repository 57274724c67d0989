#!/bin/bash
# Write timelines against hostile or damaged files, and the sense of the
# write-cache estimate the daemon publishes:
#   - every knee a pass reports is a drop: some bytes before it, the speed
#     after it below the speed before it (a plain file target, whose
#     completions come in bursts, must not make a knee of the bursts);
#   - pass-01.json beside pass-1.json: each pass once, in the Timelines
#     reply and in ssdctl graph (eight such names are one pass, not a
#     graph of too many);
#   - a damaged pass between sound ones: every line of the timeline graph
#     keeps its own key (gnuplot's index and title agree);
#   - NaN and Infinity in a file: the Timelines reply is still JSON;
#   - a FIFO, or a symlink to /dev/zero, named pass-N.json: ssdctl graph
#     --state-dir and the daemon's Timelines skip it rather than block on
#     it or read it without end; the daemon keeps answering;
#   - the temporary file of a save a crash cut short is removed.
# (The files as the daemon writes them: t_timeline.)
. "$(dirname "$0")/lib.sh"
need_root

CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
ST=$T/state TLD=$T/state/a/timelines EV=$T/state/a/events.jsonl
SOCK=$ST.sock CYCLES=60
export SSDTORTURE_SOCKET=$T/none.sock	# offline unless -s is given

write_conf "$T/a.conf" "$ST" <<EOF
[drive:a]
checkpoint = off
device = $T/disk
size = 16M
block_size = 128k
order = sequential
queue_depth = 8
static_fraction = 0.25
trim = no
cycles = $CYCLES
timeline_every = 1
EOF

# what a save cut short by a crash leaves behind
mkdir -p "$TLD"
echo '{"pass":' >"$TLD/.pass-7.json.Ab12Cd"
run_ssdt "$T/run.log" -c "$T/a.conf" --oneshot
assert_rc "--oneshot, $CYCLES cycles" 0 "$RC" "$T/run.log"
[ -f "$TLD/pass-$CYCLES.json" ] || die "no timeline of pass $CYCLES"
check "a crashed save's temporary file is removed" test ! -e "$TLD/.pass-7.json.Ab12Cd"

# ---------------------------------------------------------------- knees
bad=$(grep '"event":"phase_end"' "$EV" | python3 -c '
import json, sys
for l in sys.stdin:
    e = json.loads(l)
    if not e.get("slc_knee"):
        continue
    c, i, p = e["slc_cache_bytes"], e["in_cache_bytes_per_sec"], e["post_cache_bytes_per_sec"]
    if c <= 0 or p >= i:
        print("cycle %d: cache %d B, %.4g B/s in it, %.4g after" % (e["cycle"], c, i, p))')
assert_eq "every knee reported is a drop (cache > 0, slower after)" "" "$bad"

# ---------------------------------------------------------------- offline
# hostile DIR : a copy of the state directory to spoil
hostile() {
	rm -rf "${T:?}/$1"
	cp -a "$ST" "$T/$1"
	H=$T/$1/a/timelines
}

# pass numbers written with leading zeros are the same pass
hostile dup
for z in 0 00 000 0000 00000 000000 0000000; do cp "$H/pass-1.json" "$H/pass-${z}1.json"; done
"$CTL" graph a --what timeline --state-dir "$T/dup" --pass 1 -o "$T/dup.svg" >"$T/dup.err" 2>&1
assert_rc "graph --pass 1 beside pass-01.json ... pass-00000001.json" 0 $? "$T/dup.err"
assert_eq "... pass 1 drawn once" 1 "$(grep -c '>pass 1: ' "$T/dup.svg" 2>/dev/null)"

# a damaged pass between sound ones: keys stay with their lines. gnuplot
# through a wrapper that keeps the data file.
mkdir -p "$T/bin"
cat >"$T/bin/gnuplot" <<EOF
#!/bin/sh
cp "\$1" "$T/plot.gp"; cp "\$(dirname "\$1")/data" "$T/plot.data"
exec $(command -v gnuplot) "\$@"
EOF
chmod +x "$T/bin/gnuplot"
hostile short
python3 - "$H/pass-2.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1])); o["t_us"] = [0]
json.dump(o, open(sys.argv[1], "w"))
PY
PATH=$T/bin:$PATH "$CTL" graph a --what timeline --state-dir "$T/short" \
    --pass 1 --pass 2 --pass 3 -o "$T/short.svg" >"$T/short.err" 2>&1
assert_rc "graph with a damaged pass between two sound ones" 0 $? "$T/short.err"
assert_eq "... a data block per line of the plot (pass 3's line is pass 3's)" \
    "$(grep -c ' index ' "$T/plot.gp")" \
    "$(python3 -c 'import sys; print(sum(1 for b in open(sys.argv[1]).read().split("\n\n\n") if b.strip()))' "$T/plot.data")"

# a FIFO, a symlink to /dev/zero
hostile fifo
rm "$H/pass-3.json"
mkfifo "$H/pass-3.json"
timeout 5 "$CTL" graph a --what slc --state-dir "$T/fifo" -o "$T/fifo.svg" >"$T/fifo.err" 2>&1
assert_ne "graph --what slc with a FIFO for pass-3.json returns" 124 $?
hostile zero
rm "$H/pass-3.json"
ln -s /dev/zero "$H/pass-3.json"
timeout 5 "$CTL" graph a --what timeline --pass 3 --pass 4 --state-dir "$T/zero" \
    -o "$T/zero.svg" >"$T/zero.err" 2>&1
assert_ne "graph with pass-3.json a symlink to /dev/zero returns" 124 $?

# ---------------------------------------------------------------- daemon
# call PARAMS : one Timelines call, its reply (no NUL) on stdout
call() {
	printf '{"method":"io.ssdtorture.Manager.Timelines","parameters":%s}\0' "$1" |
	    timeout 10 socat -t 10 - "UNIX-CONNECT:$SOCK" | tr -d '\0'
}
# strict_json : "ok", or why the reply on stdin is not plain JSON
strict_json() {
	python3 -c '
import json, sys
def no(c): raise ValueError("non-JSON constant " + c)
try:
    json.loads(sys.stdin.read(), parse_constant=no); print("ok")
except Exception as e:
    print(e)'
}

cp "$TLD/pass-1.json" "$TLD/pass-01.json"
cp "$TLD/pass-1.json" "$TLD/pass-001.json"
printf '%s\n' '{"pass":900,"step_bytes":131072,"t_us":[0,NaN,Infinity,5],"slc_knee":true,"slc_cache_bytes":NaN,"in_cache_bytes_per_sec":NaN,"post_cache_bytes_per_sec":-Infinity,"host_bytes_written":1}' \
    >"$TLD/pass-900.json"
start_ssdt "$T/d.log" -c "$T/a.conf"
for _ in $(seq 1 200); do
	"$CTL" -s "$SOCK" status a >/dev/null 2>&1 && break
	sleep 0.05
done
call '{"drive":"a"}' >"$T/all.json"
assert_eq "Timelines: every pass once (pass-01.json, pass-001.json beside pass-1.json)" "" \
    "$(python3 -c '
import collections, json, sys
c = collections.Counter(t["pass"] for t in json.loads(open(sys.argv[1]).read().replace("NaN", "0").replace("Infinity", "0"))["parameters"]["timelines"])
print(" ".join("pass %d x%d" % (p, n) for p, n in sorted(c.items()) if n > 1))' "$T/all.json")"
assert_eq "Timelines(pass 1): one timeline" 1 "$(call '{"drive":"a","pass":1}' |
    python3 -c 'import json, sys; print(len(json.load(sys.stdin)["parameters"]["timelines"]))')"
assert_eq "Timelines, all passes, one of them with NaN: plain JSON" ok "$(strict_json <"$T/all.json")"
assert_eq "Timelines(pass 900) with NaN: plain JSON" ok "$(call '{"drive":"a","pass":900}' | strict_json)"

# last: a FIFO where a pass's file was
rm "$TLD/pass-5.json"
mkfifo "$TLD/pass-5.json"
assert_contains "Timelines(pass 5) with a FIFO for pass-5.json answers" \
    "$(call '{"drive":"a","pass":5}')" '"parameters"'
timeout 5 "$CTL" -s "$SOCK" status a >"$T/st.out" 2>&1
assert_rc "... and the daemon answers the next client" 0 $? "$T/st.out"
# a daemon stuck in the FIFO's open goes on now
( timeout 2 sh -c ": >'$TLD/pass-5.json'" ) 2>/dev/null
kill_and_reap TERM "$SSDT_PID"
assert_rc "daemon exits on SIGTERM" 0 "$RC"
finish
