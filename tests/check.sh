#!/bin/sh
# make check: unit, integration, control, VM, man page, install and fuzz
# tests, then the unit, integration and control suites on a sanitized build
# (make sanitize); one total line at the end.
# Each stage prints "NAME: N passed, M failed" as its last line.
cd "$(dirname "$0")/.." || exit 1
total_pass=0
total_fail=0
status=0
for stage in unit integration control vm man install-test fuzz-smoke \
    sanitize; do
	out=$(mktemp)
	make --no-print-directory "$stage" 2>&1 | tee "$out"
	line=$(grep -E "^${stage%-smoke}: [0-9]+ passed, [0-9]+ failed" "$out" | tail -n 1)
	rm -f "$out"
	if [ -z "$line" ]; then
		echo "$stage: did not report a result"
		total_fail=$((total_fail + 1))
		status=1
		continue
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	[ "$f" -eq 0 ] || status=1
done
echo "check: $total_pass passed, $total_fail failed"
exit $status
