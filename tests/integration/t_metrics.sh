#!/bin/bash
# The Prometheus textfile ([daemon] prometheus_textfile): the daemon keeps
# the file current (rewritten every 15 s), it passes `promtool check
# metrics` without a lint complaint (or promcheck.py, a strict parser, when
# promtool is missing), its values agree with the daemon's own counters
# (ssdctl --json status) within the 15 s staleness, and it is replaced
# atomically: read thousands of times while the daemon rewrites it, every
# read is a whole file, every version a new inode, no temp file remains.
# Takes about a minute (the daemon writes the file every 15 s).
# Then metrics.c alone on synthetic drives: label escaping, NaN/Inf, SMART
# ratios and nulls, the refused state, no drives (the main loop's figures
# alone), failures. The main loop's figures are checked in every version.
# run: timed
# (tests/lib/jobs.sh; the bound: the file rewritten every 15 s, read back within that)
. "$(dirname "$0")/lib.sh"
need_root

CTL=${SSDCTL:-$ROOT/ctl/ssdctl}
[ -x "$CTL" ] || die "$CTL is missing (make -C $ROOT)"
cp "$CTL" "$T/ssdctl" || die "cannot copy $CTL"
CTL=$T/ssdctl
# PROMTOOL= (empty) in the environment: as if promtool were missing
PROMTOOL=${PROMTOOL-$(command -v promtool || true)}
[ -n "$PROMTOOL" ] || note "promtool missing: promcheck.py alone validates"

ST=$T/state
SOCK=$ST.sock
PDIR=$T/textfile
PROM=$PDIR/ssdtorture.prom
mkdir -p "$PDIR"

# a: never ends (random 4k blocks, no idle); b: one cycle, finished within
# a second or so, its counters frozen from then on
write_conf "$T/c.conf" "$ST" <<EOF
prometheus_textfile = $PROM
[drive:a]
checkpoint = off
device = $T/a.img
size = 64M
block_size = 4k
order = random
queue_depth = 32
idle = 0
cycles = 0
[drive:b]
checkpoint = off
device = $T/b.img
size = 128M
block_size = 128k
idle = 0
cycles = 1
EOF

# validate WHAT FILE : promtool (when installed) and promcheck.py, both
# silent and successful.
validate() {
	local out rc
	if [ -n "$PROMTOOL" ]; then
		out=$("$PROMTOOL" check metrics <"$2" 2>&1)
		rc=$?
		assert_rc "$1: promtool check metrics" 0 "$rc"
		assert_eq "$1: promtool complaints" "" "$out"
	fi
	out=$(python3 "$IT_DIR/promcheck.py" "$2" 2>&1)
	rc=$?
	assert_rc "$1: promcheck.py" 0 "$rc"
	assert_eq "$1: promcheck.py complaints" "" "$out"
}

# monitor OUTDIR TIMEOUT_S VERSIONS [DRIVE=STATE] : read the textfile in a
# tight loop, the daemon's status between rounds of reads; stop once
# VERSIONS versions were seen (and one with DRIVE in STATE, when given).
# Each version is saved as OUTDIR/ver.N.prom. Complaints on stdout, exit
# status 1 when any; the last line sums up.
monitor() {
	python3 "$IT_DIR/metrics_monitor.py" "$IT_DIR" "$PROM" "$CTL" "$SOCK" "$SSDT_PID" "$@"
}

# ---------------------------------------------------------------- the daemon

log "two file targets, textfile $PROM"
start_ssdt "$T/run.log" -c "$T/c.conf"
ok=0
for _ in $(seq 1 200); do
	"$CTL" -s "$SOCK" status >/dev/null 2>&1 && { ok=1; break; }
	pid_alive "$SSDT_PID" || break
	sleep 0.05
done
[ "$ok" = 1 ] || { show_file "$T/run.log"; die "the daemon's socket never answered"; }

t0=$(date +%s%3N)
for _ in $(seq 1 440); do
	[ -f "$PROM" ] && break
	pid_alive "$SSDT_PID" || break
	sleep 0.05
done
[ -f "$PROM" ] || { show_file "$T/run.log"; die "no $PROM within 22 s"; }
note "first file after $(awk -v ms="$(($(date +%s%3N) - t0))" 'BEGIN { printf "%.1f", ms / 1000 }') s"
validate "first file" "$PROM"
assert_eq "file mode" 644 "$(stat -c %a "$PROM")"

# three versions (two rewrites) under a tight read loop
mkdir -p "$T/v1"
log "reading the file while the daemon rewrites it"
out=$(monitor "$T/v1" 60 3)
rc=$?
note "$(printf '%s\n' "$out" | tail -n 1)"
printf '%s\n' "$out" | sed '$d'
assert_rc "values, completeness and atomicity" 0 "$rc"
# a stalled main loop shows the file late: the daemon says when it was
[ "$rc" -eq 0 ] || grep -E 'blocked|metrics' "$T/run.log" | tail -n 5 | sed 's/^/  log: /'
reads=$(printf '%s\n' "$out" | awk '$1 == "reads" { print $2 }')
assert_ge "reads of the file" "${reads:-0}" 1000
for f in "$T"/v1/ver.*.prom; do
	[ -f "$f" ] && validate "$(basename "$f")" "$f"
