"""t_flush_replay: which state copies to replay: the last of each phase, and
two from the middle of the write pass. Tight copies (the log's flush count
at the mark equals the state's: no flush came between the save and the
mark) are preferred over loose ones.

argv: SNAPDIR MARKS
MARKS: the log's marks, "mN ENTRY FLUSHES" a line.
Prints "COPY PHASE POSITION RUN tight|loose", one a line.
"""
import os, sys
root, marks = sys.argv[1], sys.argv[2]
good = [int(l) for l in open(os.path.join(root, "good"))]
flushes = {l.split()[0]: int(l.split()[2]) for l in open(marks)}
def load(i):
    s = {}
    for l in open(os.path.join(root, str(i), "lw", "state")):
        k, _, v = l.rstrip("\n").partition(" ")
        s[k] = v
    return s
def tight(i, s):
    return flushes["m%d" % i] == int(s.get("flushes", "0"))
last, writes = {}, []
for prefer in (False, True):	# a tight copy replaces a loose one
    for i in good:
        s = load(i)
        if prefer and not tight(i, s):
            continue
        last[s["phase"]] = i
        if prefer and s["phase"] == "write" and int(s["position"]) > 0:
            writes.append(i)
picks = set(last.values())
if writes:
    picks.update((writes[len(writes) // 3], writes[2 * len(writes) // 3]))
for i in sorted(picks):
    s = load(i)
    print(i, s["phase"], s["position"], s["run"],
          "tight" if tight(i, s) else "loose")
