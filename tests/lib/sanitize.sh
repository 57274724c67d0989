# sanitize.sh: sanitizer options and reports for the test runners
# (tests/run-unit.sh, tests/integration/run.sh, tests/control/run.sh).
# Sourced; POSIX sh. A binary built without sanitizers ignores all of it.
#
#   san_begin      before a test: a fresh report directory, and
#                  ASAN_OPTIONS/UBSAN_OPTIONS (exported) that send every
#                  report of every process the test starts there
#   san_end NAME   after it: print the reports; status 1 when any is an
#                  error (AddressSanitizer, LeakSanitizer, runtime error)
#
# Options already in the environment come after ours, so they win.
# Leaks are checked: LeakSanitizer stops the world with ptrace, which works
# here as root; a daemon killed with SIGKILL is simply not checked. Leaks
# inside libraries are suppressed in tests/sanitize/lsan.supp. Stacks are
# unwound the fast way: fast_unwind_on_malloc=0 would reach through libc
# and the libraries (no frame pointers) but makes every allocation so slow
# that the daemon misses the latency bounds of tests/control/t_limits.

SAN_ENV_ASAN=${ASAN_OPTIONS:-}
SAN_ENV_UBSAN=${UBSAN_OPTIONS:-}
SAN_ENV_LSAN=${LSAN_OPTIONS:-}
SAN_SUPP=${SAN_ROOT:?set SAN_ROOT to the top of the tree before sourcing}/tests/sanitize/lsan.supp
SAN_LOGDIR=
# what makes a report an error (the rest, e.g. warnings, is only shown)
SAN_ERROR_RE='ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)|runtime error:'

san_begin() {
	SAN_LOGDIR=$(mktemp -d "${TMPDIR:-/tmp}/ssdt-san.XXXXXX") || return 1
	# processes that a test runs as another user report here too
	chmod 1777 "$SAN_LOGDIR"
	# the same log_path in both: with both sanitizers linked in, the last
	# one read decides for the whole process. abort_on_error: a report
	# also ends the process with SIGABRT, whatever exit status it meant
	ASAN_OPTIONS="abort_on_error=1:detect_leaks=1:log_path=$SAN_LOGDIR/san${SAN_ENV_ASAN:+:$SAN_ENV_ASAN}"
	UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$SAN_LOGDIR/san${SAN_ENV_UBSAN:+:$SAN_ENV_UBSAN}"
	LSAN_OPTIONS="suppressions=$SAN_SUPP:print_suppressions=0${SAN_ENV_LSAN:+:$SAN_ENV_LSAN}"
	export ASAN_OPTIONS UBSAN_OPTIONS LSAN_OPTIONS
}

# the first SAN_SHOW reports of a test in full, the rest by their summary
# (a test that starts the daemon ten times would repeat one leak ten times)
SAN_SHOW=${SAN_SHOW:-3}

_san_restore() {	# NAME VALUE: VALUE, or unset when empty
	if [ -n "$2" ]; then export "$1=$2"; else unset "$1"; fi
}

san_end() {
	_san_rc=0
	_san_n=0
	[ -n "$SAN_LOGDIR" ] || return 0
	for _san_f in "$SAN_LOGDIR"/*; do
		[ -s "$_san_f" ] || continue
		_san_what=output
		if grep -Eq "$SAN_ERROR_RE" "$_san_f"; then
			_san_what=report
			_san_rc=1
		fi
		_san_n=$((_san_n + 1))
		echo "    $1: sanitizer $_san_what (${_san_f##*/}):"
		if [ "$_san_n" -le "$SAN_SHOW" ]; then
			sed 's/^/    | /' "$_san_f"
		else
			grep -E "$SAN_ERROR_RE|^SUMMARY" "$_san_f" | sed 's/^/    | /'
		fi
	done
	rm -rf "$SAN_LOGDIR"
	SAN_LOGDIR=
	# the environment as it was: what runs next must not report here
	_san_restore ASAN_OPTIONS "$SAN_ENV_ASAN"
	_san_restore UBSAN_OPTIONS "$SAN_ENV_UBSAN"
	_san_restore LSAN_OPTIONS "$SAN_ENV_LSAN"
	return "$_san_rc"
}
