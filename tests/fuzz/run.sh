#!/bin/bash
# tests/fuzz/run.sh SECONDS [NAME...]: run each libFuzzer target
# tests/fuzz/fuzz_NAME for SECONDS (default 20) from its seeds in
# tests/fuzz/corpus/NAME/, FUZZ_JOBS at a time (default: one per core);
# without names, every target built. New inputs go to a scratch corpus;
# the seeds stay. An input that crashes, leaks or times out is kept in
# tests/fuzz/crashes/NAME/ and fails the target.
# The last line is "fuzz: N passed, M failed".
dir=$(cd "$(dirname "$0")" && pwd)
secs=${1:-20}
[ $# -gt 0 ] && shift
if [ $# -eq 0 ]; then
	for bin in "$dir"/fuzz_*; do
		[ -x "$bin" ] && set -- "$@" "${bin##*/fuzz_}"
	done
fi
work=$(mktemp -d)
# targets that write files do so here (tmpfs), gone also after a crash
FUZZ_SCRATCH=$(mktemp -d /dev/shm/ssdt-fuzz.XXXXXX) || exit 1
export FUZZ_SCRATCH
trap 'rm -rf "$work" "$FUZZ_SCRATCH"' EXIT

# one NAME: run the target; its lines to $work/NAME.out, status 0 or 1
one() {
	name=$1
	bin="$dir/fuzz_$name"
	seeds="$dir/corpus/$name"
	out="$work/$name"
	mkdir -p "$out/corpus" "$out/artifacts"
	if [ ! -x "$bin" ] || [ ! -d "$seeds" ]; then
		echo "fuzz_$name: missing $bin or $seeds"
		return 1
	fi
	if "$bin" -max_total_time="$secs" -max_len=70000 -timeout=10 \
	    -print_final_stats=1 -artifact_prefix="$out/artifacts/" \
	    "$out/corpus" "$seeds" >"$out/log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/log")
		echo "fuzz_$name: ok, $runs runs in ${secs}s"
		return 0
	fi
	tail -n 40 "$out/log"
	mkdir -p "$dir/crashes/$name"
	cp "$out"/artifacts/* "$dir/crashes/$name/" 2>/dev/null
	echo "fuzz_$name: FAILED; inputs kept in $dir/crashes/$name/" \
	    "(replay: $bin FILE)"
	return 1
}

# a target per core at once (each is one process, one thread)
jobs=${FUZZ_JOBS:-$(nproc)}
running=0
for name in "$@"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	( one "$name" >"$work/$name.out" 2>&1; echo $? >"$work/$name.rc" ) &
	running=$((running + 1))
done
wait
pass=0
fail=0
for name in "$@"; do
	cat "$work/$name.out"
	if [ "$(cat "$work/$name.rc")" = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
