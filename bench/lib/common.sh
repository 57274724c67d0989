# shellcheck shell=bash
# common.sh: shell plumbing shared by bench/bench.sh, bench/scale.sh and
# bench/ckptfio.sh (sourced, not run). The caller sets BENCH_NAME (the prefix of its
# messages), RES (its results file, once it exists) and clears CHILD.

msg() { printf '%s: %s\n' "${BENCH_NAME:-bench}" "$*" >&2; }
die() { printf '%s: error: %s\n' "${BENCH_NAME:-bench}" "$*" >&2; exit 1; }

# bench_args DEFAULT_REPS JSON_NAME ARG...: the options both scripts take
# (usage: the caller's `usage`): REPS (1 under --quick unless -r is given),
# QUICK, JSON_OUT (absolute; JSON_NAME under $PWD for a bare --json).
bench_args() {
	local set=0 json=$2
	REPS=$1 QUICK=0 JSON_OUT=
	shift 2
	while [ $# -gt 0 ]; do
		case $1 in
		-r) [ $# -ge 2 ] || { usage >&2; exit 2; }
		    REPS=$2; set=1; shift ;;
		-r*) REPS=${1#-r}; set=1 ;;
		--quick) QUICK=1 ;;
		--json) JSON_OUT=$PWD/$json ;;
		--json=*) JSON_OUT=${1#--json=}
		    case $JSON_OUT in /*) ;; *) JSON_OUT=$PWD/$JSON_OUT ;; esac ;;
		-h|--help) usage; exit 0 ;;
		*) usage >&2; exit 2 ;;
		esac
		shift
	done
	case $REPS in
	''|*[!0-9]*|0) die "-r needs a positive count" ;;
	esac
	[ "$QUICK" = 0 ] || [ "$set" = 1 ] || REPS=1
}

# preflight: root, the tools both scripts use, the daemon ($ROOT, $DAEMON)
# built.
preflight() {
	local t
	[ "$(id -u)" = 0 ] || die "must run as root (loop devices, O_EXCL opens)"
	for t in fio python3 losetup dd wipefs make; do
		command -v "$t" >/dev/null || die "$t is not installed"
	done
	msg "building the daemon (make -C $ROOT)"
	make -s -C "$ROOT" daemon/ssdtortured >&2 || die "the build failed"
	[ -x "$DAEMON" ] || die "$DAEMON is missing"
}

# Stop a process we started: SIGTERM, up to ~10 s, then SIGKILL.
stop_pid() {
	local pid=$1
	kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}

# run_child LOG CMD...: run CMD (stdout and stderr to LOG) in the
# background and wait for it, so that a signal to the script is handled
# at once (its trap then stops the command, whose pid is in CHILD).
# AS_SERVICE: the prefix that runs a daemon in a session of its own, as
# systemd starts a service (and as fio starts each job: it calls setsid).
# With the scheduler's autogroups (CONFIG_SCHED_AUTOGROUP, on by default),
# a session is one entity that the kernel's workers (a loop device's)
# and other sessions share the CPUs with: a daemon left in this script's
# session would share one entity's CPU with the script, its pollers and
# any other daemon started here, where fio's jobs have one each. -w:
# where setsid must fork (a process group leader), it waits, so the
# caller's wait still sees the daemon end.
AS_SERVICE=(setsid -w)

run_child() {
	local log=$1
	shift
	"$@" >"$log" 2>&1 &
	CHILD=$!
	wait "$CHILD"
	local rc=$?
	CHILD=
	return $rc
}

# A size with a binary suffix (256M, 2G) in bytes.
span_bytes() {
	case $1 in
	*G) echo $(( ${1%G} << 30 )) ;;
	*M) echo $(( ${1%M} << 20 )) ;;
	*) echo "$1" ;;
	esac
}

# meta KEY VALUE: a line of the results file that the report reads.
meta() { printf 'meta\t%s\t%s\n' "$1" "$2" >> "$RES"; }

# The machine and the date, as bench_util.py's machine_line reads them.
machine_meta() {
	local cpu_model
	cpu_model=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1)
	meta cpu "${cpu_model:-unknown CPU}"
	meta nproc "$(nproc)"
	meta kernel "$(uname -r)"
	meta date "$(date -u '+%Y-%m-%d %H:%M UTC')"
	meta fio_version "$(fio --version)"
}

# bench_traps: the caller's `cleanup` on exit, Ctrl-C and SIGTERM (the
# last two with a message and the usual exit status)
bench_traps() {
	trap cleanup EXIT
	trap 'msg "interrupted"; cleanup; exit 130' INT
	trap 'msg "terminated"; cleanup; exit 143' TERM
}

# loop_detach DEV: a loop device let go, once more after a second (a
# process that just closed it may still hold it)
loop_detach() {
	losetup -d "$1" 2>/dev/null ||
	    { sleep 1; losetup -d "$1" 2>/dev/null; } ||
	    msg "could not detach $1"
}

# shm_need BYTES: /dev/shm has room for BYTES, or the end
shm_need() {
	local free
	free=$(df -B1 --output=avail /dev/shm | tail -1)
	[ "$free" -gt "$1" ] ||
	    die "/dev/shm has $((free >> 20)) MiB free; $(($1 >> 20)) MiB needed"
}
