# suite.sh: what the test runners share (tests/integration/run.sh,
# tests/control/run.sh, tests/vm/run.sh): which tests run, one line per
# test (PASS; SKIP for exit status 77, with the reason the test gave to
# skip; FAIL, the test's output below it),
# one count, and a last line "LABEL: N passed, M failed" that
# tests/check.sh adds up. Sourced; bash.
#
#   suite_tests DIR ARG...   SUITE_TESTS: DIR/t_NAME.sh for each ARG (a
#                            name with or without t_ and .sh, or a path),
#                            every DIR/t_*.sh when there is none; a named
#                            test that does not exist is counted failed
#   suite_result NAME RC SECS OUT [VERBOSE]
#                            the test's line and count; OUT (a file: what
#                            the test printed) below a failed test, and
#                            below every test when VERBOSE is set and not 0
#   suite_parallel PREFIX TIMEOUT
#                            run SUITE_TESTS $PREFIX_JOBS at a time
#                            (tests/lib/jobs.sh), each in bash within
#                            $PREFIX_TIMEOUT (default TIMEOUT) seconds; a
#                            sanitizer report fails a test
#                            (tests/lib/sanitize.sh); $PREFIX_VERBOSE as
#                            suite_result's VERBOSE
#   suite_end LABEL [NOTE]   the time the suite took, the count line;
#                            exit status 1 when a test failed
# shellcheck shell=bash

SUITE_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/lib/jobs.sh
. "$SUITE_LIB/jobs.sh"
# shellcheck source=tests/lib/sanitize.sh
SAN_ROOT=${SAN_ROOT:-$(cd "$SUITE_LIB/../.." && pwd)}
. "$SUITE_LIB/sanitize.sh"
# shellcheck source=tests/lib/python.sh
. "$SUITE_LIB/python.sh"

SUITE_PASS=0 SUITE_FAIL=0 SUITE_SKIP=0 SUITE_NAMED=0
SUITE_T0=$(date +%s)
SUITE_TESTS=()

# suite_no_shadow TEST: a function of the test (or of its directory's
# lib.sh) named as a command shadows it for the shared helpers too, which
# then run the test's function (a `cut` once asked for a stray power cut):
# the test fails before it runs.
suite_no_shadow() {
	local f bad=""
	for f in $(sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)() *{.*/\1/p' "$1" \
	    "$(dirname "$1")/lib.sh" 2>/dev/null); do
		type -P "$f" >/dev/null && bad="$bad $f"
	done
	[ -z "$bad" ] && return 0
	echo "FAIL $(basename "$1" .sh) (its function shadows a command:$bad)"
	SUITE_FAIL=$((SUITE_FAIL + 1))
	return 1
}

suite_tests() {
	local dir=$1 a t
	shift
	SUITE_NAMED=$(($# > 0))
	SUITE_TESTS=()
	[ $# -gt 0 ] || set -- "$dir"/t_*.sh
	for a in "$@"; do
		a=$(basename "$a" .sh)
		t=$dir/t_${a#t_}.sh
		if [ -f "$t" ]; then
			suite_no_shadow "$t" && SUITE_TESTS+=("$t")
		else
			echo "FAIL t_${a#t_} (no such test)"
			SUITE_FAIL=$((SUITE_FAIL + 1))
		fi
	done
}

suite_result() {
	local verbose=${5:-0}
	case $2 in
	0)
		echo "PASS $1 (${3}s)"
		SUITE_PASS=$((SUITE_PASS + 1))
		[ -n "$verbose" ] && [ "$verbose" != 0 ] && sed 's/^/    /' "$4"
		;;
	77)
		# the reason: skip's line (tests/lib/assert.sh)
		echo "SKIP $1 (${3}s): $(sed -n 's/^   SKIP  //p' "$4" | head -n 1)"
		SUITE_SKIP=$((SUITE_SKIP + 1))
		;;
	*)
		echo "FAIL $1 (${3}s, exit $2)"
		SUITE_FAIL=$((SUITE_FAIL + 1))
		sed 's/^/    /' "$4"
		;;
	esac
	return 0
}

# _suite_one FILE (jobs_run's START, in the background): its output to
# $SUITE_OUT/NAME
_suite_one() {
	local name rc
	name=$(basename "$1" .sh)
	san_begin || exit 1
	timeout -k 10 "$SUITE_TIMEOUT" bash "$1" </dev/null >"$SUITE_OUT/$name" 2>&1
	rc=$?
	# a report fails the test even when the test itself saw nothing wrong
	if ! san_end "$name" >>"$SUITE_OUT/$name" && { [ $rc -eq 0 ] || [ $rc -eq 77 ]; }; then
		rc=1
	fi
	[ $rc -eq 124 ] && echo "(timed out after ${SUITE_TIMEOUT}s)" >>"$SUITE_OUT/$name"
	exit $rc
}

# _suite_done FILE RC (jobs_run's DONE): its lines, all at once
_suite_done() {
	local name secs
	name=$(basename "$1" .sh)
	secs=$(awk -v n=$(($(date +%s%N) - JOBS_T0[$1])) 'BEGIN { printf "%.1f", n / 1e9 }')
	suite_result "$name" "$2" "$secs" "$SUITE_OUT/$name" "$SUITE_VERBOSE"
	rm -f "$SUITE_OUT/$name"
}

suite_parallel() {
	local v=$1_VERBOSE t=$1_TIMEOUT
	SUITE_VERBOSE=${!v:-0}
	SUITE_TIMEOUT=${!t:-$2}
	SUITE_JOBS=$(jobs_count "$1_JOBS" "$SUITE_NAMED") || return 1
	SUITE_OUT=$(mktemp -d "${TMPDIR:-/tmp}/ssdt-suite.XXXXXX") || return 1
	# shellcheck disable=SC2064
	trap "rm -rf '$SUITE_OUT'" EXIT
	py_direct "$SUITE_OUT/bin"
	[ ${#SUITE_TESTS[@]} -eq 0 ] ||
	    jobs_run "$SUITE_JOBS" _suite_one _suite_done "${SUITE_TESTS[@]}" ||
	    SUITE_FAIL=$((SUITE_FAIL + 1))
}

suite_end() {
	[ $SUITE_SKIP -gt 0 ] && echo "($SUITE_SKIP skipped)"
	echo "($1 suite took $(($(date +%s) - SUITE_T0))s${2:+, $2})"
	echo "$1: $SUITE_PASS passed, $SUITE_FAIL failed"
	[ $SUITE_FAIL -eq 0 ]
}
