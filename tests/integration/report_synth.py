"""t_report: a state directory of a drive with a long history, for the
report's size and speed (issue: a year of archives, a few hundred
checkpoints, written in under 5 s and under 5 MB).

argv: DIR NAME REAL_RRD CKPT_FILE DAYS
  DIR/NAME is made with:
  - state: the keys a report reads (tests/integration/report_dir: the
    state file's format, "key value" lines);
  - events.jsonl: a cycle's routine every hour (phase_start, phase_end)
    for DAYS days, and among them 300 throttle events and 20 verify
    errors, each at a known time;
  - smart.jsonl: a snapshot every 10 TB, percent used rising from 0 to 70
    and the spare falling from 100 to 90 over the run, a rated endurance
    of 3600 TB;
  - checkpoints.jsonl: CKPT_FILE, as ckpt_synth.py wrote it;
  - NAME.rrd: DAYS days of hourly readings of every source of REAL_RRD (an
    archive the daemon made: its sources' names and order), one row an
    hour (the daemon's archive keeps the same for 3 years).
Prints the TB written at the end.
"""
import json, os, re, shutil, subprocess, sys

out, name, real, ckpts, days = sys.argv[1], sys.argv[2], sys.argv[3], \
    sys.argv[4], int(sys.argv[5])
d = os.path.join(out, name)
os.makedirs(d, exist_ok=True)
TB = 10 ** 12
t0 = 1700000000
hours = days * 24
tbw_end = 10 * TB * sum(1 for _ in open(ckpts)) // max(1, len(
    {json.loads(l)["probe"] for l in open(ckpts)}))

state = {"version": 1, "instance": 1, "device": "/dev/disk/by-id/synthetic",
         "serial": "SYNTH0001", "block_size": 1048576,
         "span_bytes": 2 * TB, "run": "running", "phase": "write",
         "cycle": hours, "host_bytes_written": tbw_end,
         "host_bytes_read": tbw_end, "cycles_done": hours - 1,
         "created": t0, "updated": t0 + hours * 3600,
         "checkpoint.done": 300, "probe_bytes_written": 300 * 50 * 10 ** 9}
for c in ("corrupt", "misdirected", "stale", "foreign", "unwritten",
          "io_error", "lost_flush", "torn"):
    state["errors." + c] = 20 if c == "corrupt" else 0
with open(os.path.join(d, "state"), "w") as f:
    f.writelines("%s %s\n" % kv for kv in state.items())


def iso(t):
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(t))


with open(os.path.join(d, "events.jsonl"), "w") as f:
    for h in range(hours):
        t, w = t0 + h * 3600, tbw_end * h // hours
        for ev in ("phase_start", "phase_end"):
            f.write(json.dumps({"event": ev, "time": iso(t), "drive": name,
                                "host_bytes_written": w, "what": "write",
                                "message": "write pass"}) + "\n")
        if h % (hours // 300) == 0:
            f.write(json.dumps({"event": "throttle", "time": iso(t + 60),
                                "drive": name, "host_bytes_written": w,
                                "cause": "temperature limit",
                                "message": "throughput halved at 72 C"}) + "\n")
        if h % (hours // 20) == 7:
            f.write(json.dumps({"event": "verify_error", "time": iso(t + 90),
                                "drive": name, "host_bytes_written": w,
                                "class": "corrupt", "offset": h * 4096,
                                "message": "corrupt at offset %d" % (h * 4096)})
                    + "\n")

n_snap = tbw_end // (10 * TB)
with open(os.path.join(d, "smart.jsonl"), "w") as f:
    for i in range(n_snap + 1):
        w = i * 10 * TB
        smart = {"source": "nvme", "model": "SYNTHETIC NVME 2TB",
                 "serial": "SYNTH0001", "firmware": "1.0",
                 "percent_used": 70 * i // max(1, n_snap),
                 "available_spare": 100 - 10 * i // max(1, n_snap),
                 "temperature_c": 40 + i % 30, "media_errors": i // 100,
                 "device_bytes_written": w, "nand_bytes_written": w * 2}
        f.write(json.dumps({"time": t0 + i * hours * 3600 // max(1, n_snap),
                            "why": "baseline" if i == 0 else "milestone",
                            "host_bytes_written": w, "cycle": i,
                            "write_bytes_per_sec": 1.5e9, "waf": 2.0,
                            "rated_tbw_bytes": 3600 * TB,
                            "smart": smart}) + "\n")
shutil.copy(ckpts, os.path.join(d, "checkpoints.jsonl"))

info = subprocess.run(["rrdtool", "info", real], capture_output=True,
                      text=True, check=True).stdout
names = []
for m in re.finditer(r'^ds\[(\w+)\]\.index = (\d+)', info, re.M):
    names.append((int(m.group(2)), m.group(1)))
names = [n for _, n in sorted(names)]
rrd = os.path.join(d, name + ".rrd")
args = ["rrdtool", "create", rrd, "--start", str(t0 - 3600), "--step", "3600"]
args += ["DS:%s:GAUGE:7200:U:U" % n for n in names]
args += ["RRA:%s:0.5:1:%d" % (cf, hours + 24) for cf in ("AVERAGE", "MIN", "MAX")]
subprocess.run(args, check=True)
vals = {"write_bps": lambda h: 1.5e9, "read_bps": lambda h: 2e8,
        "host_written": lambda h: tbw_end * h / hours,
        "percent_used": lambda h: 70.0 * h / hours,
        "spare": lambda h: 100 - 10.0 * h / hours,
        "temperature": lambda h: 40 + (h % 48) / 2,
        "lat_p99_us": lambda h: 800 + h % 100}
batch = []
for h in range(1, hours + 1):
    batch.append("%d:%s" % (t0 + h * 3600, ":".join(
        "%.6g" % vals.get(n, lambda _: 1)(h) for n in names)))
    if len(batch) == 500 or h == hours:
        subprocess.run(["rrdtool", "update", rrd] + batch, check=True)
        batch = []
print(tbw_end / TB)
