#!/bin/bash
# tests/sanitize.sh UNIT_TEST...: the unit, integration and control suites
# once on a sanitized build (make sanitize: SANITIZE=1, under build/san/).
# The daemon and ssdctl come from SSDTORTURED and SSDCTL, the unit test
# binaries from the arguments. First the canary (tests/sanitize/canary.c)
# shows that the sanitizers report on this machine. Each runner fails a test on any sanitizer
# report (tests/lib/sanitize.sh). Ends with "sanitize: N passed, M failed".
cd "$(dirname "$0")/.." || exit 1
: "${SSDTORTURED:?the sanitized daemon}" "${SSDCTL:?the sanitized ssdctl}"
: "${SAN_CANARY:?the canary (tests/sanitize/canary.c), sanitized}"
# the integration tests call the daemon SSDT
SSDT=$SSDTORTURED
export SSDTORTURED SSDCTL SSDT

pass=0
fail=0
start=$(date +%s)
# run SUITE COMMAND...: one suite; add its "SUITE: N passed, M failed".
run() {
	suite=$1
	shift
	out=$(mktemp) || exit 1
	"$@" 2>&1 | tee "$out"
	line=$(grep -E "^$suite: [0-9]+ passed, [0-9]+ failed" "$out" | tail -n 1)
	rm -f "$out"
	if [ -z "$line" ]; then
		echo "sanitize: $suite did not report a result"
		fail=$((fail + 1))
		return
	fi
	pass=$((pass + $(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')))
	fail=$((fail + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
}
# canary MODE EXPECT: the canary's bug MODE is reported (EXPECT=1) or,
# for the clean run, nothing is (EXPECT=0); otherwise the silence of the
# sanitizers below would prove nothing.
canary() {
	san_begin || exit 1
	"$SAN_CANARY" "$1" >/dev/null 2>&1
	# not in $(...): san_end puts the environment back, in this shell
	log=$(mktemp) || exit 1
	san_end "canary $1" >"$log"
	got=$?
	if [ "$got" -eq "$2" ]; then
		echo "PASS canary $1"
		pass=$((pass + 1))
	else
		echo "FAIL canary $1 (report expected: $2, found: $got)"
		cat "$log"
		fail=$((fail + 1))
	fi
	rm -f "$log"
}
SAN_ROOT=$(pwd)
. tests/lib/sanitize.sh
. tests/lib/jobs.sh
for mode in leak overflow ub; do
	canary "$mode" 1
done
canary clean 0
# and through a runner, as the suites will run: one failure, its report shown
out=$(tests/run-unit.sh "$SAN_CANARY" 2>&1)
if printf '%s\n' "$out" | grep -q '^unit: 0 passed, 1 failed$' &&
    printf '%s\n' "$out" | grep -q 'ERROR: LeakSanitizer'; then
	echo "PASS canary through tests/run-unit.sh"
	pass=$((pass + 1))
else
	echo "FAIL canary through tests/run-unit.sh: no failure with its report"
	printf '%s\n' "$out" | sed 's/^/    /'
	fail=$((fail + 1))
fi
# as a heavy test, for the suites that may be running beside (tests/check.sh)
run unit jobs_hold sanitized-unit heavy tests/run-unit.sh "$@"
# the engine matrix only at its corners here, a checkpoint of a few probes:
# the normal stage runs them whole
MATRIX_CORNERS=1 CKPT_FEW=1 REPORT_SAN=1 run integration tests/integration/run.sh
run control tests/control/run.sh
echo "(sanitizer suites took $(($(date +%s) - start))s)"
echo "sanitize: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
