"""t_metrics: read the Prometheus textfile in a tight loop while the daemon
rewrites it, the daemon's status between rounds of reads, and check every
version against the statuses around it.

argv: IT_DIR PROM SSDCTL SOCK PID OUTDIR TIMEOUT_S VERSIONS [DRIVE=STATE]
Stops once VERSIONS versions were seen (and one with DRIVE in STATE, when
given). Each version is saved as OUTDIR/ver.N.prom. Complaints on stdout,
exit status 1 when any; the last line sums up.
"""
import json, math, os, subprocess, sys, time
sys.path.insert(0, sys.argv[1])
import promcheck
prom, ctl, sock, pid = sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
outdir, limit, want = sys.argv[6], float(sys.argv[7]), int(sys.argv[8])
until = sys.argv[9].split("=") if len(sys.argv) > 9 else None
P = "ssdtorture_"
COUNTERS = {P + "host_written_bytes_total": "host_bytes_written",
            P + "host_read_bytes_total": "host_bytes_read",
            P + "cycles_completed_total": "cycles_done",
            P + "probe_written_bytes_total": "probe_bytes_written"}
GAUGES = {P + "cycle": "cycle", P + "capacity_bytes": "capacity",
          P + "span_bytes": "span_bytes"}
TYPES = dict([(k, "counter") for k in COUNTERS] + [(k, "gauge") for k in GAUGES] + [
    (P + "write_bytes_per_second", "gauge"), (P + "read_bytes_per_second", "gauge"),
    (P + "verify_errors_total", "counter"), (P + "phase_progress_ratio", "gauge"),
    (P + "phase_info", "gauge"), (P + "state", "gauge"),
    (P + "checkpoints_completed_total", "counter"),
    (P + "torn_blocks_total", "counter")])
# the daemon's own figures: one sample each, no labels
LOOP = {P + "main_loop_turns_total": "counter",
        P + "main_loop_slow_turns_total": "counter",
        P + "main_loop_longest_turn_seconds": "gauge"}
EXTRA = {P + "verify_errors_total": "class", P + "phase_info": "phase",
         P + "state": "state"}
# torn blocks (a crash's cut writes) are no verify errors: a family apart
CLASSES = ["corrupt", "misdirected", "stale", "foreign", "unwritten", "io_error",
           "lost_flush"]
STATES = ["running", "paused", "stopped", "finished", "failed", "refused"]
PHASES = ["static", "write", "verify", "trim", "idle", "checkpoint", "prepare",
          "none"]
SMART = {"percentage_used_ratio": "percent_used",
         "available_spare_ratio": "available_spare",
         "temperature_celsius": "temperature_c",
         "media_errors_total": "media_errors",
         "critical_warning": "critical_warning",
         "device_written_bytes_total": "device_bytes_written",
         "nand_written_bytes_total": "nand_bytes_written",
         "write_amplification": "waf",
         "reallocated_sectors_total": "reallocated"}
bad = 0
def complain(msg):
    global bad
    bad += 1
    if bad <= 40:
        print("  " + msg)
