"""t_metrics: the textfile that metrics_write made for the synthetic drives
of drv.c holds exactly their values: label escaping and invalid UTF-8
replaced, u64 max, NaN and infinities, one sample per state and phase,
SMART ratios, the absent SMART figures left out; and it passes
promcheck.py.

argv: IT_DIR PROMFILE
Each difference on stdout; exit status 1 when any.
"""
import math, sys
sys.path.insert(0, sys.argv[1])
import promcheck
fams, problems = promcheck.check(open(sys.argv[2], encoding="utf-8").read())
bad = list(problems)
def val(fam, drive, **extra):
    got = [v for _, l, v in fams["ssdtorture_" + fam].samples
           if l["drive"] == drive and all(l.get(k) == x for k, x in extra.items())]
    return got[0] if len(got) == 1 else ("%d samples" % len(got))
def eq(what, a, b):
    same = (isinstance(a, float) and isinstance(b, float) and math.isnan(a)
            and math.isnan(b)) or a == b
    if not same:
        bad.append("%s: %r, expected %r" % (what, a, b))
lab = [l for _, l, _ in fams["ssdtorture_cycle"].samples if l["drive"] == "a"][0]
eq("serial escaped", lab["serial"], 'S\\N"1\n2')
eq("model (invalid UTF-8 replaced)", lab["model"], "M\ufffd\ufffdod\u00e9l \u20ac")
eq("u64 max", val("host_written_bytes_total", "a"), float(2**64 - 1))
eq("NaN", val("read_bytes_per_second", "a"), math.nan)
eq("+Inf", val("write_bytes_per_second", "b"), math.inf)
eq("-Inf", val("read_bytes_per_second", "b"), -math.inf)
eq("corrupt", val("verify_errors_total", "a", **{"class": "corrupt"}), 7)
eq("io_error", val("verify_errors_total", "a", **{"class": "io_error"}), 1)
eq("no 'ok' class", [l for _, l, _ in fams["ssdtorture_verify_errors_total"].samples
    if l["class"] == "ok"], [])
# torn blocks (writes a crash cut) are no verify errors: a family apart
eq("no 'torn' class", [l for _, l, _ in fams["ssdtorture_verify_errors_total"].samples
    if l["class"] == "torn"], [])
eq("torn", val("torn_blocks_total", "a"), 5)
eq("torn b", val("torn_blocks_total", "b"), 0)
eq("phase", val("phase_info", "a", phase="verify"), 1)
eq("phase none", val("phase_info", "b", phase="none"), 1)
for d, hot in (("a", "running"), ("b", "refused"), ("c", "failed")):
    for s in ("running", "paused", "stopped", "finished", "failed", "refused"):
        eq("state %s of %s" % (s, d), val("state", d, state=s), 1 if s == hot else 0)
eq("percent used", val("smart_percentage_used_ratio", "a"), 2.55)
eq("percent used c", val("smart_percentage_used_ratio", "c"), 0.03)
eq("spare", val("smart_available_spare_ratio", "a"), 0.05)
eq("temperature", val("smart_temperature_celsius", "a"), -3)
eq("media errors", val("smart_media_errors_total", "a"), float(2**64 - 1))
eq("critical warning", val("smart_critical_warning", "a"), 4)
eq("waf", val("smart_write_amplification", "a"), 1.0000000000000002)
eq("null nand", "ssdtorture_smart_nand_written_bytes_total" in fams, False)
# the OCP C0h figures of a (1000 + the figure's index in smart.h's
# enum ocp_fig), none of the drives without the log
for k, fam in ((1, "media_read_bytes_total"), (2, "bad_user_blocks"),
               (3, "bad_user_blocks_normalized"), (4, "bad_system_blocks"),
               (5, "bad_system_blocks_normalized"),
               (6, "xor_recoveries_total"), (7, "uncorrectable_reads_total"),
               (8, "soft_ecc_errors_total"), (9, "e2e_detected_errors_total"),
               (10, "e2e_corrected_errors_total"),
               (12, "erase_count_max"), (13, "erase_count_min"),
               (14, "throttling_events"), (15, "throttling_status"),
               (16, "log_version")):
    want = float(2**64 - 1) if k == 1 else 1000 + k
    eq("ocp " + fam, val("smart_ocp_" + fam, "a"), want)
    eq("ocp %s of c: none" % fam, val("smart_ocp_" + fam, "c"), "0 samples")
eq("ocp system data used", val("smart_ocp_system_data_used_ratio", "a"), 0.37)
eq("null reallocated", "ssdtorture_smart_reallocated_sectors_total" in fams, False)
eq("no SMART of b", [f for f in fams if "smart" in f and any(
    l["drive"] == "b" for _, l, _ in fams[f].samples)], [])
eq("capacity", val("capacity_bytes", "a"), 2**40)
eq("rated", val("rated_written_bytes", "a"), 6e14)
eq("no rated of c (not given)", [l for _, l, _ in
    fams["ssdtorture_rated_written_bytes"].samples if l["drive"] == "c"], [])
eq("TMT1 transitions", val("smart_thermal_transitions_total", "a", level="1"), 3)
eq("TMT2 transitions", val("smart_thermal_transitions_total", "a", level="2"), 0)
eq("TMT1 seconds", val("smart_thermal_seconds_total", "a", level="1"), 120)
eq("TMT2 seconds", val("smart_thermal_seconds_total", "a", level="2"), 2**32 - 1)
eq("no thermal of c (not reported)", [l for _, l, _ in
    fams["ssdtorture_smart_thermal_seconds_total"].samples if l["drive"] == "c"], [])
for fam, want in (("main_loop_turns_total", 1000), ("main_loop_slow_turns_total", 2),
                  ("main_loop_longest_turn_seconds", 0.123456789)):
    f = fams.get("ssdtorture_" + fam)
    eq(fam, [(l, v) for _, l, v in f.samples] if f else None, [({}, want)])
for b in bad:
    print("  " + b)
sys.exit(1 if bad else 0)
