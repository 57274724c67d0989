"""cache.py: the write-cache known answers the t_cache_*.sh tests share:
each write pass's estimate (the phase_end event's slc_* fields, or a
checkpoint line's) against what the model did in that pass.

The model's side comes from its truth records only: the "cache" record
as the pass began (its size, its first level), "cache_full" (the bytes
written at cache speed and when the cache filled) and the "round"
records, which with a profile's round_ms of 1 ms end with every write or
two, dated at their last completion: the host bytes the model had
completed by each moment of the pass. Speeds are bytes over the time
between two such moments:
  in the cache   the cache's bytes from the pass's first write to the
                 completion of the one that filled it (as t_gusts.sh);
  its levels     the first: from the first write to the round that
                 completed the first level's bytes; the second: from
                 there to the fill;
  after it       from the fill to the pass's last round;
  a pass without  from its first write to its last round.
  a cache

    import cache
    p = cache.passes(truth, events)   the write passes, in order
    cache.check(c, truth, p[i], "pass 1", figs)
"""


class Pass:
    """One write pass: its start and the next pass's (model ns), its
    phase_end event."""
    def __init__(self, start, end_ev, nxt):
        self.start, self.end, self.next = start, end_ev, nxt


def passes(tr, ev):
    """The write passes of a run's events (the static fill's first, if
    any): each begins with "created" (the run's first pass) or its
    phase_start, ends with its phase_end."""
    starts = [e["_mono"] for e in ev if e.get("event") == "created" or
              (e.get("event") == "phase_start" and e.get("phase") == "write")]
    ends = [e for e in ev if e.get("event") == "phase_end" and
            e.get("phase") in ("static", "write")]
    nxt = starts[1:] + [float("inf")]
    return [Pass(s, e, n) for s, e, n in zip(starts, ends, nxt)]


MS = 10**6


def model_cache(tr, p):
    """The model's cache as pass p began: its "cache" record (None: a
    drive without one) and the bytes of it free. A cache decided at the
    pass's first write has a record dated there; one carried over from
    the pass before is as its last records left it (full once it filled;
    a fold frees part of it)."""
    rs = rounds(tr, p)
    first = rs[0]["start_ns"] if rs else p.start
    new = [r for r in tr.ev("cache", p.start - 2 * MS, p.next)
           if r["t_ns"] <= first + 10 * MS]
    if new:
        return new[0], new[0]["bytes"] - new[0]["used"]
    last = tr.before(("cache",), first)
    if last is None:
        return None, 0
    st = tr.before(("cache", "cache_full", "fold", "idle_fold"), first)
    used = st["bytes"] if st["event"] == "cache_full" else \
        st.get("cache_used", st.get("used"))
    return last, last["bytes"] - used


def rounds(tr, p):
    """The model's rounds of pass p: begun in it, ended before the next.
    The pass's start is its event's, to the ms below (and the clocks'
    link a few us): its first write came after it."""
    return [r for r in tr.ev("round", None, p.next)
            if r["start_ns"] >= p.start - 2 * MS]


def curve(tr, c, what, p):
    """The host bytes the model completed in pass p from its first write
    to each of its rounds' end: [(t_ns, bytes)]."""
    rs = rounds(tr, p)
    out, total = [], 0
    for r in rs:
        total += r["host_bytes"]
        out.append((r["t_ns"], total))
    c.true("%s: the model's rounds of the pass" % what, bool(rs), len(rs))
    return out or [(p.start, 0)]


def at_bytes(cv, b):
    """The first point of the curve with at least b bytes completed."""
    return next((pt for pt in cv if pt[1] >= b), cv[-1])


def at_time(cv, t):
    """The first point of the curve at or after t."""
    return next((pt for pt in cv if pt[0] >= t), cv[-1])


def rate(a, b):
    return (b[1] - a[1]) * 1e9 / (b[0] - a[0]) if b[0] > a[0] else 0