done

# pause a: a version with state="paused" 1 comes within a rewrite or two
log "pause a; the file follows"
"$CTL" -s "$SOCK" pause a >"$T/pause.out" 2>&1
assert_rc "ssdctl pause a" 0 $? "$T/pause.out"
mkdir -p "$T/v2"
out=$(monitor "$T/v2" 40 1 a=paused)
rc=$?
note "$(printf '%s\n' "$out" | tail -n 1)"
printf '%s\n' "$out" | sed '$d'
assert_rc "values after the pause" 0 "$rc"
n=$(find "$T/v2" -name 'ver.*.prom' | wc -l)
last=$T/v2/ver.$n.prom
if [ "$n" -gt 0 ]; then
	validate "after the pause" "$last"
	assert_file_contains "state of a" "$last" \
	    'ssdtorture_state{drive="a",serial="none",model="",state="paused"} 1'
	assert_file_contains "state of b" "$last" \
	    'ssdtorture_state{drive="b",serial="none",model="",state="finished"} 1'
	# no SMART on file targets: no smart_ family at all
	assert_eq "smart families of file targets" 0 \
	    "$(grep -c '^ssdtorture_smart_' "$last")"
fi

# no temp file at any time we look, and none after a stop
left=$(find "$PDIR" -mindepth 1 ! -name ssdtorture.prom)
kill -TERM "$SSDT_PID"
wait_exit "$SSDT_PID" 15
assert_rc "exit after SIGTERM" 0 "$RC" "$T/run.log"
left="$left$(find "$PDIR" -mindepth 1 ! -name ssdtorture.prom)"
assert_eq "files beside the textfile (temp files left)" "" "$left"
[ -f "$PROM" ] && validate "file after the stop" "$PROM"

# ---------------------------------------------------------------- metrics.c alone

log "metrics.c on synthetic drives"
CFLAGS_M=$(pkg-config --cflags json-c libsystemd 2>/dev/null)
LIBS_M=$(pkg-config --libs json-c libxxhash 2>/dev/null)
if ! command -v cc >/dev/null || [ -z "$LIBS_M" ]; then
	note "cc or pkg-config data missing: synthetic part skipped"
	finish
fi
cat >"$T/drv.c" <<'EOF'
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "smart.h"

/* metrics.c needs only these two of a drive. */
struct drive {
	struct drive_status	 st;
	struct smart_summary	 smart;
};

void
drive_status_get(const struct drive *d, struct drive_status *s)
{
	*s = d->st;
}

void
drive_smart_summary(const struct drive *d, struct smart_summary *m)
{
	*m = d->smart;
}

/* Figures of a summary: an integer, a counter, a real. */
#define SI(m, f, x)	((m)->v[f] = (struct smart_sum_val){ 1, SUM_INT, (x), 0, 0 })
#define SC(m, f, x)	((m)->v[f] = (struct smart_sum_val){ 1, SUM_COUNT, 0, (x), 0 })
#define SR(m, f, x)	((m)->v[f] = (struct smart_sum_val){ 1, SUM_REAL, 0, 0, (x) })

