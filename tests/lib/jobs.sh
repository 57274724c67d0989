# jobs.sh: run the tests of a suite a few at a time, for the runners
# tests/integration/run.sh and tests/control/run.sh. Sourced; bash.
#
# Most of these tests spend their time waiting (a daemon that runs for a
# while, a state file polled), so two at once take about half the time.
# Each test keeps to its own temporary directory, loop devices, mounts and
# daemons; what a test cannot share it says in a line of its opening
# comment block of the form "# run: WORD...":
#   serial   runs alone: nothing else while it runs
#   heavy    keeps the CPU or the disk busy: never beside another heavy
#            test nor a timed one
#   timed    asserts wall-clock bounds (an exit within 5 s, an answer
#            within 1 s) that a busy machine could break
#
#   jobs_hold NAME TAGS COMMAND...
#                         COMMAND as if it were a test (below)
#   jobs_count VAR NAMED  the number of tests at once: $VAR when set, else
#                         1 when tests were NAMED (1) on the command line,
#                         else JOBS_DEFAULT
#   jobs_run N START DONE FILE...
#                         START FILE runs in a background subshell, one per
#                         test, never more than N at once nor two whose
#                         tags conflict; its exit status is the test's.
#                         DONE FILE RC runs in the caller's shell as each
#                         test ends (in the order they end), so that each
#                         test's report comes out whole. JOBS_T0[FILE] is
#                         when FILE started (date +%s%N).
# With N = 1 the tests run one after the other in the order given.
#
# Runners started side by side (tests/check.sh runs the plain and the
# sanitized suites at once) keep the same rules between them when
# JOBS_SHARED names a directory they all see: each running test is a file
# there (its runner's pid and name; its tags inside), claimed and checked
# under a lock, and JOBS_SHARED_MAX (when set) bounds the tests at once
# across all of them. A runner that has to wait for another's test looks
# again every second.

JOBS_DEFAULT=2

jobs_count() {
	local v=${!1:-}
	if [ -n "$v" ]; then
		case $v in
		*[!0-9]* | 0) echo "$1=$v: not a positive number" >&2; return 1 ;;
		esac
		echo "$v"
	elif [ "$2" = 1 ]; then
		echo 1
	else
		echo "$JOBS_DEFAULT"
	fi
}

# _jobs_tags FILE: the words after "# run:" in its opening comments
_jobs_tags() {
	[ -f "$1" ] || return 0
	awk 'NR > 1 && !/^#/ { exit } sub(/^# run: */, "") { printf "%s ", $0 }' "$1"
}

# _jobs_has TAGS WORD
_jobs_has() { case " $1 " in *" $2 "*) return 0 ;; esac; return 1; }

# _jobs_clash TAGS_A TAGS_B: may not run at the same time
_jobs_clash() {
	_jobs_has "$1" serial || _jobs_has "$2" serial && return 0
	_jobs_has "$1" heavy && { _jobs_has "$2" heavy || _jobs_has "$2" timed; } &&
	    return 0
	_jobs_has "$2" heavy && _jobs_has "$1" timed && return 0
	return 1
}

