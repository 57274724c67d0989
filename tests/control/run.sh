#!/bin/bash
# run.sh: run the control-plane tests (t_*.sh here, or those named as
# arguments), print PASS/FAIL per test (the output of a failed one below
# it), and end with exactly one line "control: N passed, M failed".
# Exit status 0 when all passed. CT_VERBOSE=1 shows every test's output
# (and every check); CT_KEEP=1 keeps the temporary directories. CT_JOBS:
# tests at once (default 2; 1 when tests are named): see tests/lib/jobs.sh,
# and its "# run:" header lines.
#
# The daemon and ssdctl must be built (make all; `make control` does both).
# Root is needed (t_permissions makes a user; the daemon uses O_DIRECT).
# A sanitizer report from any process of a test (tests/lib/sanitize.sh)
# fails the test and is printed.
cd "$(dirname "$0")" || exit 1
# shellcheck source=tests/lib/sanitize.sh
SAN_ROOT=$(cd ../.. && pwd)
. "$SAN_ROOT/tests/lib/sanitize.sh"
# shellcheck source=tests/lib/jobs.sh
. "$SAN_ROOT/tests/lib/jobs.sh"
# shellcheck source=tests/lib/python.sh
. "$SAN_ROOT/tests/lib/python.sh"
PER_TEST_TIMEOUT=${CT_TIMEOUT:-150}

if [ $# -gt 0 ]; then
	tests=()
	for t in "$@"; do
		t=${t%.sh}
		t=${t#t_}
		tests+=("t_$t.sh")
	done
else
	tests=(t_*.sh)
fi
njobs=$(jobs_count CT_JOBS $(($# > 0))) || exit 1
outdir=$(mktemp -d) || exit 1
trap 'rm -rf "$outdir"' EXIT
py_direct "$outdir/bin"

# one_test FILE (in the background): its output to $outdir/NAME; a report
# fails the test even when the test itself saw nothing wrong
one_test() {
	local name=${1%.sh} rc
	san_begin || exit 1
	timeout -k 10 "$PER_TEST_TIMEOUT" bash "$1" </dev/null >"$outdir/$name" 2>&1
	rc=$?
	if ! san_end "$name" >>"$outdir/$name" && [ "$rc" -eq 0 ]; then
		rc=1
	fi
	[ "$rc" -eq 124 ] &&
	    echo "    (timed out after ${PER_TEST_TIMEOUT}s)" >>"$outdir/$name"
	exit "$rc"
}

# test_done FILE RC: its lines, all at once
test_done() {
	local name=${1%.sh} secs out
	out=$outdir/$name
	secs=$(awk -v n=$(( $(date +%s%N) - JOBS_T0[$1] )) 'BEGIN { printf "%.1f", n / 1e9 }')
	if [ "$2" -eq 0 ]; then
		echo "PASS $name (${secs}s)"
		pass=$((pass + 1))
		[ -n "${CT_VERBOSE:-}" ] && sed 's/^/    /' "$out"
	else
		echo "FAIL $name (${secs}s, exit $2)"
		failed=$((failed + 1))
		sed 's/^/    /' "$out"
	fi
	rm -f "$out"
}

pass=0
failed=0
start=$(date +%s)
run=()
for t in "${tests[@]}"; do
	if [ -f "$t" ]; then
		run+=("$t")
	else
		echo "FAIL ${t%.sh} (no such test)"
		failed=$((failed + 1))
	fi
done
[ ${#run[@]} -eq 0 ] || jobs_run "$njobs" one_test test_done "${run[@]}" ||
    failed=$((failed + 1))
echo "    (control tests took $(( $(date +%s) - start ))s, $njobs at a time)"
echo "control: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
