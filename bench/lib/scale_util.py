#!/usr/bin/env python3
"""scale_util.py: helpers of bench/scale.sh (standard library, plus the
Varlink client of the control tests and bench_util's medians and verdicts).

Subcommands:
  fio N REP FILE [TOOL]      one aggregate line from a fio JSON file (one
                             job per device); TOOL fio-verify: a run with
                             verify, timed by its write phases
  daemon N REP RUSAGE STATE NAME...
                             one aggregate line from the drives' phase_end
                             events of a --oneshot run and its CPU time
                             (bench_util.py run's file)
  live N REP CONF SOCK LOG CALLS -- DAEMON...
                             start the daemon on a fresh state dir: start-up
                             time, then status latency and RSS while the
                             drives run; then SIGTERM
  report RESULTS [JSONFILE]  the tables (text and Markdown), the JSON file

Result lines (tab-separated), as appended to the results file:
  agg N TOOL REP BYTES SECONDS BYTES_PER_SEC CPU_S_PER_GIB WORKER_S_PER_GIB
      SPAN_SECONDS
  (SECONDS: the longest drive's, as fio times its jobs; SPAN_SECONDS: from
  the first drive's start to the last one's end, nan for fio)
  live N REP SOCKET_S RUNNING_S ARCHIVES_S STARTED_S P50_MS P99_MS MAX_MS
      CALLS VMRSS_KIB LOOP_MAX_MS LOOP_MAX_CPU_MS SLOW_TURNS
      P99_LESS_WAIT_MS CLIENT_WAIT_MAX_MS
"""
import datetime
import json
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "control"))
sys.path.insert(0, HERE)
import bench_util  # noqa: E402
import vl  # noqa: E402

GIB = 1 << 30
FLAT_LIMIT = 0.10	# the goal: CPU s/GiB within 10 % from 1 to 24
P99_LIMIT_MS = 50.0
BLOCK_LIMIT_MS = 100.0
RSS_LIMIT_MIB = 4.0
START_LIMIT_S = 10.0
die = bench_util.die
# the rows of each drive count: fio without verify (the floor, the goal's
# reference), fio writing verifiable blocks and checking them (the same
# work as the daemon's cycle), the daemon
TOOLS = ("fio", "fio-verify", "ssdtortured")
med = bench_util.med


# ----------------------------------------------------------------------- fio
def cmd_fio(args):
    """Jobs start together: aggregate = all bytes / the longest job. With
    verify (fio-verify) a job writes, then reads back and checks: its time
    is the longest write phase (fio's per-direction runtime), as the
    daemon's is its longest write phase, and its CPU per GiB is over all
    it moved, as the daemon's."""
    n, rep, path = args[:3]
    tool = args[3] if len(args) > 3 else "fio"
    try:
        with open(path) as f:
            text = f.read()
        jobs = json.loads(text[text.index("{"):])["jobs"]
    except (OSError, ValueError, KeyError) as e:
        die("%s: not a fio JSON document: %s" % (path, e))
    if len(jobs) != int(n) or any(j.get("error", 0) for j in jobs):
        die("%s: %d jobs, errors %s" % (path, len(jobs),
                                         [j.get("error") for j in jobs]))
    nbytes = sum(j["write"]["io_bytes"] for j in jobs)
    moved = nbytes + sum(j["read"]["io_bytes"] for j in jobs)
    if tool == "fio-verify":	# the write phase, not the check after it
        secs = max(j["write"]["runtime"] for j in jobs) / 1000.0
    else:
        secs = max(j["job_runtime"] for j in jobs) / 1000.0
    cpu = sum((j["usr_cpu"] + j["sys_cpu"]) / 100.0 * j["job_runtime"] /
              1000.0 for j in jobs)
    print("agg\t%s\t%s\t%s\t%d\t%.6f\t%.1f\t%.6f\tnan\tnan" % (
        n, tool, rep, nbytes, secs, nbytes / secs, cpu / (moved / GIB)))