# _jobs_claim FILE TAGS: with JOBS_SHARED, whether FILE may start beside
# what every runner has running; if so it is recorded there as running
# (status 0, else 1). A runner held back waits its turn in a file $$.want
# (a ticket from a shared counter, the name and tags of what waits); until
# that test starts, no runner starts a test that would clash with it, and
# the others leave it the places it needs, so that a runner that looks
# again only each second is not always too late. The oldest want waits
# for running tests alone, and they end.
_jobs_claim() {
	[ -n "${JOBS_SHARED:-}" ] || return 0
	local fd c n=0 busy=0 me="$JOBS_SHARED/$$" name my= wname=
	name=$(basename "$1")
	exec {fd}>>"$JOBS_SHARED/.lock" || return 1
	flock "$fd"
	for c in "$JOBS_SHARED"/*.run; do
		[ -f "$c" ] || continue
		n=$((n + 1))
		_jobs_clash "$2" "$(cat "$c")" && busy=1
	done
	[ -f "$me.want" ] && read -r my wname _ <"$me.want"
	[ $busy = 1 ] || _jobs_yield "$2" "$n" "$my" "$name" || busy=1
	if [ $busy = 0 ]; then
		echo "$2" >"$(_jobs_claimed "$1")"
		[ "$wname" != "$name" ] || rm -f "$me.want"
	elif [ -z "$my" ]; then
		my=$(($(cat "$JOBS_SHARED/.tickets" 2>/dev/null || echo 0) + 1))
		echo "$my" >"$JOBS_SHARED/.tickets"
		echo "$my $name $2" >"$me.want"
	fi
	exec {fd}>&-
	return $busy
}

# _jobs_yield TAGS RUNNING MY_TICKET NAME: status 1 when the test NAME of
# TAGS would clash with a test that waits (this runner's, or another's
# that waits longer), or take a place that another's needs
_jobs_yield() {
	local w t wname tags older=0
	for w in "$JOBS_SHARED"/*.want; do
		[ -f "$w" ] || continue
		read -r t wname tags <"$w"
		if [ "$w" = "$JOBS_SHARED/$$.want" ]; then
			[ "$wname" = "$4" ] && continue
		else
			[ -z "$3" ] || [ "$t" -lt "$3" ] || continue
			older=$((older + 1))
		fi
		_jobs_clash "$1" "$tags" && return 1
	done
	[ $(($2 + older)) -lt "${JOBS_SHARED_MAX:-$(($2 + older + 1))}" ]
}

# _jobs_claimed FILE: where a claim of this runner's FILE is
_jobs_claimed() { echo "$JOBS_SHARED/$$.$(basename "$1").run"; }

# _jobs_drop FILE: remove a file of JOBS_SHARED under the lock, for a
# runner that lists them reads each one it listed
_jobs_drop() {
	local fd
	exec {fd}>>"$JOBS_SHARED/.lock" || return 1
	flock "$fd"
	rm -f "$1"
	exec {fd}>&-
}

_jobs_unclaim() {
	[ -z "${JOBS_SHARED:-}" ] || _jobs_drop "$(_jobs_claimed "$1")"
}

# jobs_hold NAME TAGS COMMAND...: COMMAND, run as a test named NAME with
# TAGS would be beside the tests of runners sharing JOBS_SHARED (its turn
# awaited); without JOBS_SHARED it simply runs. Its exit status.
jobs_hold() {
	local name=$1 t=$2 rc
	shift 2
	until _jobs_claim "$name" "$t"; do
		sleep 1
	done
	"$@"
	rc=$?
	_jobs_unclaim "$name"
	return $rc
}

declare -A JOBS_T0
jobs_run() {
	local max=$1 start=$2 done=$3 f i pid rc ok r tick=
	shift 3
	local -a todo=("$@")
	local -A tags=() running=()	# running: pid -> file
	for f in "${todo[@]}"; do
		tags[$f]=$(_jobs_tags "$f")
	done
	while [ ${#todo[@]} -gt 0 ] || [ ${#running[@]} -gt 0 ]; do
		# start what may start, first come first
		for i in "${!todo[@]}"; do
			[ ${#running[@]} -lt "$max" ] || break
			f=${todo[$i]}
			ok=1
			for r in "${running[@]}"; do
				_jobs_clash "${tags[$f]}" "${tags[$r]}" && { ok=0; break; }
			done
			[ $ok = 1 ] && _jobs_claim "$f" "${tags[$f]}" || continue
			JOBS_T0[$f]=$(date +%s%N)
			"$start" "$f" &
			running[$!]=$f
			unset "todo[$i]"
			# with one at a time, keep the order given
			[ "$max" -gt 1 ] || break
		done
		todo=("${todo[@]}")
		# held back by another runner's tests: look again in a second
		if [ -n "${JOBS_SHARED:-}" ] && [ ${#todo[@]} -gt 0 ] &&
		    [ ${#running[@]} -lt "$max" ] && [ -z "$tick" ]; then
			sleep 1 &
			tick=$!
		fi
		# wait for one to end (only ours: the caller has no other jobs)
		pid=
		wait -n -p pid "${!running[@]}" $tick
		rc=$?
		if [ -n "$tick" ] && [ "$pid" = "$tick" ]; then
			tick=
			continue
		fi
		if [ -z "$pid" ] || [ -z "${running[$pid]:-}" ]; then
			echo "jobs_run: lost track of a test (wait: $rc)" >&2
			return 1
		fi
		f=${running[$pid]}
		unset "running[$pid]"
		_jobs_unclaim "$f"
		"$done" "$f" "$rc"
	done
	[ -z "$tick" ] || wait "$tick"
	[ -z "${JOBS_SHARED:-}" ] || _jobs_drop "$JOBS_SHARED/$$.want"
}