def check(c, tr, p, what, figs, levels=True):
    """The estimate figs (a dict with slc_knee, slc_cache_bytes, ...) of
    pass p against the model: a cache claimed where the model had free
    cache as the pass began, none where it had none."""
    mc, free = model_cache(tr, p)
    # a cache that folds a share when full had that share free at most
    gust = mc["bytes"] * mc["fold_share"] if mc and mc["post"] == "fold" \
        else 0
    if free <= gust:
        c.true("%s: the model's cache %s as the pass began; no cache "
               "claimed" % (what, "was none" if mc is None else
                            "had %d bytes free" % free),
               figs.get("slc_knee") is False, figs.get("slc_knee"))
        rs = rounds(tr, p)
        cv = curve(tr, c, what, p)
        c.within("%s: speed of the pass" % what,
                 figs.get("pass_bytes_per_sec", 0),
                 rate((rs[0]["start_ns"] if rs else p.start, 0), cv[-1]),
                 0.10)
        return
    c.true("%s: the model's cache began empty" % what, mc["used"] == 0,
           mc["used"])
    full = tr.ev("cache_full", mc["t_ns"], p.next)
    c.true("%s: the model's cache filled in the pass" % what, bool(full))
    if not full:
        return
    full = full[0]
    cv = curve(tr, c, what, p)
    zero = (mc["t_ns"], 0)
    c.true("%s: a knee" % what, figs.get("slc_knee") is True,
           figs.get("slc_knee"))
    c.within("%s: cache bytes" % what, figs.get("slc_cache_bytes", 0),
             mc["bytes"], 0.05)
    c.within("%s: speed in the cache" % what,
             figs.get("in_cache_bytes_per_sec", 0),
             rate(zero, (full["t_ns"], full["host_bytes"])), 0.10)
    f = at_time(cv, full["t_ns"])
    c.within("%s: speed after the cache" % what,
             figs.get("post_cache_bytes_per_sec", 0), rate(f, cv[-1]), 0.10)
    if levels:
        check_levels(c, mc, full, cv, what, figs)


def check_levels(c, mc, full, cv, what, figs):
    """The cache's levels: two where the model's first level is a share of
    it (level1_bytes < bytes), one otherwise; each level's bytes and
    speed."""
    lv = figs.get("slc_levels") or []
    two = mc["level1_bytes"] < mc["bytes"]
    c.true("%s: %d level(s)" % (what, 2 if two else 1),
           len(lv) == (2 if two else 1), len(lv))
    if not two or len(lv) != 2:
        return
    zero, l1 = (mc["t_ns"], 0), at_bytes(cv, mc["level1_bytes"])
    end = (full["t_ns"], full["host_bytes"])
    c.within("%s: level 1 bytes" % what, lv[0]["bytes"], mc["level1_bytes"],
             0.05)
    c.within("%s: level 1 speed" % what, lv[0]["bytes_per_sec"],
             rate(zero, l1), 0.10)
    c.within("%s: level 2 bytes" % what, lv[1]["bytes"],
             mc["bytes"] - mc["level1_bytes"], 0.05)
    c.within("%s: level 2 speed" % what, lv[1]["bytes_per_sec"],
             rate(l1, end), 0.10)


def check_gusts(c, tr, p, what, figs):
    """After a cache that folds when full (the model's "fold" records:
    host writes stalled while a share of it moves to TLC): gusts, a stall
    for each fold in the pass (give or take one), the median stall within
    10 % of the model's."""
    mc, free = model_cache(tr, p)
    # from the pass's start: at a queue depth the first fold begins as
    # the filling write's transfer ends, before its completion
    folds = tr.ev("fold", mc["t_ns"], p.next) if mc else []
    c.true("%s: the model folded after the cache" % what, bool(folds))
    if not folds:
        return
    c.true("%s: gusts after the cache" % what,
           figs.get("post_cache_gusts") is True, figs.get("post_cache_gusts"))
    c.true("%s: a stall for each fold (%d)" % (what, len(folds)),
           abs(figs.get("post_cache_stalls", 0) - len(folds)) <= 1,
           figs.get("post_cache_stalls"))
    stalls = sorted(f["stall_ns"] for f in folds)
    mid = len(stalls) // 2
    med = stalls[mid] if len(stalls) % 2 else (stalls[mid - 1] +
                                               stalls[mid]) / 2
    c.within("%s: the median stall" % what,
             figs.get("post_cache_stall_seconds", 0), med / 1e9, 0.10)
