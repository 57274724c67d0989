#!/usr/bin/env python3
"""bench_util.py: helpers of bench/bench.sh (standard library only).

Subcommands:
  excl-wait DEV SECONDS      wait until DEV can be opened with O_EXCL
  run OUTFILE -- CMD...      run CMD, write "rc utime stime wall" to OUTFILE
  fio ROW REP FILE read|write    one result line from a fio JSON file
  events ROW REP PHASE FILE  one result line from an events.jsonl phase_end
  report RESULTS [JSONFILE]  the tables (text and Markdown), the JSON file

A result line (tab-separated), as appended to the results file:
  res ROW TOOL REP BYTES SECONDS BYTES_PER_SEC IOPS CPU_SECONDS
"""
import errno
import json
import os
import signal
import statistics
import subprocess
import sys
import time

GIB = 1 << 30


def die(msg):
    sys.stderr.write("bench_util: %s\n" % msg)
    sys.exit(1)


# ----------------------------------------------------------------- excl-wait
def cmd_excl_wait(args):
    """A device closed by an exiting io_uring user is released only when
    the kernel tears the ring down, a little later: wait for it."""
    dev, limit = args[0], float(args[1])
    t0 = time.monotonic()
    while True:
        try:
            fd = os.open(dev, os.O_RDONLY | os.O_EXCL | os.O_CLOEXEC)
            os.close(fd)
            break
        except OSError as e:
            if e.errno != errno.EBUSY:
                die("%s: %s" % (dev, e.strerror))
            if time.monotonic() - t0 > limit:
                die("%s: still busy after %.0f s" % (dev, limit))
            time.sleep(0.005)
    print("%.3f" % (time.monotonic() - t0))


