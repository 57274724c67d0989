#!/bin/sh
# Run the control protocol fuzz target for SECONDS (default 20).
# New inputs go to a scratch corpus; the seeds in tests/fuzz/corpus stay.
secs=${1:-20}
bin=$(dirname "$0")/fuzz_control
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if "$bin" -max_total_time="$secs" -max_len=70000 -timeout=10 \
    -print_final_stats=1 "$work" "$(dirname "$0")/corpus" >"$work/log" 2>&1; then
	grep -E "^(Done|stat::number_of_executed_units)" "$work/log"
	echo "fuzz: 1 passed, 0 failed"
else
	tail -n 40 "$work/log"
	cp "$work"/crash-* "$work"/leak-* . 2>/dev/null
	echo "fuzz: 0 passed, 1 failed"
	exit 1
fi
