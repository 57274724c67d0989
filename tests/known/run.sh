#!/bin/bash
# Run every known-answer test: ssdtortured on a simulated drive (sim/ssdsim),
# its findings against what the model recorded it did (t_*.sh here, in name
# order, or the ones named
# on the command line); print PASS/FAIL/SKIP per test, the output of the
# failed ones, and one total line "known: N passed, M failed" (the
# runner is tests/lib/suite.sh). Exit status 1 when any test failed.
#   KA_JOBS     tests at once (default 2; 1 when tests are named): see
#               tests/lib/jobs.sh, and its "# run:" header lines
#   KA_TIMEOUT  seconds one test may take (default 300)
#   KA_VERBOSE  1: print every test's output, not only the failures'
# A sanitizer report from any process of a test (tests/lib/sanitize.sh)
# fails the test and is printed.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
cd "$DIR" || exit 1
# shellcheck source=tests/lib/suite.sh
. "$DIR/../lib/suite.sh"

suite_tests "$DIR" "$@"
suite_parallel KA 300
suite_end known "$SUITE_JOBS at a time"
