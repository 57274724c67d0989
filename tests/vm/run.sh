#!/bin/bash
# Run the guest tests in QEMU: install what is missing, build the daemon and
# the initramfs, then boot one throw-away VM per guest test (guest/t_*.sh,
# in name order, or the ones named on the command line), VM_JOBS at a time
# (tests/lib/jobs.sh). A guest test whose checks depend on the time things
# take (a timed bound, figures against a delay) says "# run: serial" in
# its opening comments and runs alone: two guests under TCG share the
# host's CPUs. Prints "PASS name (Ns)" / "FAIL name (Ns)" per test as each
# ends, the console of the failed ones, and ends with one line
# "vm: N passed, M failed". Exit status 1 when any test failed. A guest
# under which QEMU itself failed an assertion before the test wrote its
# result is booted once more, and a line below its verdict says so.
#   VM_JOBS     guests at once (default 2; 1 when tests are named)
#   VM_TIMEOUT  seconds one VM may run (default 300)
#   VM_LOGDIR   where the console logs go (default /var/tmp/ssdtorture-vm/logs)
#   VM_VERBOSE  1: print every console while it runs
#   VM_BUILD_WAIT  seconds to keep retrying a broken `make all` (default 0)
#   VM_ACCEL, VM_MEM, VM_SMP, ...: see boot.sh
set -u
VM_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$VM_DIR/../.." && pwd)
export VM_TIMEOUT=${VM_TIMEOUT:-300}
LOGDIR=${VM_LOGDIR:-/var/tmp/ssdtorture-vm/logs}

# shellcheck source=tests/lib/suite.sh
. "$ROOT/tests/lib/suite.sh"

summary() {
	suite_end vm "${1:+$1, }console logs in $LOGDIR"
	exit
}

# setup_failed STEP : a step before the tests failed: counted, and the end
setup_failed() {
	echo "FAIL $1"
	SUITE_FAIL=$((SUITE_FAIL + 1))
	summary
}

if ! "$VM_DIR/setup.sh"; then
	setup_failed "setup (tests/vm/setup.sh)"
fi
# VM_BUILD_WAIT=SECONDS: while others edit the tree, a broken build is
# retried every minute for that long
build_deadline=$(($(date +%s) + ${VM_BUILD_WAIT:-0}))
while ! out=$(make -C "$ROOT" --no-print-directory all 2>&1) &&
    [ "$(date +%s)" -lt "$build_deadline" ]; do
	echo "(make all failed; retrying in 60 s)"
	sleep 60
done
if ! out=$(make -C "$ROOT" --no-print-directory all 2>&1); then
	printf '%s\n' "$out" | tail -n 20
	setup_failed "build (make all)"
fi
if ! INITRD=$("$VM_DIR/mkinitramfs.sh"); then
	setup_failed "initramfs (tests/vm/mkinitramfs.sh)"
fi
echo "(kernel $(ls -1 /boot/vmlinuz-*-amd64 | sort -V | tail -n 1), initramfs $INITRD, accel ${VM_ACCEL:-tcg})"

suite_tests "$VM_DIR/guest" "$@"
VM_JOBS=$(jobs_count VM_JOBS "$SUITE_NAMED") || setup_failed "VM_JOBS"
mkdir -p "$LOGDIR"
OUT=$(mktemp -d) || exit 1
trap 'rm -rf "$OUT"' EXIT

# _vm_one FILE (jobs_run's START, in the background): one guest; what
# boot.sh says to $OUT/NAME
_vm_one() {
	local t=$1 name opts mode rc
	name=$(basename "$t" .sh)
	# a guest test may ask for properties of the emulated NVMe controller
	opts=$(sed -n 's/^# vm-nvme-opts: //p' "$t" | head -n 1)
	# and systemd as PID 1 instead of the busybox chroot (# vm-mode: systemd)
	mode=$(sed -n 's/^# vm-mode: *//p' "$t" | head -n 1)
	VM_MODE="${mode:-chroot}" VM_NVME_OPTS="$opts" VM_LOG="$LOGDIR/$name.log" \
	    "$VM_DIR/boot.sh" "$t" </dev/null >"$OUT/$name" 2>&1
	rc=$?
	[ "$rc" -eq 0 ] && return 0
	qemu_aborted "$LOGDIR/$name.log" "$OUT/$name.aborted" || return "$rc"
	# the emulator died under the guest, which did not finish: once more,
	# the first console kept and the abort said beside the verdict
	mv "$LOGDIR/$name.log" "$LOGDIR/$name.qemu-abort.log"
	VM_MODE="${mode:-chroot}" VM_NVME_OPTS="$opts" VM_LOG="$LOGDIR/$name.log" \
	    "$VM_DIR/boot.sh" "$t" </dev/null >"$OUT/$name" 2>&1
}

# qemu_aborted LOG OUT: the guest wrote no result and QEMU itself failed an
# assertion (a fault of the emulator, as its hot-plug paths have under TCG,
# not of what the guest tests); its message to OUT
qemu_aborted() {
	! grep -q '^SSDT-RESULT' "$1" 2>/dev/null &&
	    grep -a -m 1 -E '^qemu-system-[a-z0-9_]+: .*Assertion .* failed' \
	    "$1" >"$2" 2>/dev/null
}

# _vm_done FILE RC (jobs_run's DONE): below a failure the test's own
# report (its failed checks), then boot.sh's verdict
_vm_done() {
	local name rc=$2 secs
	name=$(basename "$1" .sh)
	secs=$(( ($(date +%s%N) - JOBS_T0[$1]) / 1000000000 ))
	: >"$OUT/$name.report"
	if [ "$rc" -ne 0 ] && [ -f "$LOGDIR/$name.log" ]; then
		tr -d '\r' <"$LOGDIR/$name.log" |
		    grep -E '^(== |   (FAIL|FATAL|NOTE) |SSDT-RESULT)' >"$OUT/$name.report"
	fi
	[ "$rc" -ne 0 ] && tail -n 1 "$OUT/$name" >>"$OUT/$name.report"
	suite_result "$name" "$rc" "$secs" "$OUT/$name.report"
	if [ -s "$OUT/$name.aborted" ]; then
		echo "    (run twice: QEMU aborted under the first guest, console in" \
		    "$LOGDIR/$name.qemu-abort.log: $(cut -c1-200 "$OUT/$name.aborted"))"
	fi
	rm -f "$OUT/$name.aborted"
	[ "${VM_VERBOSE:-0}" = 1 ] && cat "$OUT/$name"
	rm -f "$OUT/$name" "$OUT/$name.report"
}

[ ${#SUITE_TESTS[@]} -eq 0 ] ||
    jobs_run "$VM_JOBS" _vm_one _vm_done "${SUITE_TESTS[@]}" ||
    SUITE_FAIL=$((SUITE_FAIL + 1))
summary "$VM_JOBS at a time"
