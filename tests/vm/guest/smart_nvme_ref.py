"""t_smart: the daemon's NVMe SMART reading (ssdctl --json smart) equals
nvme-cli's smart-log field by field, and the data units written agree
with the bytes the daemon wrote (within 0.1 % and one unit).

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