# -------------------------------------------------------------------- daemon
def event_time(o):
    t = datetime.datetime.strptime(o["time"], "%Y-%m-%dT%H:%M:%S.%fZ")
    return t.replace(tzinfo=datetime.timezone.utc).timestamp()


def drive_phases(state, name):
    """{phase: (start, end, bytes, worker cpu)} of one drive's run."""
    path = os.path.join(state, name, "events.jsonl")
    out = {}
    for what, o in bench_util.phase_ends(path).items():
        if o.get("errors", 0):
            die("%s: %s phase reported %s errors" % (path, what, o["errors"]))
        end = event_time(o)
        out[what] = (end - o["seconds"], end, o["bytes"], o["cpu_seconds"])
    if "write" not in out:
        die("%s: no phase_end event for the write" % path)
    return out


def cmd_daemon(args):
    """The time is the longest drive's write phase, from its own start to
    its end, as fio times each job from its own start and reports the
    longest; the span from the first drive's start to the last one's end
    goes beside it. The process's CPU (wait4, all threads,
    exec to exit) is per GiB of everything it moved (write and verify):
    precise where a window of a few hundred ms is not; verify costs less
    per byte than writing, so this is below the figure of a write alone."""
    n, rep, rpath, state = args[:4]
    with open(rpath) as f:
        rc, utime, stime, _ = f.read().split()
    if int(rc) != 0:
        die("the daemon exited with status %s" % rc)
    ph = [drive_phases(state, name) for name in args[4:]]
    w0 = min(p["write"][0] for p in ph)
    w1 = max(p["write"][1] for p in ph)
    longest = max(p["write"][1] - p["write"][0] for p in ph)
    if os.environ.get("SCALE_PHASES"):	# each drive's phases, from w0
        with open(os.environ["SCALE_PHASES"], "a") as f:
            for name, p in zip(args[4:], ph):
                f.write("%s %s %s %s\n" % (n, rep, name, " ".join(
                    "%s %.3f-%.3f" % (k, v[0] - w0, v[1] - w0)
                    for k, v in sorted(p.items(), key=lambda x: x[1][0]))))
    written = sum(p["write"][2] for p in ph)
    moved = sum(x[2] for p in ph for x in p.values())
    worker = sum(p["write"][3] for p in ph)
    print("agg\t%s\tssdtortured\t%s\t%d\t%.6f\t%.1f\t%.6f\t%.6f\t%.6f" % (
        n, rep, written, longest, written / longest,
        (float(utime) + float(stime)) / (moved / GIB),
        worker / (written / GIB), w1 - w0))


# ---------------------------------------------------------------------- live
def wait_started(proc, sock, log, t0, limit=120.0):
    """Seconds from exec to: the socket answering, every drive running,
    every archive file in place, "started:" in the log."""
    seen = {}
    while len(seen) < 4:
        if proc.poll() is not None:
            die("the daemon exited (status %s) while starting" %
                proc.returncode)
        now = time.monotonic() - t0
        if now > limit:
            die("not started after %.0f s: %s" % (limit, sorted(seen)))
        try:
            drives = vl.status(sock)
            now = time.monotonic() - t0     # the answer may have waited
            seen.setdefault("socket", now)
            if all(d["state"] == "running" for d in drives):
                seen.setdefault("running", now)
            files = [(d.get("archive") or {}).get("file") for d in drives]
            if all(f and os.path.exists(f) for f in files):
                seen.setdefault("archives", now)
        except (OSError, vl.Closed, vl.Timeout, ValueError, KeyError):
            pass
        with open(log, errors="replace") as f:
            if "started:" in f.read():
                seen.setdefault("started", now)
        time.sleep(0.01)
    return seen