# ----------------------------------------------------------------------- run
def cmd_run(args):
    """Run a command; its exit code and CPU time (user, system) go to a
    file. SIGTERM and SIGINT are passed on to the command."""
    out = args[0]
    if len(args) < 3 or args[1] != "--":
        die("usage: run OUTFILE -- CMD...")
    t0 = time.monotonic()
    child = subprocess.Popen(args[2:])

    def fwd(sig, _frame):
        try:
            child.send_signal(sig)
        except ProcessLookupError:
            pass

    signal.signal(signal.SIGTERM, fwd)
    signal.signal(signal.SIGINT, fwd)
    _, status, ru = os.wait4(child.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    child.returncode = rc
    with open(out, "w") as f:
        f.write("%d %.6f %.6f %.6f\n" % (rc, ru.ru_utime, ru.ru_stime,
                                         time.monotonic() - t0))
    sys.exit(0)


# ----------------------------------------------------------------------- fio
def cmd_fio(args):
    row, rep, path, ddir = args
    try:
        with open(path) as f:
            text = f.read()
        # fio may print notes before the JSON document
        d = json.loads(text[text.index("{"):])
    except (OSError, ValueError) as e:
        die("%s: not a fio JSON document: %s" % (path, e))
    j = d["jobs"][0]
    if j.get("error", 0) != 0:
        die("%s: fio job error %s" % (path, j["error"]))
    s = j[ddir]
    runtime_ms = j.get("job_runtime") or s["runtime"]
    cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100.0 * runtime_ms / 1000.0
    print("res\t%s\tfio\t%s\t%d\t%.6f\t%.1f\t%.1f\t%.6f" % (
        row, rep, s["io_bytes"], s["runtime"] / 1000.0, s["bw_bytes"],
        s["iops"], cpu))


# -------------------------------------------------------------------- events
def phase_ends(path):
    out = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if o.get("event") == "phase_end":
                out[o.get("what")] = o
    return out


def cmd_events(args):
    row, rep, phase, path = args
    try:
        ev = phase_ends(path)
    except OSError as e:
        die("%s: %s" % (path, e.strerror))
    if phase not in ev:
        die("%s: no phase_end event for '%s'" % (path, phase))
    o = ev[phase]
    if o.get("errors", 0):
        die("%s: %s phase reported %s errors" % (path, phase, o["errors"]))
    print("res\t%s\tssdtortured\t%s\t%d\t%.6f\t%.1f\t%.1f\t%.6f" % (
        row, rep, o["bytes"], o["seconds"], o["bytes_per_sec"], o["iops"],
        o["cpu_seconds"]))


# -------------------------------------------------------------------- report
ROWS = {
    "1": "4 KiB random write, QD32",
    "2": "4 KiB read and verify, QD32",
    "3": "128 KiB sequential write, QD8",
    "4": "128 KiB sequential read and verify, QD8",
}
# The goal: ssdtortured (verification headers on) at least as fast
# as fio without verify.
GOAL = 1.0


def read_results(path):
    res, proc, rss, meta = [], [], {}, {}
    with open(path) as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if p[0] == "res":
                res.append({"row": p[1], "tool": p[2], "rep": int(p[3]),
                            "bytes": int(p[4]), "seconds": float(p[5]),
                            "bps": float(p[6]), "iops": float(p[7]),
                            "cpu": float(p[8])})
            elif p[0] == "proc":
                # proc CONFIG REP BYTES_MOVED PROC_CPU WORKER_CPU WAIT
                proc.append({"config": p[1], "rep": int(p[2]),
                             "bytes": int(p[3]), "proc_cpu": float(p[4]),
                             "worker_cpu": float(p[5]),
                             "excl_wait": float(p[6])})
            elif p[0] == "rss":
                rss[p[1]] = {"vmhwm_kib": int(p[2]), "vmrss_kib": int(p[3]),
                             "on_disk_bytes": int(p[4])}
            elif p[0] == "meta":
                meta[p[1]] = p[2]
    return res, proc, rss, meta


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def verdict(ratio):
    if ratio != ratio:
        return "n/a"
    return "below goal" if ratio < GOAL else "ok"


def machine_line(meta):
    """The machine a results file was measured on, from its meta lines
    (written by bench/lib/common.sh's machine_meta)."""
    return "%s, %s CPUs, kernel %s" % (meta.get("cpu", "?"),
                                       meta.get("nproc", "?"),
                                       meta.get("kernel", "?"))


def cmd_report(args):
    path = args[0]
    json_out = args[1] if len(args) > 1 and args[1] else None
    res, proc, rss, meta = read_results(path)
    summary = []
    for row in sorted(ROWS):
        entry = {"row": int(row), "what": ROWS[row] + " " +
                 meta.get("span%s" % row, ""), "tools": {}}
        for tool in ("fio", "ssdtortured"):
            rs = [r for r in res if r["row"] == row and r["tool"] == tool]
            if not rs:
                continue
            mbps = [r["bps"] / 1e6 for r in rs]
            entry["tools"][tool] = {
                "runs": len(rs),
                "mb_per_s": med(mbps),
                "mb_per_s_min": min(mbps),
                "mb_per_s_max": max(mbps),
                "iops": med([r["iops"] for r in rs]),
                "cpu_s_per_gib": med([r["cpu"] / (r["bytes"] / GIB)
                                      for r in rs if r["bytes"] > 0]),
                "samples_mb_per_s": [round(x, 1) for x in mbps],
            }
        t = entry["tools"]
        if "fio" in t and "ssdtortured" in t and t["fio"]["mb_per_s"] > 0:
            entry["ratio"] = t["ssdtortured"]["mb_per_s"] / \
                t["fio"]["mb_per_s"]
        else:
            entry["ratio"] = float("nan")
        entry["verdict"] = verdict(entry["ratio"])
        summary.append(entry)

    machine = machine_line(meta)
    reps = meta.get("reps", "?")
    # ---------------------------------------------------------- text table
    print()
    print("ssdtortured vs %s on a loop device (direct I/O) over tmpfs" %
          meta.get("fio_version", "fio"))
    print("machine: %s; %s; medians of %s runs" % (machine,
                                                   meta.get("date", "?"),
                                                   reps))
    print("fio: %s" % meta.get("fio_opts", ""))
    print()
    hdr = "%-3s %-52s %-12s %9s %17s %10s %10s %8s  %s" % (
        "row", "workload", "tool", "MB/s", "(min-max)", "IOPS",
        "CPU s/GiB", "ratio", "")
    print(hdr)
    print("-" * len(hdr))
    for e in summary:
        first = True
        for tool in ("fio", "ssdtortured"):
            if tool not in e["tools"]:
                continue
            x = e["tools"][tool]
            last = tool == "ssdtortured"
            print("%-3s %-52s %-12s %9.1f %17s %10.0f %10.3f %8s  %s" % (
                e["row"] if first else "", e["what"] if first else "", tool,
                x["mb_per_s"], "(%.0f-%.0f)" % (x["mb_per_s_min"],
                                                x["mb_per_s_max"]),
                x["iops"], x["cpu_s_per_gib"],
                "%.2f" % e["ratio"] if last else "",
                e["verdict"] if last else ""))
            first = False
    print()
    print("ratio = ssdtortured MB/s / fio MB/s (ssdtortured with "
          "verification headers, fio without verify; goal >= %.1f)." % GOAL)
    print("CPU s/GiB: fio = (usr_cpu+sys_cpu)% x job runtime; ssdtortured = "
          "CPU time of the I/O worker thread in that phase.")

    notes = []
    for cfg, label in (("4k", "4 KiB config (rows 1 and 2)"),
                       ("128k", "128 KiB config (rows 3 and 4)")):
        ps = [p for p in proc if p["config"] == cfg]
        if not ps:
            continue
        w = med([p["worker_cpu"] / (p["bytes"] / GIB) for p in ps])
        a = med([p["proc_cpu"] / (p["bytes"] / GIB) for p in ps])
        notes.append((label, w, a))
    if notes:
        print()
        print("ssdtortured whole-process CPU (all threads, start to exit, "
              "wait4 rusage) vs worker thread, per GiB moved "
              "(write + verify):")
        for label, w, a in notes:
            print("  %-42s worker %.3f s/GiB, whole process %.3f s/GiB "
                  "(+%.0f%%)" % (label, w, a,
                                 (a / w - 1) * 100 if w > 0 else 0))
    waits = [p["excl_wait"] for p in proc]
    if waits and max(waits) > 0.001:
        print("  note: before %d of %d daemon runs the loop device was still "
              "held exclusively after the previous run had exited (longest "
              "wait %.3f s)" % (sum(1 for w in waits if w > 0.001),
                                len(waits), max(waits)))

    # ---------------------------------------------------------------- RSS
    rss_ok = None
    if "1T" in rss and "1G" in rss:
        big, small = rss["1T"]["vmhwm_kib"], rss["1G"]["vmhwm_kib"]
        diff = big - small
        rss_ok = abs(diff) < 1024
        print()
        print("daemon peak RSS (VmHWM before SIGTERM; file target on "
              "/var/tmp, 128k sequential QD32, %s s):" %
              meta.get("rss_secs", "?"))
        print("  1 TiB sparse file: %6d KiB  (%.1f GB on disk at the end)" %
              (big, rss["1T"]["on_disk_bytes"] / 1e9))
        print("  1 GiB file:        %6d KiB  (%.1f GB on disk at the end)" %
              (small, rss["1G"]["on_disk_bytes"] / 1e9))
        print("  difference:        %+6d KiB  (requirement: < 1 MiB) %s" %
              (diff, "ok" if rss_ok else "DEFECT"))

    # ----------------------------------------------------------- Markdown
    print()
    print("Markdown (for the README):")
    print()
    print("Machine: %s; %s; date %s; medians of %s runs." % (
        machine, meta.get("fio_version", "fio"), meta.get("date", "?"),
        reps))
    print("Target: a loop device (direct I/O) over a file in tmpfs; "
          "fio %s." % meta.get("fio_opts", ""))
    print()
    print("| Row | Workload | Tool | MB/s | IOPS | CPU s/GiB | "
          "ssdtortured/fio |")
    print("|---|---|---|---:|---:|---:|---:|")
    for e in summary:
        for tool in ("fio", "ssdtortured"):
            if tool not in e["tools"]:
                continue
            x = e["tools"][tool]
            last = tool == "ssdtortured"
            rt = ""
            if last:
                rt = "%.2f" % e["ratio"]
                if e["verdict"] == "below goal":
                    rt += " (below goal)"
            print("| %s | %s | %s | %.0f | %.0f | %.3f | %s |" % (
                e["row"], e["what"], tool, x["mb_per_s"], x["iops"],
                x["cpu_s_per_gib"], rt))
    if rss_ok is not None:
        print()
        print("Peak RSS (VmHWM): %d KiB on a 1 TiB sparse file, %d KiB on a "
              "1 GiB file (difference %+d KiB)." % (big, small, diff))

    if json_out:
        doc = {"machine": {"cpu": meta.get("cpu"), "nproc": meta.get("nproc"),
                           "kernel": meta.get("kernel")},
               "date": meta.get("date"), "fio": meta.get("fio_version"),
               "fio_options": meta.get("fio_opts"), "repetitions": reps,
               "quick": meta.get("quick") == "1", "rows": summary,
               "daemon_process_cpu": [
                   {"config": l, "worker_s_per_gib": w,
                    "process_s_per_gib": a} for l, w, a in notes],
               "rss_kib": {k: v for k, v in rss.items()},
               "raw": res}
        if rss_ok is not None:
            doc["rss_diff_kib"] = diff
        with open(json_out, "w") as f:
            json.dump(doc, f, indent=1, allow_nan=True)
            f.write("\n")
        print()
        print("results written to %s" % json_out)


def main():
    if len(sys.argv) < 2:
        die("usage: bench_util.py SUBCOMMAND ARGS...")
    cmds = {"excl-wait": cmd_excl_wait, "run": cmd_run, "fio": cmd_fio,
            "events": cmd_events, "report": cmd_report}
    fn = cmds.get(sys.argv[1])
    if fn is None:
        die("unknown subcommand %s" % sys.argv[1])
    fn(sys.argv[2:])


if __name__ == "__main__":
    main()
