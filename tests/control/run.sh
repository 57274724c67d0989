#!/bin/bash
# run.sh: run the control-plane tests (t_*.sh here, or those named as
# arguments), print PASS/FAIL/SKIP per test (the output of a failed one
# below it), and end with exactly one line "control: N passed, M failed"
# (the runner is tests/lib/suite.sh). Exit status 0 when all passed.
#   CT_VERBOSE  1: every test's output (and every check)
#   CT_KEEP     1: keep the temporary directories
#   CT_JOBS     tests at once (default 2; 1 when tests are named): see
#               tests/lib/jobs.sh, and its "# run:" header lines
#   CT_TIMEOUT  seconds one test may take (default 150)
#
# The daemon and ssdctl must be built (make all; `make control` does both).
# Root is needed (t_permissions makes a user; the daemon uses O_DIRECT).
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
cd "$DIR" || exit 1
# shellcheck source=tests/lib/suite.sh
. "$DIR/../lib/suite.sh"

suite_tests "$DIR" "$@"
suite_parallel CT 150
suite_end control "$SUITE_JOBS at a time"
