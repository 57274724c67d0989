# assert.sh: the checks every shell test uses (integration, control and
# guest tests: their lib.sh sources this). A failed check is counted and
# the test goes on; `finish` ends the test, status 0 only when every check
# held. Sourced; bash.
#
# Output, one line each (tests/vm/run.sh greps the guest console for the
# "== ", FAIL, FATAL and NOTE lines; tests/lib/suite.sh for the SKIP one):
#   == NAME: TEXT              log, and finish's summary
#      ok    WHAT              a check that held (only when ASSERT_VERBOSE
#                              is set and not 0, and there is a WHAT)
#      FAIL  WHAT: WHY         a check that failed
#      FATAL WHY               die
#      SKIP  WHY               skip
#      NOTE  TEXT              note
#      ---- last lines of F    show_file, then F's lines after "   | "
#
#   pass_check [WHAT] / fail WHAT   count one check that held / failed
#   check WHAT COMMAND...           the command succeeds
#   assert_eq WHAT EXPECTED ACTUAL  the same string (assert_ne: not)
#   assert_ge|gt|le|lt WHAT A B     A op B, integers of any size
#   assert_contains WHAT TEXT STR   STR (fixed) in TEXT (assert_not_contains)
#   assert_match WHAT ERE TEXT      a line of TEXT matches (assert_nomatch)
#   assert_file_contains WHAT FILE STR
#   assert_rc WHAT EXPECTED ACTUAL [OUTPUT]
#                                   exit status; OUTPUT (a file's tail, or
#                                   else the text itself) when it differs
#   die WHY / skip WHY              end now: status 1 / 77
#   finish                          the summary; status 0 or 1
# ASSERT_LOG: a file (the daemon's log) whose last lines die and a failed
# finish show.
# shellcheck shell=bash

TEST_NAME=${TEST_NAME:-$(basename "$0" .sh)}
ASSERT_VERBOSE=${ASSERT_VERBOSE:-0}
ASSERT_LOG=${ASSERT_LOG:-}
CHECKS=0
FAILS=0

# ---------------------------------------------------------------- output

log() { printf '== %s: %s\n' "$TEST_NAME" "$*"; }
note() { printf '   NOTE  %s\n' "$*"; }

# show_file FILE [LINES]: the last lines of a file (25 by default)
show_file() {
	[ -f "$1" ] || return 0
	printf '   ---- last lines of %s\n' "$1"
	tail -n "${2:-25}" "$1" | sed 's/^/   | /'
}

_assert_show_log() {
	[ -n "$ASSERT_LOG" ] && [ -s "$ASSERT_LOG" ] && show_file "$ASSERT_LOG"
	return 0
}

