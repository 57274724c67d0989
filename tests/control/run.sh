#!/bin/bash
# run.sh: run the control-plane tests (t_*.sh here, or those named as
# arguments), print PASS/FAIL per test (the output of a failed one below
# it), and end with exactly one line "control: N passed, M failed".
# Exit status 0 when all passed. CT_VERBOSE=1 shows every test's output
# (and every check); CT_KEEP=1 keeps the temporary directories.
#
# The daemon and ssdctl must be built (make all; `make control` does both).
# Root is needed (t_permissions makes a user; the daemon uses O_DIRECT).
# A sanitizer report from any process of a test (tests/lib/sanitize.sh)
# fails the test and is printed.
cd "$(dirname "$0")" || exit 1
# shellcheck source=tests/lib/sanitize.sh
SAN_ROOT=$(cd ../.. && pwd)
. "$SAN_ROOT/tests/lib/sanitize.sh"
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

pass=0
failed=0
start=$(date +%s)
for t in "${tests[@]}"; do
	name=${t%.sh}
	if [ ! -f "$t" ]; then
		echo "FAIL $name (no such test)"
		failed=$((failed + 1))
		continue
	fi
	out=$(mktemp)
	t0=$(date +%s%N)
	san_begin || exit 1
	timeout -k 10 "$PER_TEST_TIMEOUT" bash "$t" >"$out" 2>&1
	rc=$?
	# a report fails the test even when the test itself saw nothing wrong
	if ! san_end "$name" >>"$out" && [ "$rc" -eq 0 ]; then
		rc=1
	fi
	secs=$(awk -v n=$(( $(date +%s%N) - t0 )) 'BEGIN { printf "%.1f", n / 1e9 }')
	if [ "$rc" -eq 0 ]; then
		echo "PASS $name (${secs}s)"
		pass=$((pass + 1))
		[ -n "${CT_VERBOSE:-}" ] && sed 's/^/    /' "$out"
	else
		[ "$rc" -eq 124 ] && echo "    (timed out after ${PER_TEST_TIMEOUT}s)" >>"$out"
		echo "FAIL $name (${secs}s, exit $rc)"
		failed=$((failed + 1))
		sed 's/^/    /' "$out"
	fi
	rm -f "$out"
done
echo "    (control tests took $(( $(date +%s) - start ))s)"
echo "control: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
