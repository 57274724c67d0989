# lib.sh: what the known-answer tests share (sourced, bash): the
# integration tests' helpers (tests/integration/lib.sh: $T, the cleanup,
# the daemon, the checks) and a simulated drive.
#
#   sim_start NAME PROFILE [ARGS...]
#                 mount ssdsim with PROFILE (a file of sim/profiles/, or
#                 a path) at $T/NAME; SIM_FILE is the drive's file,
#                 SIM_CTL its control socket, SIM_TRUTH the model's record
#                 of what it did; ARGS go to `ssdsim run`
#   sim_power off|on, sim_smart: ssdsim's commands on that drive
#   truth_q EXPR  a Python expression over the truth records (a list of
#                 dicts, `T`), printed
# shellcheck shell=bash disable=SC2034

KA_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export KA_DIR
# shellcheck source=tests/integration/lib.sh
. "$KA_DIR/../integration/lib.sh"
SSDSIM=${SSDSIM:-$ROOT/sim/ssdsim}
PROFILES=$ROOT/sim/profiles
CTL=${SSDCTL:-$ROOT/ctl/ssdctl}

[ -x "$SSDSIM" ] || { echo "$TEST_NAME: $SSDSIM is missing (make -C $ROOT)"; exit 1; }
cp "$SSDSIM" "$T/ssdsim" || die "cannot copy $SSDSIM"
SSDSIM=$T/ssdsim

sim_start() {
	local name=$1 prof=$2 dir=$T/$1 i
	shift 2
	[ -c /dev/fuse ] || skip "no /dev/fuse"
	case $prof in */*) ;; *) prof=$PROFILES/$prof.conf ;; esac
	mkdir -p "$dir"
	SIM_FILE=$dir/drive SIM_CTL=$T/$name.sock SIM_TRUTH=$T/$name.truth
	echo "$dir" >>"$T/.mounts"
	# not a child of ours: the cleanup unmounts it, which ends it
	( "$SSDSIM" run --profile "$prof" --data "$T/$name.data" \
	    --control "$SIM_CTL" --truth "$SIM_TRUTH" "$@" "$dir" \
	    >"$T/$name.sim.log" 2>&1 & )
	for i in $(seq 1 200); do
		mountpoint -q "$dir" && [ -e "$SIM_FILE" ] && return 0
		sleep 0.05
	done
	show_file "$T/$name.sim.log"
	die "ssdsim did not mount $dir"
}

sim_power() { "$SSDSIM" power "$1" --control "$SIM_CTL"; }
sim_smart() { "$SSDSIM" smart --control "$SIM_CTL"; }

truth_q() {
	python3 - "$SIM_TRUTH" "$1" <<'PY'
import json, sys
T = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(eval(sys.argv[2]))
PY
}
