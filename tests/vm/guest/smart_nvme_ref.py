"""t_smart: the daemon's NVMe SMART reading (ssdctl --json smart) equals
nvme-cli's smart-log field by field, and the data units written agree
with the bytes the daemon wrote (within 0.1 % and one unit). QEMU's
controller has no OCP C0h log: every OCP figure is unknown (null, not
0), and its source says why.

argv: OURS_JSON NVME_SMART_LOG_JSON HOST_BYTES_WRITTEN
One "ok WHAT" or "bad WHAT" line per check (py_check in lib.sh).
"""
import json, sys
ours = json.load(open(sys.argv[1]))["latest"]
ref = json.load(open(sys.argv[2]))
host = int(sys.argv[3])
def cmp(label, a, b):
    print(("ok" if a == b else "bad"), "%s: ssdtortured %r, nvme-cli %r" % (label, a, b))
cmp("temperature (C)", ours["temperature_c"], int(ref["temperature"]) - 273)
cmp("available spare", ours["available_spare"], int(ref["avail_spare"]))
cmp("spare threshold", ours["spare_threshold"], int(ref["spare_thresh"]))
cmp("percent used", int(ours["percent_used"]), int(ref["percent_used"]))
cmp("critical warning", ours["critical_warning"], int(ref["critical_warning"]))
cmp("media errors", ours["media_errors"], int(ref["media_errors"]))
cmp("data units written", ours["data_units_written"], int(ref["data_units_written"]))
cmp("power cycles", ours["power_cycles"], int(ref["power_cycles"]))
cmp("serial", ours["serial"], "SSDTNVME0001")
units = int(ref["data_units_written"])
# everything on this namespace was written by the daemon in this test
ok = abs(units * 512000 - host) <= host / 1000 + 512000
print(("ok" if ok else "bad"), "data units written x 512000 = %d vs host_bytes_written %d" % (units * 512000, host))
# QEMU refuses log page C0h (Invalid Field): the OCP figures unknown
why = "unknown (no OCP C0h log: the log page is not supported)"
ocp = sorted(k for k in ours if k.startswith("ocp_"))
print(("ok" if len(ocp) == 18 else "bad"), "OCP figures in the reading: %d %r" % (len(ocp), ocp))
for k in ocp:
    print(("ok" if ours[k] is None else "bad"), "%s: %r, expected null" % (k, ours[k]))
    src = ours["sources"].get(k)
    print(("ok" if src == why else "bad"), "%s's source: %r" % (k, src))
