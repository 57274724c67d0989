"""t_ckpt_views: a plausible checkpoints.jsonl (the results file of
performance checkpoints) for N checkpoints, one line per probe per
checkpoint, in the suite's order.

argv: PROBES_JSON OUT N
  PROBES_JSON: the output of `ssdctl --json probes` (ids, families,
  titles and fio options: the workload fields are read from these)

Checkpoint k (1-based) is at host_bytes_written (k - 1) * 10 TB (so the
headings read 0.00 TB, 10.0 TB, 20.0 TB, ...). Figures, for the probe at
index i of the suite:
  - IOPS at checkpoint k: (20000 + 1000 i) * (1 - 0.01 (k - 1)), split
    between the directions by the read share; bytes per second: IOPS times
    the probe's mean block size;
  - p99.9: (100 + 5 i) * (1 + 0.02 (k - 1)) us per direction.
Known values the test checks:
  - rand-read-4k-qd32 (index 6) at checkpoint 1: 26000 IOPS;
  - every 512 B probe is "skipped" (a 4 KiB logical block);
  - rand-write-4k-qd32: at the last checkpoint its IOPS are 0.7 times the
    baseline's: flags ["throughput"];
  - rand-read-4k-qd1: at the last checkpoint its p99.9 is 3 times the
    baseline's: flags ["latency"];
  - temperature_start is null at checkpoint 2 (no SMART reading).
"""
import json, re, sys

probes = json.load(open(sys.argv[1]))
out, n = sys.argv[2], int(sys.argv[3])
TB = 10 ** 12


def size(s):
    return int(s[:-1]) * 1024 if s.endswith("k") else int(s)


def workload(p):
    o = dict(re.findall(r"--(\w+)=(\S+)", p["fio"]))
    w = {"rw": o["rw"], "queue_depth": int(o["iodepth"]),
         "workers": int(o["numjobs"])}
    if "bssplit" in o:
        w["split"] = [[size(a), int(b)] for a, b in
                      (x.split("/") for x in o["bssplit"].split(":"))]
    else:
        w["block_size"] = size(o["bs"])
    rw = o["rw"]
    w["read_percent"] = int(o["rwmixread"]) if "rwmixread" in o else \
        100 if rw in ("read", "randread") else 0
    w["random_percent"] = 0 if not rw.startswith("rand") else \
        int(o.get("percentage_random", 100))
    w["region_bytes"] = 32 << 30
    w["unit"] = 4096
    return w


def mean_bs(w):
    if "split" in w:
        return sum(s * wt for s, wt in w["split"]) / 100.0
    return w["block_size"]


def figures(i, k, p, w):
    iops = (20000 + 1000 * i) * (1 - 0.01 * (k - 1))
    p999 = (100 + 5 * i) * (1 + 0.02 * (k - 1))
    if k == n and k > 1 and p["id"] == "rand-write-4k-qd32":
        iops = (20000 + 1000 * i) * 0.7
    if k == n and k > 1 and p["id"] == "rand-read-4k-qd1":
        p999 = (100 + 5 * i) * 3
    rp = w["read_percent"]
    f = {"read_iops": iops * rp / 100.0, "write_iops": iops * (100 - rp) / 100.0}
    f["read_bytes_per_sec"] = f["read_iops"] * mean_bs(w)
    f["write_bytes_per_sec"] = f["write_iops"] * mean_bs(w)
    for d, share in (("read", rp), ("write", 100 - rp)):
        if share > 0:
            f[d + "_lat_us"] = {"mean": p999 / 4, "p50": p999 / 5, "p90": p999 / 3,
                                "p99": p999 / 2, "p99.9": p999, "p99.99": p999 * 2,
                                "max": p999 * 10}
    f["errors"] = 0
    f["error_classes"] = {}
    return f


def compare(f, b):
    t = (f["read_bytes_per_sec"] + f["write_bytes_per_sec"]) / \
        (b["read_bytes_per_sec"] + b["write_bytes_per_sec"])
    hi = lambda x: max(x[d]["p99.9"] for d in ("read_lat_us", "write_lat_us") if d in x)
    l = hi(f) / hi(b)
    flags = (["throughput"] if t < 0.8 else []) + (["latency"] if l > 2 else [])
    return {"throughput": t, "p99.9": l}, flags


base = {}
with open(out, "w") as fp:
    for k in range(1, n + 1):
        start = 1700000000 + k * 86400
        for i, p in enumerate(probes):
            w = workload(p)
            line = {"checkpoint": k, "time": start + 45 * (i + 1), "started": start,
                    "host_bytes_written": (k - 1) * 10 * TB,
                    "probe_bytes_written": (k - 1) * 50 * 10 ** 9, "cycle": 3 * k,
                    "percent_used_start": k, "percent_used_end": k,
                    "temperature_start": None if k == 2 else 40,
                    "temperature_end": 44, "probe": p["id"], "family": p["family"],
                    "title": p["title"]}
            line.update(w)
            if w.get("block_size") == 512:
                line["skipped"] = "512 B I/O on a 4096 B logical block"
            else:
                line["seconds"] = 40.0
                line["ramp_seconds"] = 5.0
                f = figures(i, k, p, w)
                line.update(f)
                if p["id"] in base:
                    line["baseline"] = 1
                    line["vs_baseline"], line["flags"] = compare(f, base[p["id"]])
                else:
                    base[p["id"]] = f
                    line["flags"] = []
            fp.write(json.dumps(line) + "\n")
