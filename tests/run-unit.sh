#!/bin/sh
# Run every cmocka unit test binary; print a one-line total of test cases.
# A sanitizer report from a binary (tests/lib/sanitize.sh) counts as one
# more failure, unless its crash was counted already.
SAN_ROOT=$(cd "$(dirname "$0")/.." && pwd)
. "$SAN_ROOT/tests/lib/sanitize.sh"
pass=0; fail=0
for t in "$@"; do
	san_begin || exit 1
	out=$("$t" 2>&1); rc=$?
	printf '%s\n' "$out" | grep -E '^\[  (PASSED|FAILED)  \]|^\[  ERROR   \]' | sed "s|^|$(basename "$t"): |"
	p=$(printf '%s\n' "$out" | sed -nE 's/^\[  PASSED  \] ([0-9]+) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -nE 's/^\[  FAILED  \] ([0-9]+) test.*/\1/p' | tail -n 1)
	pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
	crashed=0
	if [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
		fail=$((fail + 1)); crashed=1; printf '%s\n' "$out" | tail -n 20
	fi
	if ! san_end "$(basename "$t")" && [ "$crashed" -eq 0 ]; then
		fail=$((fail + 1))
	fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
