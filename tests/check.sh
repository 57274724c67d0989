#!/bin/bash
# make check: unit, integration, control, known-answer (simulated drives),
# Debian package, VM, man page, install and fuzz
# tests, and the unit, integration and control suites on a sanitized build
# (make sanitize); one total line at the end.
# Each stage prints "NAME: N passed, M failed" as its last line.
# The plain unit tests and the package's build run beside the integration
# and control stages, the manual pages, the install and the fuzzers
# beside the guests (beside(), below).
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

# beside STAGE...: in the background, one after the other, each as a
# heavy test of the shared rules (JOBS_SHARED): a test of the suites in
# the foreground that is heavy, timed or serial waits for it, and it for
# them; side_end shows what each printed, whole, and tallies it
beside() {
	side_dir=$(mktemp -d)
	(
		. tests/lib/jobs.sh
		for s; do
			jobs_hold "check-$s" heavy make --no-print-directory \
			    "$s" >"$side_dir/$s" 2>&1
		done
	) &
	side_pid=$!
	side_stages=("$@")
}
side_end() {
	local s
	wait "$side_pid"
	for s in "${side_stages[@]}"; do
		cat "$side_dir/$s"
		tally "$s" "$side_dir/$s"
	done
	rm -rf "$side_dir"
}

JOBS_SHARED=$(mktemp -d) || exit 1
trap 'rm -rf "$JOBS_SHARED" "$fails"' EXIT
JOBS_SHARED_MAX=${CHECK_JOBS:-2}
export JOBS_SHARED JOBS_SHARED_MAX
san_out=$(mktemp)
make --no-print-directory sanitize >"$san_out" 2>&1 &
san_pid=$!
# package-test builds the package the guest's t_package installs (in a
# copy of the tree: the build shares nothing with the suites)
beside unit package-test
stage integration control
wait "$san_pid"
cat "$san_out"
tally sanitize "$san_out"
side_end
rm -rf "$san_out"
# the known answers measure speeds: alone, after the suites beside them
unset JOBS_SHARED_MAX
stage known
export PKG_BUILT=1
# the guests two at a time, and beside them the pages, the install and
# the fuzzers (a guest test marked serial waits for them)
JOBS_SHARED_MAX=$((${VM_JOBS:-2} + 1))
export JOBS_SHARED_MAX
beside man install-test fuzz-smoke
stage vm
side_end
rm -rf "$JOBS_SHARED"
unset JOBS_SHARED JOBS_SHARED_MAX
[ ! -s "$fails" ] || { echo "failed:"; sed 's/^/  /' "$fails"; }
echo "check: $total_pass passed, $total_fail failed"
exit $status
