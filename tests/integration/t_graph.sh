#!/bin/bash
# ssdctl graph, offline (--rrd FILE), on a synthetic archive in the layout of
# common/rrd_layout.h (made with rrdtool create/update; no daemon): every
# --what in PNG and SVG exits 0 with a well-formed image of exactly the
# requested size (--full-size-mode) that draws the data; an archive without
# data still draws; usage errors exit 2, a missing archive exits 1 with a
# message; an archive read through rrdcached sees values still in its cache.
. "$(dirname "$0")/lib.sh"
need_root
command -v rrdtool >/dev/null || skip "rrdtool missing (apt-get install rrdtool)"
command -v python3 >/dev/null || skip "python3 missing"

SSDCTL=${SSDCTL:-$ROOT/ctl/ssdctl}
LAYOUT=$ROOT/common/rrd_layout.h
[ -x "$SSDCTL" ] || die "$SSDCTL is missing (make -C $ROOT)"
# never a real daemon: with --rrd none is asked, and none listens here
export SSDTORTURE_SOCKET=$T/none.sock
KINDS="throughput tbw wear temperature latency errors flush"

out=$("$SSDCTL" graph d --rrd "$T/probe.rrd" --what tbw -o "$T/probe.png" 2>&1)
case $out in
*"unknown command 'graph'"*) skip "ssdctl has no graph command yet" ;;
esac

# ---------------------------------------------------------------- helpers

# mkrrd FILE START : an empty archive, data sources and archives read from
# rrd_layout.h (the first 7 per second, heartbeat RRD_FAST_HEARTBEAT, min 0;
# the SMART ones heartbeat 300).
mkrrd() {
	local args
	args=$(python3 - "$LAYOUT" <<'EOF'
import re, sys
h = open(sys.argv[1]).read()
ds = re.findall(r'X\(DS_\w+,\s*"(\w+)",\s*(RRD_\w+)\)', h)
fast = int(re.search(r'#define\s+RRD_FAST_HEARTBEAT\s+(\d+)', h).group(1))
rras = re.findall(r'"(RRA:%s:[^"]+)"', h)
assert len(ds) >= 15 and len(rras) == 4, (ds, rras)
out = ["DS:%s:GAUGE:%d:0:U" % (d, fast) if k == "RRD_FAST" else
       "DS:%s:GAUGE:300:U:U" % d for d, k in ds]
out += [r % cf for cf in ("AVERAGE", "MIN", "MAX") for r in rras]
print(" ".join(out))
EOF
) || die "cannot read the layout from $LAYOUT"
	# shellcheck disable=SC2086
	rrdtool create "$1" --start "$2" --step 1 $args || die "rrdtool create failed"
}

# gen START SECONDS : update lines, one per second after START: writes near
# 420 MB/s with a stall every 97 s, a read-only verify stretch, latency
# spikes; SMART every 5 s (UNKNOWN between): wear, spare, a temperature
# peak above 70 C, two media errors late, device/NAND writes, WAF.
gen() {
	python3 "$IT_DIR/graph_gen.py" "$1" "$2"
}

# imgsize FILE : "png W H" or "svg W H" for a well-formed image, else a
# complaint. PNG: signature, IHDR first with a good CRC, IEND last. SVG:
# parses as XML, an <svg> root, width/height (cairo writes "pt", one per
# pixel) agreeing with the viewBox.
imgsize() {
	python3 "$IT_DIR/imgsize.py" "$1"
}

# stroked SVG #RRGGBB : does a line of that colour appear (the legend's
# boxes are fills, so a stroke is the data drawn)?
stroked() {
	python3 - "$1" "$2" <<'EOF'
import re, sys
want = [int(sys.argv[2][i:i + 2], 16) / 2.55 for i in (1, 3, 5)]
for m in re.finditer(r"stroke:rgb\(([\d.]+)%,([\d.]+)%,([\d.]+)%\)", open(sys.argv[1]).read()):
    if all(abs(float(a) - b) < 0.5 for a, b in zip(m.groups(), want)):
        sys.exit(0)
sys.exit(1)
EOF
}

# The EXIT trap once rrdcached runs: stop it, then lib.sh's cleanup (which
# takes the exit status from $?).
stop_rrdcached() {
	local rc=$?
	kill "$RRDC_PID" 2>/dev/null
	wait "$RRDC_PID" 2>/dev/null
	(exit "$rc")
	_cleanup
}

# graph LOG ARGS... : ssdctl graph ARGS; sets RC.
graph() {
	local logf=$1
	shift
	timeout 60 "$SSDCTL" graph "$@" >"$logf" 2>&1
	RC=$?
}

