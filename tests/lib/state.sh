# state.sh: reading a drive's state file and events.jsonl, shared by the
# integration tests (tests/integration/lib.sh) and the guest tests
# (tests/vm/guest/lib.sh). Sourced by bash.
# shellcheck shell=bash

STATE_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# state_get STATEFILE KEY : the value of one key ("" when absent).
state_get() {
	awk -v k="$2" '$1 == k { sub(/^[^ ]* ?/, ""); print; exit }' "$1" 2>/dev/null
}

# wait_state STATEFILE PID TIMEOUT_S PYEXPR : poll the state file until the
# Python expression over the dict `s` (values as strings; ints as ints)
# holds; the matching snapshot is left in STATEFILE.snap. Fails when the
# process exits first or time runs out.
wait_state() {
	python3 "$STATE_LIB/wait_state.py" "$@"
}

# ev_query FILE FROM_BYTE FIELDS [key=value...] : one line per matching
# event with the named fields (comma separated; "-" for a missing one).
# Values compare as strings; "key=" matches a missing key.
ev_query() {
	python3 "$STATE_LIB/ev_query.py" "$@"
}

# ev_count FILE FROM_BYTE [key=value...] : how many events match.
ev_count() {
	local f=$1 from=$2
	shift 2
	ev_query "$f" "$from" event "$@" | wc -l
}

# layout N_BYTES BLOCK_SIZE STATIC_FRACTION : sets NBLK, SBLK (floor(N*f),
# in double arithmetic as the daemon does), DBLK, SBYTES, DBYTES.
layout() {
	read -r NBLK SBLK DBLK SBYTES DBYTES < <(python3 -c '
import sys
size, bs, f = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
n = size // bs; s = int(n * f)
print(n, s, n - s, s * bs, (n - s) * bs)' "$1" "$2" "$3")
}
