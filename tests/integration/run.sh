#!/bin/bash
# Run every integration test (t_*.sh here, in name order, or the ones named
# on the command line); print PASS/FAIL/SKIP per test, the output of the
# failed ones, and one total line. Exit status 1 when any test failed.
#   IT_JOBS     tests at once (default 2; 1 when tests are named): see
#               tests/lib/jobs.sh, and its "# run:" header lines
#   IT_TIMEOUT  seconds one test may take (default 300)
#   IT_VERBOSE  1: print every test's output, not only the failures'
# A sanitizer report from any process of a test (tests/lib/sanitize.sh)
# fails the test and is printed.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
cd "$DIR" || exit 1
# shellcheck source=tests/lib/sanitize.sh
SAN_ROOT=$(cd "$DIR/../.." && pwd)
. "$SAN_ROOT/tests/lib/sanitize.sh"
# shellcheck source=tests/lib/jobs.sh
. "$SAN_ROOT/tests/lib/jobs.sh"
# shellcheck source=tests/lib/python.sh
. "$SAN_ROOT/tests/lib/python.sh"

pass=0 failn=0 skipn=0
outdir=$(mktemp -d "${TMPDIR:-/tmp}/ssdt-it-run.XXXXXX") || exit 1
trap 'rm -rf "$outdir"' EXIT
py_direct "$outdir/bin"

if [ $# -gt 0 ]; then
	tests=()
	for a in "$@"; do
		a=$(basename "$a" .sh)
		tests+=("$DIR/t_${a#t_}.sh")
	done
else
	tests=("$DIR"/t_*.sh)
fi
njobs=$(jobs_count IT_JOBS $(($# > 0))) || exit 1

# one_test FILE (in the background): its output to $outdir/NAME; a report
# fails the test even when the test itself saw nothing wrong
one_test() {
	local name rc
	name=$(basename "$1" .sh)
	san_begin || exit 1
	timeout -k 10 "${IT_TIMEOUT:-300}" bash "$1" </dev/null >"$outdir/$name" 2>&1
	rc=$?
	if ! san_end "$name" >>"$outdir/$name" && { [ $rc -eq 0 ] || [ $rc -eq 77 ]; }; then
		rc=1
	fi
	exit $rc
}

# test_done FILE RC: its lines, all at once
test_done() {
	local name secs out
	name=$(basename "$1" .sh)
	out=$outdir/$name
	secs=$((($(date +%s%N) - JOBS_T0[$1]) / 1000000000))
	case $2 in
	0)
		echo "PASS $name (${secs}s)"
		pass=$((pass + 1))
		[ "${IT_VERBOSE:-0}" = 1 ] && sed 's/^/    /' "$out"
		;;
	77)
		echo "SKIP $name (${secs}s): $(grep -m1 'SKIP' "$out" | sed 's/^ *SKIP: //')"
		skipn=$((skipn + 1))
		;;
	*)
		[ "$2" -eq 124 ] && echo "    (timed out after ${IT_TIMEOUT:-300}s)"
		echo "FAIL $name (${secs}s, exit $2)"
		failn=$((failn + 1))
		sed 's/^/    /' "$out"
		;;
	esac
	rm -f "$out"
}

t_start=$(date +%s)
run=()
for t in "${tests[@]}"; do
	if [ -f "$t" ]; then
		run+=("$t")
	else
		echo "FAIL $(basename "$t" .sh) (no such test)"
		failn=$((failn + 1))
	fi
done
[ ${#run[@]} -eq 0 ] || jobs_run "$njobs" one_test test_done "${run[@]}" ||
    failn=$((failn + 1))
[ $skipn -gt 0 ] && echo "($skipn skipped)"
echo "(integration suite took $(($(date +%s) - t_start))s, $njobs at a time)"
echo "integration: $pass passed, $failn failed"
[ $failn -eq 0 ]
