#!/bin/bash
# A phase's seconds (its phase_end event, the MB/s it gives) run from its
# first job handed to the I/O worker: on a fresh start the drives are all
# activated and a new host's archives made before any drive's I/O, and
# none of that is the first phase's time. Three drives on a fresh state
# dir, --oneshot: each drive's first phase began (its phase_end's time
# less its seconds) after every archive was created (the files' birth).
. "$(dirname "$0")/lib.sh"

ST=$T/state
{
	for n in a b c; do
		cat <<EOF2
[drive:$n]
checkpoint = off
device = $T/$n.img
size = 16M
block_size = 128k
order = sequential
queue_depth = 8
trim = no
cycles = 1
EOF2
	done
} | write_conf "$T/c.conf" "$ST"
run_ssdt "$T/run.log" -c "$T/c.conf" --oneshot
assert_rc "--oneshot" 0 "$RC" "$T/run.log"

births=()
for n in a b c; do
	f=$ST/$n/$n.rrd
	[ -f "$f" ] || die "no archive at $f"
	b=$(stat -c %.9W "$f") || die "stat $f"
	[ "${b%.*}" -gt 0 ] || die "this file system keeps no birth time ($f)"
	births+=("$b")
done
assert_eq "each drive's first phase began after every archive was made" ok \
    "$(python3 - "$ST" "${births[@]}" <<'PY'
import datetime, json, sys
st, births = sys.argv[1], [float(b) for b in sys.argv[2:]]
made = max(births)
bad = []
for n in "abc":
    ends = [json.loads(l) for l in open("%s/%s/events.jsonl" % (st, n))]
    ends = [e for e in ends if e.get("event") == "phase_end"]
    if not ends:
        bad.append("%s: no phase_end" % n)
        continue
    e = ends[0]
    t = datetime.datetime.strptime(e["time"], "%Y-%m-%dT%H:%M:%S.%fZ")
    t = t.replace(tzinfo=datetime.timezone.utc).timestamp()
    began = t - e["seconds"]
    # the event's time is to the millisecond
    if began < made - 0.002:
        bad.append("%s: %s began %.1f ms before the last archive was made"
                   % (n, e.get("what"), (made - began) * 1000))
print("; ".join(bad) or "ok")
PY
)"
finish
