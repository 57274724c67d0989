#!/bin/bash
# ssdctl report and graph on small hand-made records (offline, no daemon),
# for figures that must be said as they are:
#  - a write pass whose cache showed no knee: "no knee" in the report's
#    probe table and its --json, never CKPT_NO_KNEE's -1 as a cache size;
#    ssdctl graph draws no cache point for it;
#  - the bars of several drives: labelled 12070, not 1.207e+04;
#  - rated_tbw far below what was written: the multiple of the rating,
#    not a percentage of twelve digits;
#  - a smart.jsonl that is a symbolic link: left out with the reason, the
#    rest of the report written.
. "$(dirname "$0")/lib.sh"
need_root
command -v gnuplot >/dev/null || skip "gnuplot missing (apt-get install gnuplot-nox)"
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
[ -x "$CTL" ] || die "$CTL is missing (make -C $ROOT)"
export SSDTORTURE_SOCKET=$T/none.sock	# offline: no daemon asked
ST=$T/state

# drive NAME IOPS KNEE2 [KNEE1]: a finished drive of 1775042560 bytes
# written, a rating of 1 byte, two checkpoints: rand-read-4k-qd1 at IOPS,
# clean-pass with a knee (12 GB cache; KNEE1 false: none) then KNEE2 (true:
# 12 GB again, false: none)
drive() {
	mkdir -p "$ST/$1"
	printf 'run finished\nreason cycles reached\nhost_bytes_written 1775042560\n' >"$ST/$1/state"
	python3 - "$ST/$1" "$2" "$3" "${4:-true}" <<'EOF'
import json, os, sys
d, iops = sys.argv[1], float(sys.argv[2])
knee2, knee1 = sys.argv[3] == "true", sys.argv[4] == "true"
with open(os.path.join(d, "smart.jsonl"), "w") as f:
    for i in range(2):
        f.write(json.dumps({"time": 1700000000 + i, "why": "cycle",
                            "host_bytes_written": i * 887521280,
                            "rated_tbw_bytes": 1,
                            "smart": {"percent_used": i}}) + "\n")
with open(os.path.join(d, "checkpoints.jsonl"), "w") as f:
    for k in (1, 2):
        hbw = (k - 1) * 887521280
        f.write(json.dumps({"checkpoint": k, "probe": "rand-read-4k-qd1",
            "family": "rand", "title": "Random read, 4 KiB, QD1",
            "host_bytes_written": hbw, "block_size": 4096, "seconds": 10,
            "read_iops": iops, "write_iops": 0,
            "read_bytes_per_sec": iops * 4096, "write_bytes_per_sec": 0,
            "flags": []}) + "\n")
        knee = knee1 if k == 1 else knee2
        line = {"checkpoint": k, "probe": "clean-pass", "family": "long",
                "host_bytes_written": hbw, "slc_knee": knee,
                "pass_bytes_per_sec": 5e8, "flags": []}
        if knee:
            line.update(slc_cache_bytes=12 * 10 ** 9,
                        in_cache_bytes_per_sec=2e9, post_cache_bytes_per_sec=4e8)
        f.write(json.dumps(line) + "\n")
EOF
}
drive x 12070 false
drive y 9000.5 true
drive w 100 false false

log "a pass without a knee"
"$CTL" report x --state-dir "$ST" --json >"$T/x.json" 2>"$T/x.err"
assert_rc "report x --json" 0 $? "$T/x.err"
assert_eq "x: clean-pass's cache at each checkpoint: 12 GB, then no knee" \
    '[12.0, "no knee"]' \
    "$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))["drives"][0]
print(json.dumps(next(p["values"] for p in d["probes"] if p["probe"] == "clean-pass")))' "$T/x.json")"
"$CTL" report x --state-dir "$ST" -o "$T/x.html" >"$T/x.out" 2>&1
assert_rc "report x" 0 $? "$T/x.out"
row=$(grep -o '<tr[^>]*><td class="l">clean-pass</td>.*</tr>' "$T/x.html")
assert_contains "x: the table's clean-pass row says no knee" "$row" "<td>no knee</td>"
assert_not_contains "x: no -1 for a cache in the row" "$row" "-1"
"$CTL" graph w --state-dir "$ST" --what checkpoints --probe clean-pass \
    --figure cache -o "$T/w-cache.svg" >"$T/g.out" 2>&1
assert_rc "graph of w's cache, no pass with a knee: nothing to draw" 1 $? "$T/g.out"
assert_contains "graph: said so" "$(cat "$T/g.out")" "have no cache figures to draw"

log "bars of several drives: plain figures"
"$CTL" report x y --state-dir "$ST" --at latest -o "$T/xy.html" >"$T/xy.out" 2>&1
assert_rc "report x y" 0 $? "$T/xy.out"
texts=$(grep -o '>[^<]*</text>' "$T/xy.html" | tr '\n' ' ')
assert_contains "bars: x's 12070 IOPS as 12070" "$texts" ">12070</text>"
assert_contains "bars: y's 9000.5 as 9000 (the table's three digits and more)" "$texts" ">9000</text>"
assert_not_contains "bars: no e-notation" "$texts" "e+0"
assert_contains "bars: x's latest clean-pass: no knee" "$texts" ">no knee</text>"
assert_contains "bars: y's latest clean-pass: 12.0 GB" "$texts" ">12.0</text>"

log "written far past the rating"
assert_file_contains "x: 1775042560 times the rating of 1 byte" "$T/x.html" \
    "<th class=\"l\">of it written</th><td class=\"l\">1775042560 times</td>"
assert_file_contains "x y: the same in the summary rows" "$T/xy.html" "<td>1775042560 times</td>"

log "a smart.jsonl that is a symbolic link"
cp -a "$ST/x" "$ST/z"
mv "$ST/z/smart.jsonl" "$ST/z/smart.real"
ln -s smart.real "$ST/z/smart.jsonl"
timeout 30 "$CTL" report z --state-dir "$ST" -o "$T/z.html" >"$T/z.out" 2>&1
assert_rc "report z: written" 0 $? "$T/z.out"
assert_contains "z: said on stderr" "$(cat "$T/z.out")" "smart.jsonl is a symbolic link"
assert_file_contains "z: the wear section says why it is not there" "$T/z.html" \
    "Not read: smart.jsonl is a symbolic link, never followed."
assert_eq "z: the SMART snapshots table left out too, both said" 2 \
    "$(grep -c 'Not read: smart.jsonl is a symbolic link' "$T/z.html")"
assert_file_contains "z: the checkpoints still shown" "$T/z.html" "<td class=\"l\">clean-pass</td>"
"$CTL" report z --state-dir "$ST" --json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)["drives"][0]
print(d["unread"], len(d["snapshots"]), len(d["probes"]))' >"$T/z.check"
assert_eq "z --json: why, no snapshot, the probes" \
    "{'snapshots': 'smart.jsonl is a symbolic link, never followed'} 0 2" "$(cat "$T/z.check")"
finish