def run_delay_ms():
    """How long this thread has waited for a CPU so far (schedstat's
    run_delay, ms); None where the kernel does not say."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1]) / 1e6
    except (OSError, ValueError, IndexError):
        return None


def status_latencies(sock, calls):
    """Each call on a new connection, as ssdctl makes it; spread over a
    few seconds so that the calls meet the main loop's ticks. Also each
    call less the time this client waited for a CPU during it (a client
    is a process of its own on a host the I/O keeps busy, and its waits
    are no answer of the daemon's): (latencies, latencies less the
    waits, the longest wait), sorted; the last two empty and None where
    the kernel keeps no schedstat."""
    lat, less, waits = [], [], []
    for _ in range(calls):
        w0 = run_delay_ms()
        t = time.monotonic()
        drives = vl.status(sock)
        ms = (time.monotonic() - t) * 1000.0
        w1 = run_delay_ms()
        lat.append(ms)
        if w0 is not None and w1 is not None:
            less.append(ms - (w1 - w0))
            waits.append(w1 - w0)
        if any(d["state"] != "running" for d in drives):
            die("a drive stopped running: %s" % [
                (d["name"], d["state"], d["reason"]) for d in drives])
        time.sleep(0.02)
    return sorted(lat), sorted(less), max(waits) if waits else None


def p99_of(xs):
    return xs[min(len(xs) - 1, int(len(xs) * 0.99))] if xs else float("nan")


def main_loop(log):
    """The daemon's own measure of its main loop, said at exit: the longest
    turn (ms), the CPU time of that turn (ms) and the turns longer than
    100 ms."""
    with open(log, errors="replace") as f:
        for line in f:
            m = re.search(r"main loop: \d+ turns, the longest ([0-9.]+) ms "
                          r"\(([0-9.]+) ms on the CPU\), (\d+) longer than",
                          line)
            if m:
                return float(m.group(1)), float(m.group(2)), int(m.group(3))
    die("the daemon did not report its main loop at exit (see %s)" % log)


def cmd_live(args):
    n, rep, conf, sock, log, calls = args[:6]
    if args[6] != "--":
        die("usage: live N REP CONF SOCK LOG CALLS -- DAEMON...")
    env = dict(os.environ, SSDTORTURE_LOG="stderr")
    t0 = time.monotonic()
    with open(log, "w") as lf:
        proc = subprocess.Popen(args[7:] + ["-c", conf], stdout=lf,
                                stderr=lf, env=env)
    try:
        seen = wait_started(proc, sock, log, t0)
        lat, less, wait = status_latencies(sock, int(calls))
        with open("/proc/%d/status" % proc.pid) as f:
            rss = [int(l.split()[1]) for l in f if l.startswith("VmRSS:")][0]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    print("live\t%s\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%.2f\t%.2f\t%.2f\t%d\t%d\t"
          "%.1f\t%.1f\t%d\t%.2f\t%.2f" % (
              (n, rep, seen["socket"], seen["running"], seen["archives"],
               seen["started"], med(lat), p99_of(lat), lat[-1], len(lat),
               rss) + main_loop(log) +
              (p99_of(less), wait if wait is not None else float("nan"))))


# -------------------------------------------------------------------- report
def read_results(path):
    agg, live, meta = [], [], {}
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if p[0] == "agg":
                agg.append({"n": int(p[1]), "tool": p[2], "rep": int(p[3]),
                            "bytes": int(p[4]), "seconds": float(p[5]),
                            "bps": float(p[6]), "cpu_gib": float(p[7]),
                            "worker_gib": float(p[8]),
                            "span_s": float(p[9]) if len(p) > 9
                            else float("nan")})
            elif p[0] == "live":
                k = ("socket_s", "running_s", "archives_s", "started_s",
                     "p50_ms", "p99_ms", "max_ms")
                d = {"n": int(p[1]), "rep": int(p[2]), "calls": int(p[10]),
                     "vmrss_kib": int(p[11]), "loop_max_ms": float(p[12]),
                     "loop_max_cpu_ms": float(p[13]),
                     "slow_turns": int(p[14]),
                     "p99_less_wait_ms": float(p[15]) if len(p) > 15
                     else float("nan"),
                     "client_wait_max_ms": float(p[16]) if len(p) > 16
                     else float("nan")}
                d.update({kk: float(v) for kk, v in zip(k, p[3:10])})
                live.append(d)
            elif p[0] == "meta":
                meta[p[1]] = p[2]
    return agg, live, meta


def summarize_agg(agg):
    rows = []
    for n in sorted({a["n"] for a in agg}):
        row = {"drives": n, "tools": {}}
        for tool in TOOLS:
            rs = [a for a in agg if a["n"] == n and a["tool"] == tool]
            if rs:
                row["tools"][tool] = {
                    "runs": len(rs),
                    "mb_per_s": med([a["bps"] / 1e6 for a in rs]),
                    "cpu_s_per_gib": med([a["cpu_gib"] for a in rs]),
                    "worker_s_per_gib": med([a["worker_gib"] for a in rs]),
                    "span_mb_per_s": med([a["bytes"] / a["span_s"] / 1e6
                                          for a in rs]),
                    "samples_mb_per_s": [round(a["bps"] / 1e6, 1)
                                         for a in rs]}
        t = row["tools"]
        row["ratio"], row["ratio_verify"] = (
            t["ssdtortured"]["mb_per_s"] / t[f]["mb_per_s"]
            if "ssdtortured" in t and f in t and t[f]["mb_per_s"] > 0
            else float("nan") for f in ("fio", "fio-verify"))
        row["verdict"] = bench_util.verdict(row["ratio"])
        rows.append(row)
    return rows


def flatness(rows, key):
    """The daemon's CPU s/GiB over the drive counts: (max/min - 1, the
    goal's spread; most/fewest - 1, signed: which way it goes)."""
    xs = [r["tools"]["ssdtortured"][key] for r in rows
          if "ssdtortured" in r["tools"]]
    xs = [x for x in xs if x == x and x > 0]
    if len(xs) < 2:
        return float("nan"), float("nan")
    return max(xs) / min(xs) - 1, xs[-1] / xs[0] - 1