def alive(p):
    try:
        with open("/proc/%d/stat" % p) as f:
            return f.read().rsplit(") ", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False
def status():
    r = subprocess.run([ctl, "-s", sock, "--json", "status"],
                       capture_output=True, text=True, timeout=10)
    if r.returncode != 0:
        raise RuntimeError("ssdctl status: %s" % r.stderr.strip())
    return {d["name"]: d for d in json.loads(r.stdout)["drives"]}

def values(fams):
    """drive -> {(family, extra label value): value}, checking the labels."""
    out = {}
    for name, f in fams.items():
        if not name.startswith(P):
            complain("foreign family %s" % name)
        if name in LOOP:
            continue                # check_loop's
        for sname, labels, v in f.samples:
            want_labels = {"drive", "serial", "model"}
            if name in EXTRA:
                want_labels.add(EXTRA[name])
            if set(labels) != want_labels:
                complain("%s: labels %s" % (name, sorted(labels)))
                continue
            out.setdefault(labels["drive"], {})[
                (name, labels.get(EXTRA.get(name, ""), ""))] = (v, labels)
    return out

def complete(text, drives):
    """A whole file: parses cleanly, every family has every drive."""
    fams, problems = promcheck.check(text)
    for p in problems:
        complain("read: " + p)
    for name, typ in TYPES.items():
        f = fams.get(name)
        if f is None:
            complain("read: family %s missing" % name); continue
        if f.type != typ:
            complain("%s: TYPE %s, expected %s" % (name, f.type, typ))
        n = {"class": len(CLASSES), "state": len(STATES)}.get(EXTRA.get(name), 1)
        for d in drives:
            got = sum(1 for _, l, _ in f.samples if l.get("drive") == d)
            if got != n:
                complain("read: %s has %d series of drive %s, expected %d"
                         % (name, got, d, n))
    return fams

def check_loop(fams, prev):
    """The main loop's figures: unlabelled, sane, counters never going
    back; a longest turn of 0.1 s or more is counted as slow. Returns them."""
    got = {}
    for name, typ in LOOP.items():
        f = fams.get(name)
        if f is None or f.type != typ or len(f.samples) != 1 or f.samples[0][1]:
            complain("%s: missing, mistyped or labelled" % name); return prev
        got[name] = f.samples[0][2]
    turns, slow, longest = (got[P + "main_loop_" + k] for k in
                            ("turns_total", "slow_turns_total", "longest_turn_seconds"))
    if not (0 <= slow <= turns and 0 <= longest < 3600) or turns < 1:
        complain("main loop: %d turns, %d slow, longest %r s" % (turns, slow, longest))
    if longest > 0.1 and slow < 1:
        complain("main loop: longest turn %r s, none counted slow" % longest)
    for k, v in (prev or {}).items():
        if got[k] < v:
            complain("%s went backwards: %r -> %r" % (k, v, got[k]))
    return got

def check_version(fams, before, after, stale, prev):
    """One version against the statuses before it (None: unknown), after
    it, >= 20 s before it; prev: the counters of the version before.
    Returns this version's counters."""
    vals, counts = values(fams), {}
    if sorted(vals) != sorted(after):
        complain("drives %s, status has %s" % (sorted(vals), sorted(after)))
    for d, sa in after.items():
        v = vals.get(d, {})
        get = lambda fam, x="": v.get((fam, x), (None, {}))[0]
        for fam, (val, labels) in v.items():
            if (labels["serial"], labels["model"]) != (sa["serial"], sa["model"]):
                complain("%s: serial/model %r/%r, status %r/%r" % (d,
                         labels["serial"], labels["model"], sa["serial"], sa["model"]))
                break
        sb = before.get(d) if before else None
        cnt = {(fam, ""): get(fam) for fam in COUNTERS}
        for c in CLASSES:
            cnt[(P + "verify_errors_total", c)] = get(P + "verify_errors_total", c)
        cnt[(P + "torn_blocks_total", "torn")] = get(P + "torn_blocks_total")
        skey = lambda s, k: s["errors"][k[1]] if k[1] else s[COUNTERS[k[0]]]
        for k, val in cnt.items():
            if val is None:
                continue            # complete() told already
            if val != int(val) or val < 0:
                complain("%s %s: not a count: %r" % (d, k, val))
            if val > skey(sa, k):
                complain("%s %s: %d in the file > %d in the status after it"
                         % (d, k, val, skey(sa, k)))
            for label, s in (("the status >= 20 s before", stale),
                             ("the status before", before)):
                if s is not None and d in s and val < skey(s[d], k):
                    complain("%s %s: %d in the file < %d in %s"
                             % (d, k, val, skey(s[d], k), label))
            pv = (prev or {}).get(d, {}).get(k)
            if pv is not None and val < pv:
                complain("%s %s went backwards: %d -> %d" % (d, k, pv, val))
        counts[d] = cnt
        for fam, key in GAUGES.items():
            g = get(fam)
            if key == "cycle":
                lo = sb["cycle"] if sb else 0
                if g is None or not lo <= g <= sa["cycle"]:
                    complain("%s cycle %r not in [%d, %d]" % (d, g, lo, sa["cycle"]))
            elif g != sa[key]:
                complain("%s %s: %r in the file, %r in the status" % (d, fam, g, sa[key]))
        pr = get(P + "phase_progress_ratio")
        if pr is None or not 0 <= pr <= 1:
            complain("%s phase_progress_ratio %r" % (d, pr))
        for fam in ("write_bytes_per_second", "read_bytes_per_second"):
            r = get(P + fam)
            if r is None or not math.isfinite(r) or r < 0:
                complain("%s %s %r" % (d, fam, r))
        ph = [x for (fam, x) in v if fam == P + "phase_info"]
        if len(ph) != 1 or ph[0] not in PHASES or get(P + "phase_info", ph[0]) != 1:
            complain("%s phase_info %r" % (d, ph))
        hot = [x for x in STATES if get(P + "state", x) == 1]
        cold = [x for x in STATES if get(P + "state", x) == 0]
        if len(hot) != 1 or len(cold) != 5:
            complain("%s state not one-hot: %r" % (d, hot))
        # the state then: the one before or after (unknown for a version
        # that was there when the monitor began)
        cur = {"refused" if x["refused"] else x["state"] for x in (sb, sa) if x}
        if hot and sb and hot[0] not in cur:
            complain("%s state %s in the file, status %s" % (d, hot[0], sorted(cur)))
        # a finished drive's counters are final: exactly the status's
        if hot == ["finished"] and sa["state"] == "finished":
            for k, val in cnt.items():
                if val != skey(sa, k):
                    complain("%s (finished) %s: %r in the file, %r in the status"
                             % (d, k, val, skey(sa, k)))
        # SMART: a sample exactly when the status has a value
        for suffix, key in SMART.items():
            x = get(P + "smart_" + suffix)
            has = [(y.get("smart") or {}).get(key) is not None for y in (sb, sa) if y]
            if x is not None and not any(has):
                complain("%s smart_%s in the file, null in the status" % (d, suffix))
            if x is None and all(has):
                complain("%s smart_%s missing, the status has it" % (d, suffix))
    return counts


t0 = time.time()
hist = []                       # (time, status)
last_ino, last_old_read, versions, reads = None, None, 0, 0
first_seen = []
prev_counts = None
prev_loop = None
pending = None                  # (fams, status before) awaiting a status after
reached = until is None
try:
    while True:
        try:
            s = status()
        except Exception as e:
            if not alive(pid):
                complain("the daemon exited"); break
            complain("status: %s" % e); time.sleep(0.2); continue
        hist.append((time.time(), s))   # the status was taken before this
        if pending is not None:
            fams, before, seen_at = pending
            stale = None
            for t, h in hist:
                if t <= seen_at - 20:
                    stale = h
            prev_counts = check_version(fams, before, s, stale, prev_counts)
            prev_loop = check_loop(fams, prev_loop)
            if until and any(l.get("drive") == until[0] and l.get("state") == until[1] and v == 1
                             for _, l, v in fams.get(P + "state", promcheck.Family("")).samples):
                reached = True
            pending = None
        if (versions >= want and reached) or time.time() - t0 > limit:
            break
        # a round of reads (~150 ms)
        end = time.time() + 0.15
        while time.time() < end and pending is None:
            try:
                with open(prom, "rb") as f:
                    st = os.fstat(f.fileno())
                    data = f.read()
            except FileNotFoundError:
                complain("the file is missing"); time.sleep(0.01); continue
            reads += 1
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                complain("read: not UTF-8"); continue
            fams = complete(text, sorted(s))
            age = time.time() - st.st_mtime
            if age > 20:
                complain("the file is %.1f s old" % age)
            if st.st_mode & 0o004 == 0:
                complain("the file is not readable by others: %o" % st.st_mode)
            if st.st_ino == last_ino:
                # the version seen last; its ctime moves when a rename
                # replaces it between our open and fstat (nlink 0)
                if text != last_text:
                    complain("the same file changed its content (written in place)")
                last_old_read = time.time()
                continue
            if st.st_nlink == 0:
                continue        # replaced while we opened it: not current
            last_ino, last_text = st.st_ino, text
            versions += 1
            first_seen.append(time.time())
            with open(os.path.join(outdir, "ver.%d.prom" % versions), "wb") as f:
                f.write(data)
            # a bound from before, only for a version seen appearing: a
            # status answered before a read that still saw the old version
            # was taken before this one's values (the main loop takes them,
            # writes, fsyncs and renames in one go)
            before = None
            for t, h in hist:
                if last_old_read is not None and t < last_old_read:
                    before = h
            pending = (fams, before, time.time())
except Exception as e:
    complain("monitor failure: %r" % e)
gaps = [b - a for a, b in zip(first_seen, first_seen[1:])]
for g in gaps:
    if g > 20:
        complain("a version stayed %.1f s (rewrites every 15 s expected)" % g)
if versions < want or not reached:
    complain("saw %d version(s) in %.0f s, wanted %d%s" % (versions, time.time() - t0,
             want, "" if reached else " and %s=%s" % tuple(until)))
print("reads %d versions %d gaps %s" % (reads, versions, " ".join("%.1f" % g for g in gaps)))
sys.exit(1 if bad else 0)
