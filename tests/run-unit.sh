#!/bin/sh
# Run every cmocka unit test binary; print a one-line total of test cases.
pass=0; fail=0
for t in "$@"; do
	out=$("$t" 2>&1); rc=$?
	printf '%s\n' "$out" | grep -E '^\[  (PASSED|FAILED)  \]|^\[  ERROR   \]' | sed "s|^|$(basename "$t"): |"
	p=$(printf '%s\n' "$out" | sed -nE 's/^\[  PASSED  \] ([0-9]+) test.*/\1/p' | tail -n 1)
	f=$(printf '%s\n' "$out" | sed -nE 's/^\[  FAILED  \] ([0-9]+) test.*/\1/p' | tail -n 1)
	pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
	if [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
		fail=$((fail + 1)); printf '%s\n' "$out" | tail -n 20
	fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