def summarize_live(live):
    """Medians per drive count; memory per drive from the smallest and
    the largest count."""
    out = {}
    for n in sorted({x["n"] for x in live}):
        xs = [x for x in live if x["n"] == n]
        out[n] = {k: med([x[k] for x in xs]) for k in xs[0]
                  if k not in ("n", "rep")}
        out[n]["calls"] = sum(x["calls"] for x in xs)
        out[n]["p99_ms_worst"] = max(x["p99_ms"] for x in xs)
        out[n]["max_ms"] = max(x["max_ms"] for x in xs)
        out[n]["p99_less_wait_worst"] = max(x["p99_less_wait_ms"]
                                            for x in xs)
        out[n]["client_wait_max_ms"] = max(x["client_wait_max_ms"]
                                           for x in xs)
        worst = max(xs, key=lambda x: x["loop_max_ms"])
        out[n]["loop_max_ms"] = worst["loop_max_ms"]
        out[n]["loop_max_cpu_ms"] = worst["loop_max_cpu_ms"]
        out[n]["slow_turns"] = max(x["slow_turns"] for x in xs)
    ns = sorted(out)
    per = float("nan")
    if len(ns) > 1:
        per = (out[ns[-1]]["vmrss_kib"] - out[ns[0]]["vmrss_kib"]) / \
            (ns[-1] - ns[0]) / 1024.0
    return out, per


def goal(ok):
    return "ok" if ok else "NOT MET"


