"""known.py: what the known-answer tests read, shared: the model's truth
records (ssdsim --truth) on the model's clock (CLOCK_MONOTONIC),
ssdtortured's events on the same clock (their monotonic_us), and for
records that carry only a wall-clock time (a checkpoint's lines), the
link between the two clocks (the truth's first record, "clock": its
monotonic and its real time at the same moment).

    import known
    tr = known.Truth(path)        tr.ev("fold") -> records, tr.mono(wall)
    ev = known.events(path, tr)   the drive's events, each with "_mono"
    known.rel(got, want)          got / want - 1
"""
import json


class Truth:
    def __init__(self, path):
        self.recs = [json.loads(l) for l in open(path) if l.strip()]
        clock = [r for r in self.recs if r.get("event") == "clock"]
        if not clock:
            raise SystemExit("no clock record in %s" % path)
        self.mono0 = clock[0]["monotonic_ns"]
        self.real0 = clock[0]["realtime_ns"]

    def ev(self, name, t0=None, t1=None):
        """The records of one event, with t_ns in [t0, t1) when given."""
        return [r for r in self.recs if r.get("event") == name and
                (t0 is None or r["t_ns"] >= t0) and
                (t1 is None or r["t_ns"] < t1)]

    def mono(self, wall_ns):
        """A wall-clock time (ns) on the model's clock."""
        return wall_ns - self.real0 + self.mono0

    def before(self, names, t):
        """The last record of any of names before t (model ns), or None."""
        rs = [r for r in self.recs if r.get("event") in names and
              r["t_ns"] < t]
        return rs[-1] if rs else None


def events(path, truth=None):
    """The events of path, each with "_mono": its monotonic_us in ns, the
    model's clock (CLOCK_MONOTONIC of the same boot). Not the wall clock:
    a step of it during a test (a clock synchronised from outside) moved
    every event after it against the model's records."""
    out = [json.loads(l) for l in open(path) if l.strip()]
    if truth is not None:
        for e in out:
            e["_mono"] = e["monotonic_us"] * 1000
    return out


def rel(got, want):
    return got / want - 1 if want else float("inf")


class Checks:
    """Checks that print what was compared: `ok` lines, then the bad."""
    def __init__(self):
        self.bad = []
        self.seen = []

    def within(self, what, got, want, tol):
        r = rel(got, want)
        line = "%s: %.6g against the model's %.6g (%+.1f %%, within %g %%)" % (
            what, got, want, 100 * r, 100 * tol)
        (self.seen if abs(r) <= tol else self.bad).append(line)

    def true(self, what, cond, detail=""):
        (self.seen if cond else self.bad).append(
            "%s%s" % (what, ": " + str(detail) if detail else ""))

    def done(self):
        for l in self.seen:
            print("  held: " + l)
        for l in self.bad:
            print("  FAILED: " + l)
        print("ok" if not self.bad else "%d failed" % len(self.bad))
