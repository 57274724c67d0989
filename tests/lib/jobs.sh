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

declare -A JOBS_T0
jobs_run() {
	local max=$1 start=$2 done=$3 f i pid rc ok r
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
			[ $ok = 1 ] || continue
			JOBS_T0[$f]=$(date +%s%N)
			"$start" "$f" &
			running[$!]=$f
			unset "todo[$i]"
			# with one at a time, keep the order given
			[ "$max" -gt 1 ] || break
		done
		todo=("${todo[@]}")
		# wait for one to end (only ours: the caller has no other jobs)
		pid=
		wait -n -p pid "${!running[@]}"
		rc=$?
		if [ -z "$pid" ] || [ -z "${running[$pid]:-}" ]; then
			echo "jobs_run: lost track of a test (wait: $rc)" >&2
			return 1
		fi
		f=${running[$pid]}
		unset "running[$pid]"
		"$done" "$f" "$rc"
	done
}