# drawn WHAT FILE W H : exit status 0 and a well-formed W x H image.
drawn() {
	local fmt=${2##*.}
	assert_rc "$1: exit status" 0 "$RC" "$T/g.log"
	assert_eq "$1: $fmt image and size" "$fmt $3 $4" "$(imgsize "$2" 2>&1)"
}

# The main line of each kind (graph.c's colours, palette.h's values).
declare -A COLOUR=([throughput]="#004A75" [tbw]="#0072B2" [wear]="#D55E00"
    [temperature]="#E69F00" [latency]="#8F4B72" [errors]="#D55E00"
    [flush]="#E69F00")
declare -A SIZE=([throughput]="800 360" [tbw]="640 300" [wear]="1024 480"
    [temperature]="700 350" [latency]="600 260" [errors]="900 420"
    [flush]="640 280")

# ---------------------------------------------------------------- archives

NOW=$(date +%s)
T0=$((NOW - 605))
mkrrd "$T/d.rrd" "$T0"
gen "$T0" 600 >"$T/d.updates"
xargs -n 200 rrdtool update "$T/d.rrd" <"$T/d.updates" || die "rrdtool update failed"
mkrrd "$T/empty.rrd" "$T0"

# ---------------------------------------------------------------- every kind

log "every --what, PNG and SVG, at the requested size"
for k in $KINDS; do
	read -r w h <<<"${SIZE[$k]}"
	for fmt in png svg; do
		f=$T/$k.$fmt
		graph "$T/g.log" d --rrd "$T/d.rrd" --what "$k" -o "$f" \
		    --width "$w" --height "$h"
		drawn "$k $fmt" "$f" "$w" "$h"
	done
	if stroked "$T/$k.svg" "${COLOUR[$k]}"; then pass_check; else
		fail "$k: its line (${COLOUR[$k]}) is not drawn"; fi
done

log "default size, and options before DRIVE"
graph "$T/g.log" --what throughput --rrd "$T/d.rrd" -o "$T/default.png" d
drawn "default" "$T/default.png" 1000 450
graph "$T/g.log" d --rrd "$T/d.rrd" --what wear --output "$T/upper.PNG"
assert_rc "upper-case extension" 0 "$RC" "$T/g.log"

log "periods: durations, epochs, dates"
iso=$(date -d "@$((NOW - 300))" '+%Y-%m-%d %H:%M:%S')
i=0
for p in "--since 5m" "--since 1h30m --until now" "--since 90s --until 2m" \
    "--since @$((NOW - 400)) --until @$((NOW - 100))" \
    "--since $((NOW - 400)) --until $NOW" "--since end-4min"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	graph "$T/g.log" d --rrd "$T/d.rrd" --what throughput -o "$T/p$i.png" $p
	drawn "period $p" "$T/p$i.png" 1000 450
done
graph "$T/g.log" d --rrd "$T/d.rrd" --what latency -o "$T/iso.svg" \
    --since "$iso" --until now
drawn "period --since '$iso'" "$T/iso.svg" 1000 450

# ---------------------------------------------------------------- no data

log "an archive without data still draws every kind"
for k in $KINDS; do
	f=$T/empty_$k.svg
	graph "$T/g.log" e --rrd "$T/empty.rrd" --what "$k" -o "$f"
	drawn "empty $k" "$f" 1000 450
	if stroked "$f" "${COLOUR[$k]}"; then
		fail "empty $k: a line drawn without data"; else pass_check; fi
done

# ---------------------------------------------------------------- errormap

log "errormap: every kind is listed (checkpoints: t_ckpt_views; timeline, slc: t_timeline; degradation: t_fullckpt); 100k extents draw in bounded time and size"
assert_eq "the kinds of --help" "$KINDS errormap checkpoints timeline slc degradation" \
    "$("$SSDCTL" graph --help | sed -n 's/^KIND: //p' | sed 's/ (SVG only)//g')"
mkdir -p "$T/sd/errors"
echo "span_bytes $((1 << 40))" >"$T/sd/state"
# pass 1: 100000 one-block extents spread over 1 TiB (4k blocks), pass 2:
# none, pass 3: one block at the middle
python3 "$IT_DIR/graph_maps.py" "$T/sd/errors"
t0=$SECONDS
graph "$T/g.log" x --what errormap --map-dir "$T/sd" -o "$T/em.svg"
drawn "errormap, 100k extents" "$T/em.svg" 1000 450
assert_le "errormap, 100k extents: seconds" $((SECONDS - t0)) 5
assert_lt "errormap, 100k extents: bytes of SVG" "$(stat -c %s "$T/em.svg")" 200000
if grep -q 'class="io_error" x="[0-9]*" y="[0-9]*" width="1"' "$T/em.svg"; then
	pass_check; else fail "errormap: a one-block extent is not drawn a pixel wide"; fi
graph "$T/g.log" x --what errormap --map-dir "$T/nope" -o "$T/em2.svg"
assert_rc "errormap, not a state directory" 1 "$RC" "$T/g.log"

# ---------------------------------------------------------------- errors

log "usage errors exit 2 and write nothing"
i=0
while IFS= read -r a; do
	i=$((i + 1))
	rm -f "$T/u.png"
	# shellcheck disable=SC2086
	graph "$T/g.log" $a
	assert_rc "usage: $a" 2 "$RC" "$T/g.log"
	if [ -s "$T/g.log" ]; then pass_check; else fail "usage: $a: no message"; fi
	if [ -e "$T/u.png" ] || [ -e "$T/u.jpg" ] || [ -e "$T/u.svg" ]; then
		fail "usage: $a: an image was written"; else pass_check; fi
done <<EOF
d --rrd $T/d.rrd --what bogus -o $T/u.png
d --rrd $T/d.rrd --what tbw -o $T/u.jpg
d --rrd $T/d.rrd --what tbw
d --rrd $T/d.rrd -o $T/u.png
--rrd $T/d.rrd --what tbw -o $T/u.png
d e --rrd $T/d.rrd --what tbw -o $T/u.png
d --rrd $T/d.rrd --what tbw -o $T/u.png --width 10
d --rrd $T/d.rrd --what tbw -o $T/u.png --height 0x20
d --rrd $T/d.rrd --what tbw -o $T/u.png --since bogus
d --rrd $T/d.rrd --what tbw -o $T/u.png --since now --until 1h
d --rrd $T/d.rrd --what tbw -o $T/u.png --no-such-option
d --rrd $T/d.rrd --what errormap -o $T/u.svg
d --what errormap -o $T/u.png
d --map-dir $T/sd --what tbw -o $T/u.png
EOF

log "a missing archive exits 1 and says which"
graph "$T/g.log" d --rrd "$T/nope.rrd" --what tbw -o "$T/nope.png"
assert_rc "missing archive" 1 "$RC" "$T/g.log"
assert_file_contains "missing archive: message" "$T/g.log" "$T/nope.rrd"
if [ -e "$T/nope.png" ]; then fail "missing archive: an image was written"
else pass_check; fi

log "an output that cannot be written exits 1"
graph "$T/g.log" d --rrd "$T/d.rrd" --what tbw -o "$T/no/such/dir.png"
assert_rc "unwritable output" 1 "$RC" "$T/g.log"
assert_file_contains "unwritable output: message" "$T/g.log" "dir.png"

# ---------------------------------------------------------------- rrdcached

if command -v rrdcached >/dev/null; then
	log "through rrdcached: values still in its cache are drawn"
	mkdir -p "$T/cache"
	RRDC_SOCK=$T/cache/rrdcached.sock
	# -w/-f: nothing reaches the file unless asked (the graph's fetch
	# flushes it)
	rrdcached -g -l "unix:$RRDC_SOCK" -b "$T/cache" -B -w 3600 -f 7200 \
	    -p "$T/cache/rrdcached.pid" >"$T/rrdcached.log" 2>&1 &
	RRDC_PID=$!
	trap stop_rrdcached EXIT
	for i in $(seq 1 100); do [ -S "$RRDC_SOCK" ] && break; sleep 0.05; done
	[ -S "$RRDC_SOCK" ] || die "rrdcached did not start: $(cat "$T/rrdcached.log")"
	mkrrd "$T/cache/c.rrd" "$T0"
	# librrd's client sends a call's values as one command of limited
	# size (ENOBUFS beyond): 20 at a time
	xargs -n 20 rrdtool update --daemon "unix:$RRDC_SOCK" "$T/cache/c.rrd" \
	    <"$T/d.updates" || die "rrdtool update --daemon failed"
	span=(--since "@$((T0 - 10))" --until "@$((T0 + 610))")
	graph "$T/g.log" c --rrd "$T/cache/c.rrd" --what throughput \
	    -o "$T/c_file.svg" "${span[@]}"
	drawn "file under rrdcached" "$T/c_file.svg" 1000 450
	if stroked "$T/c_file.svg" "${COLOUR[throughput]}"; then
		note "the file already had the values (rrdcached flushed early)"
	fi
	graph "$T/g.log" c --rrd "$T/cache/c.rrd" --daemon "unix:$RRDC_SOCK" \
	    --what throughput -o "$T/c_daemon.svg" "${span[@]}"
	drawn "via rrdcached" "$T/c_daemon.svg" 1000 450
	if stroked "$T/c_daemon.svg" "${COLOUR[throughput]}"; then pass_check
	else fail "via rrdcached: the cached values are not drawn"; fi
	graph "$T/g.log" c --rrd "$T/cache/nope.rrd" --daemon "unix:$RRDC_SOCK" \
	    --what tbw -o "$T/c_nope.png"
	assert_rc "via rrdcached, missing archive" 1 "$RC" "$T/g.log"
else
	note "rrdcached missing: its part is skipped"
fi

finish
