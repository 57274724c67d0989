#!/usr/bin/env python3
"""event_seq.py EVENTS CYCLES_DONE: a drive's events.jsonl holds every
phase and cycle event in order, none missing, none twice, up to the last
cycle_end, which is cycle CYCLES_DONE (the state's). Every line must be a
whole JSON object (a line lost and read back as zeros or a fragment is a
failure). Prints one line saying what it found; exit 0 when it held.
Shared by tests/integration/t_state_full.sh and the guest test
tests/vm/guest/t_state_error.sh."""
import json
import sys

CYCLE = ["phase_start write", "phase_end write", "phase_start verify",
         "phase_end verify", "phase_start trim", "phase_end trim",
         "cycle_end", "phase_start idle", "phase_end idle"]


def load(path):
    events = []
    with open(path, "rb") as f:
        for n, raw in enumerate(f, 1):
            try:
                events.append(json.loads(raw))
            except ValueError:
                sys.exit("line %d is not an event: %r" % (n, raw[:120]))
    return events


def sequence(events):
    seq = []
    for e in events:
        if e["event"] in ("phase_start", "phase_end"):
            seq.append((e["cycle"],
                        e["event"] + " " + (e.get("what") or e["phase"])))
        elif e["event"] == "cycle_end":
            seq.append((e["cycle"], "cycle_end"))
    return seq


def main():
    seq = sequence(load(sys.argv[1]))
    done = int(sys.argv[2])
    # the static pass first (the first phase: no phase_start), then cycle
    # after cycle
    if not seq or seq[0] != (0, "phase_end static"):
        sys.exit("first phase event: %s, expected (0, 'phase_end static')"
                 % (seq[:1],))
    want = []
    for c in range(1, done + 2):
        want += [(c, x) for x in CYCLE]
    got = seq[1:]
    if got != want[:len(got)]:
        for i, (g, w) in enumerate(zip(got, want)):
            if g != w:
                sys.exit("event %d: got %s, expected %s" % (i, g, w))
        sys.exit("%d phase events, more than %d cycles hold" %
                 (len(got), done + 1))
    ends = [c for c, x in got if x == "cycle_end"]
    last = max(ends) if ends else 0
    if last != done:
        sys.exit("last cycle_end %d, state cycles_done %d" % (last, done))
    print("%d cycles, %d phase and cycle events in order" % (done, len(seq)))


main()
