#!/bin/bash
# make check: unit, integration, control, known-answer (simulated drives),
# Debian package, VM, man page, install and fuzz
# tests, and the unit, integration and control suites on a sanitized build
# (make sanitize); one total line at the end.
# Each stage prints "NAME: N passed, M failed" as its last line.
#
# The sanitized suites run beside the integration and control stages: the
# runners share one set of rules (JOBS_SHARED in tests/lib/jobs.sh), so a
# heavy test of one never runs beside a heavy or timed test of the other,
# and at most CHECK_JOBS tests (default 2) run at once between them. What
# the sanitized suites print comes after the other two stages, whole.
cd "$(dirname "$0")/.." || exit 1
total_pass=0
total_fail=0
status=0
# the FAIL lines of every stage, repeated at the end where a log's tail shows them
fails=$(mktemp) || exit 1

# tally STAGE FILE: add the count line of STAGE's output in FILE
tally() {
	local line p f
	line=$(grep -E "^${1%-smoke}: [0-9]+ passed, [0-9]+ failed" "$2" | tail -n 1)
	if [ -z "$line" ]; then
		echo "$1: did not report a result"
		total_fail=$((total_fail + 1))
		status=1
		return
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	[ "$f" -eq 0 ] || status=1
	grep -E "^FAIL|\[  (FAILED|ERROR)  +\]" "$2" | sed "s/^/$1: /" >>"$fails"
}

# stage NAME...: each make target in turn, shown as it runs
stage() {
	local s out
	for s in "$@"; do
		out=$(mktemp)
		make --no-print-directory "$s" 2>&1 | tee "$out"
		tally "$s" "$out"
		rm -f "$out"
	done
}

stage unit
JOBS_SHARED=$(mktemp -d) || exit 1
trap 'rm -rf "$JOBS_SHARED" "$fails"' EXIT
JOBS_SHARED_MAX=${CHECK_JOBS:-2}
export JOBS_SHARED JOBS_SHARED_MAX
san_out=$(mktemp)
make --no-print-directory sanitize >"$san_out" 2>&1 &
san_pid=$!
stage integration control
wait "$san_pid"
cat "$san_out"
tally sanitize "$san_out"
rm -rf "$san_out" "$JOBS_SHARED"
unset JOBS_SHARED JOBS_SHARED_MAX
# the known answers measure speeds: alone, after the suites beside them
# package-test builds the package the guest's t_package installs
stage known package-test
export PKG_BUILT=1
stage vm man install-test fuzz-smoke
[ ! -s "$fails" ] || { echo "failed:"; sed 's/^/  /' "$fails"; }
echo "check: $total_pass passed, $total_fail failed"
exit $status