pass_check() {
	CHECKS=$((CHECKS + 1))
	if [ $# -gt 0 ] && [ -n "$ASSERT_VERBOSE" ] && [ "$ASSERT_VERBOSE" != 0 ]; then
		printf '   ok    %s\n' "$*"
	fi
	return 0
}

fail() {
	FAILS=$((FAILS + 1))
	printf '   FAIL  %s\n' "$*"
	return 0
}

# Give up now: a setup problem, or a failure that makes the rest pointless.
die() {
	FAILS=$((FAILS + 1))
	printf '   FATAL %s\n' "$*"
	_assert_show_log
	exit 1
}

skip() {
	printf '   SKIP  %s\n' "$*"
	exit 77
}

finish() {
	if [ "$FAILS" -gt 0 ]; then
		log "$FAILS check(s) failed, $CHECKS passed"
		_assert_show_log
		exit 1
	fi
	log "all $CHECKS checks passed"
	exit 0
}

# ---------------------------------------------------------------- checks

check() {
	local what=$1
	shift
	if "$@"; then pass_check "$what"; else fail "$what"; fi
}

assert_eq() {
	if [ "$2" = "$3" ]; then pass_check "$1: $3"; else
		fail "$1: expected '$2', got '$3'"; fi
}

assert_ne() {
	if [ "$2" != "$3" ]; then pass_check "$1: $3"; else
		fail "$1: expected anything but '$2'"; fi
}

# _int_norm N: N without blanks around it, a leading + or leading zeros
# ("-0" is 0); status 1 when N is no decimal integer
_int_norm() {
	local n=$1 sign=
	n=${n#"${n%%[![:space:]]*}"}
	n=${n%"${n##*[![:space:]]}"}
	case $n in
	-*) sign=- n=${n#-} ;;
	+*) n=${n#+} ;;
	esac
	[[ $n =~ ^0*([1-9][0-9]*|0)$ ]] || return 1
	n=${BASH_REMATCH[1]}
	[ "$n" = 0 ] && sign=
	echo "$sign$n"
}

# _int_cmp A B: prints -1, 0 or 1; status 1 when either is no integer.
# Compared as digit strings: 64-bit counters and unsigned ids overflow
# bash's arithmetic.
_int_cmp() {
	local a b r
	a=$(_int_norm "$1") && b=$(_int_norm "$2") || return 1
	if [ "${a:0:1}" = - ] && [ "${b:0:1}" != - ]; then echo -1; return 0; fi
	if [ "${a:0:1}" != - ] && [ "${b:0:1}" = - ]; then echo 1; return 0; fi
	if [ ${#a} -ne ${#b} ]; then
		r=$(( ${#a} < ${#b} ? -1 : 1 ))
	elif [ "$a" = "$b" ]; then
		r=0
	elif [[ $a < $b ]]; then
		r=-1
	else
		r=1
	fi
	# both negative: the longer or larger digit string is the smaller
	[ "${a:0:1}" = - ] && r=$((-r))
	echo "$r"
}

# _assert_num WHAT A OP B ALLOWED...: A OP B when _int_cmp is one of
# ALLOWED
_assert_num() {
	local what=$1 a=$2 op=$3 b=$4 c
	shift 4
	if c=$(_int_cmp "$a" "$b") && [[ " $* " == *" $c "* ]]; then
		pass_check "$what: $a $op $b"
	else
		fail "$what: $a is not $op $b"
	fi
}

assert_ge() { _assert_num "$1" "$2" '>=' "$3" 0 1; }
assert_gt() { _assert_num "$1" "$2" '>' "$3" 1; }
assert_le() { _assert_num "$1" "$2" '<=' "$3" -1 0; }
assert_lt() { _assert_num "$1" "$2" '<' "$3" -1; }

# assert_within WHAT VALUE REF PCT: VALUE (a decimal number) is within PCT
# percent of REF (> 0).
assert_within() {
	if awk -v v="$2" -v r="$3" -v p="$4" 'BEGIN {
	    ok = v ~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/ && r > 0 &&
	        (v - r <= r * p / 100) && (r - v <= r * p / 100)
	    exit !ok }'; then
		pass_check "$1: $2 within $4 % of $3"
	else
		fail "$1: $2 is not within $4 % of $3"
	fi
}

assert_contains() {
	if printf '%s' "$2" | grep -qF -- "$3"; then pass_check "$1: has '$3'"; else
		fail "$1: '$3' not found in: $(printf '%s' "$2" | head -c 2000)"; fi
}

assert_not_contains() {
	if printf '%s' "$2" | grep -qF -- "$3"; then
		fail "$1: '$3' unexpectedly found"; else pass_check "$1"; fi
}

assert_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then pass_check "$1"; else
		fail "$1: /$2/ not found in: $(printf '%s' "$3" | head -c 600)"
	fi
}

assert_nomatch() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		fail "$1: /$2/ unexpectedly found in: $(printf '%s' "$3" |
		    head -c 600)"
	else pass_check "$1"; fi
}

assert_file_contains() {
	if grep -qF -- "$3" "$2" 2>/dev/null; then pass_check "$1"; else
		fail "$1: '$3' not in $2"; show_file "$2"; fi
}

assert_rc() {
	if [ "$2" = "$3" ]; then pass_check "$1: exit $3"; return 0; fi
	fail "$1: exit status $3, expected $2"
	[ $# -ge 4 ] || return 0
	if [ -f "$4" ]; then
		show_file "$4"
	else
		printf '         output: %s\n' "$(printf '%s' "$4" | head -c 400)"
	fi
	return 0
}