int
main(int argc, char **argv)
{
	struct drive	 a, b, c, *v[3] = { &a, &b, &c };
	struct loop_stats loop = { .turns = 1000, .slow = 2,
	    .max_ns = 123456789, .max_cpu_ns = 1000000 };

	memset(&a, 0, sizeof(a));
	b = c = a;
	a.st.name = "a";
	a.st.serial = "S\\N\"1\n2";
	a.st.model = "M\xff\xc0od\xc3\xa9l \xe2\x82\xac";
	a.st.run = RUN_RUNNING;
	a.st.phase = PHASE_VERIFY;
	a.st.phase_progress = 0.1;
	a.st.cycle = 3;
	a.st.cycles_done = 2;
	a.st.host_bytes_written = UINT64_MAX;
	a.st.host_bytes_read = 12345;
	a.st.write_bps = 1.5e9;
	a.st.read_bps = NAN;
	a.st.errors[BLK_CORRUPT] = 7;
	a.st.errors[BLK_IO_ERROR] = 1;
	a.st.errors[BLK_TORN] = 5;
	a.st.capacity = 1ULL << 40;
	a.st.span_bytes = 1ULL << 39;
	/* nand_bytes_written and reallocated unknown */
	a.smart.known = 1;
	SR(&a.smart, FIG_PERCENT_USED, 255.0);
	SI(&a.smart, FIG_SPARE, 5);
	SI(&a.smart, FIG_TEMPERATURE, -3);
	SC(&a.smart, FIG_MEDIA_ERRORS, UINT64_MAX);
	SI(&a.smart, FIG_CRITICAL_WARNING, 4);
	SC(&a.smart, FIG_DEVICE_WRITTEN, 1000);
	SR(&a.smart, FIG_WAF, 1.0000000000000002);
	a.smart.has_thermal = 1;
	a.smart.thermal_transitions[0] = 3;
	a.smart.thermal_transitions[1] = 0;
	a.smart.thermal_seconds[0] = 120;
	a.smart.thermal_seconds[1] = UINT32_MAX;
	/* the OCP C0h log: each figure its own value */
	a.smart.nvme = a.smart.has_ocp = 1;
	for (int k = 0; k < OCP_NCOUNT; k++)
		a.smart.ocp[k] = 1000 + (uint64_t)k;
	a.smart.ocp[OCP_MEDIA_READ] = UINT64_MAX;
	a.smart.ocp[OCP_SYSTEM_USED] = 37;
	a.st.rated_tbw = 600000000000000ULL;
	b.st.name = "b";
	b.st.refused = 1;
	b.st.run = RUN_STOPPED;
	b.st.phase = PHASE_NONE;
	b.st.write_bps = INFINITY;
	b.st.read_bps = -INFINITY;
	c.st.name = "c";
	c.st.serial = "x";
	c.st.model = "y";
	c.st.run = RUN_FAILED;
	c.st.phase = PHASE_IDLE;
	/* a reading with only these two figures (waf unknown) */
	c.smart.known = 1;
	SR(&c.smart, FIG_PERCENT_USED, 3);
	SI(&c.smart, FIG_TEMPERATURE, 40);
	if (metrics_write(argv[1], v, argc > 2 ? (size_t)atoi(argv[2]) : 3,
	    &loop)) {
		printf("%s\n", strerrorname_np(errno));
		return 1;
	}
	return 0;
}
EOF
SRC="$ROOT/daemon/control/metrics.c $ROOT/daemon/engine/block.c $ROOT/daemon/engine/layout.c $ROOT/daemon/records/state.c $ROOT/daemon/records/statedir.c $ROOT/daemon/engine/perm.c $ROOT/common/proto.c $ROOT/daemon/smart/smart_rules.c"
INC_M=(-I"$ROOT/common")
for d in "$ROOT"/daemon "$ROOT"/daemon/*/; do INC_M+=(-I"$d"); done
# shellcheck disable=SC2086
if ! cc -D_GNU_SOURCE "${INC_M[@]}" -std=c11 -Wall -Wextra \
    -Werror -Wshadow $CFLAGS_M -o "$T/drv" "$T/drv.c" $SRC $LIBS_M -lm \
    >"$T/cc.log" 2>&1; then
	fail "the synthetic driver does not build"
	show_file "$T/cc.log"
	finish
fi
mkdir -p "$T/syn"
"$T/drv" "$T/syn/m.prom" >"$T/drv.out" 2>&1
assert_rc "metrics_write on synthetic drives" 0 $? "$T/drv.out"
validate "synthetic" "$T/syn/m.prom"
python3 "$IT_DIR/metrics_synthetic.py" "$IT_DIR" "$T/syn/m.prom" || fail "synthetic values (above)"
assert_file_contains "integers as integers" "$T/syn/m.prom" \
    'ssdtorture_host_written_bytes_total{drive="a",serial="S\\N\"1\n2",model="M'
if grep -q '} 18446744073709551615$' "$T/syn/m.prom"; then pass_check; else
	fail "u64 max not printed as an integer"; fi
if grep -q '^ssdtorture_smart_percentage_used_ratio{drive="a".*} 2.55$' \
    "$T/syn/m.prom"; then pass_check; else
	fail "percentage used not printed as 2.55"; fi
"$T/drv" "$T/syn/empty.prom" 0 >"$T/drv.out" 2>&1
assert_rc "no drives" 0 $? "$T/drv.out"
assert_eq "no drives: no drive's sample" 0 "$(grep -c 'drive=' "$T/syn/empty.prom")"
assert_eq "no drives: the main loop's three samples" \
    "ssdtorture_main_loop_turns_total ssdtorture_main_loop_slow_turns_total ssdtorture_main_loop_longest_turn_seconds" \
    "$(grep -v '^#' "$T/syn/empty.prom" | cut -d' ' -f1 | xargs)"
validate "no drives" "$T/syn/empty.prom"
assert_eq "a missing directory" ENOENT "$("$T/drv" "$T/syn/nodir/m.prom")"
mkdir -p "$T/syn/isdir"
assert_eq "a directory in the way" EISDIR "$("$T/drv" "$T/syn/isdir")"
assert_eq "files left in syn" "empty.prom isdir m.prom" "$(find "$T/syn" -mindepth 1 -maxdepth 1 -printf '%f\n' | sort | xargs)"

finish