def live_rows(live, per_drive):
    """(figure, measured, goal, verdict) of the running-host goals."""
    if not live:
        return []
    big, small = max(live), min(live)
    x = live[big]
    start = max(x["running_s"], x["archives_s"])
    rows = [
        ("ssdctl status with %d drives running, p50 / p99 / max (%d calls)" %
         (big, x["calls"]), "%.1f / %.1f / %.1f ms" % (
             x["p50_ms"], x["p99_ms_worst"], x["max_ms"]),
         "p99 < %.0f ms" % P99_LIMIT_MS, goal(x["p99_ms_worst"] < P99_LIMIT_MS)),
        ("the same calls less the client's own waits for a CPU during each "
         "(schedstat's run_delay): the daemon's part, p99 (the client's "
         "longest wait in one call)", "%.1f ms (%.1f ms)" % (
             x["p99_less_wait_worst"], x["client_wait_max_ms"]),
         "p99 < %.0f ms" % P99_LIMIT_MS,
         goal(x["p99_less_wait_worst"] < P99_LIMIT_MS)),
        ("main loop's longest turn with %d drives running (the daemon's "
         "own measure, said at exit)" % big, "%.1f ms, %.1f ms of it on the "
         "CPU (%d turns over 100 ms)" % (x["loop_max_ms"],
                                         x["loop_max_cpu_ms"],
                                         x["slow_turns"]),
         "< %.0f ms" % BLOCK_LIMIT_MS, goal(x["loop_max_ms"] < BLOCK_LIMIT_MS)),
        ("start-up of %d drives, fresh state dir, to every drive running "
         "and every archive created" % big,
         "%.2f s (socket %.2f s, started: %.2f s, running %.2f s, archives "
         "%.2f s)" % (start, x["socket_s"], x["started_s"], x["running_s"],
                      x["archives_s"]),
         "< %.0f s" % START_LIMIT_S, goal(start < START_LIMIT_S))]
    if big != small:
        rows.append(("resident memory per drive (VmRSS with %d drives - "
                     "with %d) / %d" % (big, small, big - small),
                     "%.2f MiB (%d and %d KiB)" % (
                         per_drive, live[big]["vmrss_kib"],
                         live[small]["vmrss_kib"]),
                     "< %.0f MiB" % RSS_LIMIT_MIB,
                     goal(per_drive < RSS_LIMIT_MIB)))
    return rows


def print_text(rows, lrows, flat, meta):
    print()
    print("ssdtortured vs %s: N drives at once, 128 KiB sequential writes "
          "QD8, %s per drive" % (meta.get("fio_version", "fio"),
                                 meta.get("size", "?")))
    print("machine: %s; %s; medians of %s runs%s" % (
        bench_util.machine_line(meta), meta.get("date", "?"),
        meta.get("reps", "?"), " (--quick)" if meta.get("quick") == "1"
        else ""))
    print()
    hdr = "%6s %-12s %9s %9s %11s %11s %7s %7s  %s" % (
        "drives", "tool", "MB/s", "span", "CPU s/GiB", "worker", "ratio",
        "ratio v", "")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        for tool in TOOLS:
            if tool not in r["tools"]:
                continue
            x, last = r["tools"][tool], tool == "ssdtortured"
            print("%6s %-12s %9.1f %9s %11.3f %11s %7s %7s  %s" % (
                r["drives"] if tool == "fio" else "", tool, x["mb_per_s"],
                "%.1f" % x["span_mb_per_s"] if last else "",
                x["cpu_s_per_gib"], "%.3f" % x["worker_s_per_gib"]
                if last else "", "%.2f" % r["ratio"] if last else "",
                "%.2f" % r["ratio_verify"] if last else "",
                r["verdict"] if last else ""))
    print()
    print("fio: no verify (the floor; ratio and verdict against it); "
          "fio-verify: --verify=crc32c, each job writes verifiable blocks "
          "then reads them back and checks them, timed by its write phase "
          "(ratio v against it).")
    print("MB/s: all drives' bytes over the longest drive's time, each "
          "timed from its own start, as fio times its jobs; span: "
          "ssdtortured's over the time from the first drive's start to the "
          "last one's end.")
    print("CPU s/GiB: fio = sum of its jobs' (usr+sys)% x runtime, per "
          "GiB moved; ssdtortured = the whole process, exec to exit, per "
          "GiB moved "
          "(write and verify); worker = its I/O threads in the write phase, "
          "per GiB written.")
    print("ssdtortured CPU s/GiB from the fewest to the most drives: "
          "whole process %+.0f %%, worker %+.0f %%; spread (max/min - 1) "
          "%.0f %% and %.0f %% (goal within %.0f %%)" % (
              flat[0][1] * 100, flat[1][1] * 100, flat[0][0] * 100,
              flat[1][0] * 100, FLAT_LIMIT * 100))
    print()
    for fig, val, want, ok in lrows:
        print("%s:\n    %s  (goal %s) %s" % (fig, val, want, ok))


