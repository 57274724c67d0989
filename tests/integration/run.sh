#!/bin/bash
# Run every integration test (t_*.sh here, in name order, or the ones named
# on the command line); print PASS/FAIL/SKIP per test, the output of the
# failed ones, and one total line. Exit status 1 when any test failed.
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

pass=0 failn=0 skipn=0
out=$(mktemp "${TMPDIR:-/tmp}/ssdt-it-run.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT

if [ $# -gt 0 ]; then
	tests=()
	for a in "$@"; do
		a=$(basename "$a" .sh)
		tests+=("$DIR/t_${a#t_}.sh")
	done
else
	tests=("$DIR"/t_*.sh)
fi

t_start=$(date +%s)
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	if [ ! -f "$t" ]; then
		echo "FAIL $name (no such test)"
		failn=$((failn + 1))
		continue
	fi
	t0=$(date +%s)
	san_begin || exit 1
	timeout -k 10 "${IT_TIMEOUT:-300}" bash "$t" </dev/null >"$out" 2>&1
	rc=$?
	# a report fails the test even when the test itself saw nothing wrong
	if ! san_end "$name" >>"$out" && { [ $rc -eq 0 ] || [ $rc -eq 77 ]; }; then
		rc=1
	fi
	secs=$(($(date +%s) - t0))
	case $rc in
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
		[ $rc -eq 124 ] && echo "    (timed out after ${IT_TIMEOUT:-300}s)"
		echo "FAIL $name (${secs}s, exit $rc)"
		failn=$((failn + 1))
		sed 's/^/    /' "$out"
		;;
	esac
done
[ $skipn -gt 0 ] && echo "($skipn skipped)"
echo "(integration suite took $(($(date +%s) - t_start))s)"
echo "integration: $pass passed, $failn failed"
[ $failn -eq 0 ]
