#!/bin/bash
# Run the guest tests in QEMU: install what is missing, build the daemon and
# the initramfs, then boot one throw-away VM per guest test (guest/t_*.sh,
# in name order, or the ones named on the command line). Prints
# "PASS name (Ns)" / "FAIL name (Ns)" per test, the console of the failed
# ones, and ends with one line "vm: N passed, M failed". Exit status 1 when
# any test failed.
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
	suite_end vm "console logs in $LOGDIR"
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
mkdir -p "$LOGDIR"
report=$(mktemp) || exit 1
trap 'rm -f "$report"' EXIT
for t in "${SUITE_TESTS[@]}"; do
	name=$(basename "$t" .sh)
	t0=$(date +%s)
	# a guest test may ask for properties of the emulated NVMe controller
	opts=$(sed -n 's/^# vm-nvme-opts: //p' "$t" | head -n 1)
	# and systemd as PID 1 instead of the busybox chroot (# vm-mode: systemd)
	mode=$(sed -n 's/^# vm-mode: *//p' "$t" | head -n 1)
	out=$(VM_MODE="${mode:-chroot}" VM_NVME_OPTS="$opts" VM_LOG="$LOGDIR/$name.log" "$VM_DIR/boot.sh" \
	    "$t" </dev/null 2>&1)
	rc=$?
	# below a failure: the test's own report (its failed checks), then
	# boot.sh's verdict
	: >"$report"
	if [ $rc -ne 0 ] && [ -f "$LOGDIR/$name.log" ]; then
		tr -d '\r' <"$LOGDIR/$name.log" |
		    grep -E '^(== |   (FAIL|FATAL|NOTE) |SSDT-RESULT)' >"$report"
	fi
	[ $rc -ne 0 ] && printf '%s\n' "$out" | tail -n 1 >>"$report"
	suite_result "$name" "$rc" $(($(date +%s) - t0)) "$report"
	[ "${VM_VERBOSE:-0}" = 1 ] && printf '%s\n' "$out"
done
summary