def print_markdown(rows, lrows, flat, meta):
    print()
    print("Markdown (for the README):")
    print()
    print("Machine: %s; %s; date %s; medians of %s runs%s; %s per drive." % (
        bench_util.machine_line(meta), meta.get("fio_version", "fio"),
        meta.get("date", "?"), meta.get("reps", "?"),
        " (--quick)" if meta.get("quick") == "1" else "",
        meta.get("size", "?")))
    print()
    print("| Drives | Tool | MB/s (all drives) | MB/s over the span | "
          "CPU s/GiB | worker s/GiB | ssdtortured/fio | "
          "ssdtortured/fio-verify |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        for tool in TOOLS:
            if tool not in r["tools"]:
                continue
            x, last = r["tools"][tool], tool == "ssdtortured"
            print("| %d | %s | %.0f | %s | %.3f | %s | %s | %s |" % (
                r["drives"], tool, x["mb_per_s"],
                "%.0f" % x["span_mb_per_s"] if last else "",
                x["cpu_s_per_gib"],
                "%.3f" % x["worker_s_per_gib"] if last else "",
                "%.2f" % r["ratio"] if last else "",
                "%.2f" % r["ratio_verify"] if last else ""))
    print()
    print("CPU s/GiB of ssdtortured from the fewest to the most drives: "
          "%+.0f %% (whole process), %+.0f %% (worker threads); spread "
          "(max/min - 1) %.0f %% and %.0f %%." % (
              flat[0][1] * 100, flat[1][1] * 100, flat[0][0] * 100,
              flat[1][0] * 100))
    if lrows:
        print()
        print("| Figure | Measured | Goal |")
        print("|---|---|---|")
        for fig, val, want, ok in lrows:
            print("| %s | %s | %s%s |" % (fig, val, want,
                                         "" if ok == "ok" else " (not met)"))


def cmd_report(args):
    agg, live, meta = read_results(args[0])
    json_out = args[1] if len(args) > 1 and args[1] else None
    rows = summarize_agg(agg)
    flat = (flatness(rows, "cpu_s_per_gib"),
            flatness(rows, "worker_s_per_gib"))
    lsum, per_drive = summarize_live(live)
    lrows = live_rows(lsum, per_drive)
    print_text(rows, lrows, flat, meta)
    print_markdown(rows, lrows, flat, meta)
    if json_out:
        doc = {"machine": bench_util.machine_line(meta),
               "date": meta.get("date"), "fio": meta.get("fio_version"),
               "quick": meta.get("quick") == "1",
               "size_per_drive": meta.get("size"),
               "repetitions": meta.get("reps"), "aggregate": rows,
               "cpu_flatness": {"process": flat[0][0], "worker": flat[1][0]},
               "cpu_change": {"process": flat[0][1], "worker": flat[1][1]},
               "live": {str(k): v for k, v in lsum.items()},
               "rss_mib_per_drive": per_drive,
               "raw": {"aggregate": agg, "live": live}}
        with open(json_out, "w") as f:
            json.dump(doc, f, indent=1, allow_nan=True)
            f.write("\n")
        print()
        print("results written to %s" % json_out)


def main():
    cmds = {"fio": cmd_fio, "daemon": cmd_daemon,
            "live": cmd_live, "report": cmd_report}
    if len(sys.argv) < 2 or sys.argv[1] not in cmds:
        die("usage: scale_util.py %s ARGS..." % "|".join(cmds))
    cmds[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
