"""t_smart: the daemon's SATA SMART reading (ssdctl --json smart) equals
smartctl --json -a: model, serial, firmware, the same attribute ids, each
attribute's normalized value and raw value, and attribute 5 as
reallocated.

argv: OURS_JSON SMARTCTL_JSON
One "ok WHAT" or "bad WHAT" line per check (py_check in lib.sh).
"""
import json, sys
ours = json.load(open(sys.argv[1]))["latest"]
ref = json.load(open(sys.argv[2]))
def cmp(label, a, b):
    print(("ok" if a == b else "bad"), "%s: ssdtortured %r, smartctl %r" % (label, a, b))
cmp("model", ours["model"], ref["model_name"])
cmp("serial", ours["serial"], ref["serial_number"])
cmp("firmware", ours["firmware"], ref["firmware_version"])
refattrs = {a["id"]: a for a in ref["ata_smart_attributes"]["table"]}
attrs = {a["id"]: a for a in ours.get("attributes", [])}
cmp("attribute ids", sorted(attrs), sorted(refattrs))
for i, a in refattrs.items():
    if i in attrs:
        cmp("attribute %d %s value" % (i, a["name"]), attrs[i]["value"], a["value"])
        cmp("attribute %d %s raw" % (i, a["name"]), attrs[i]["raw"], a["raw"]["value"])
if 5 in refattrs:
    cmp("reallocated", ours["reallocated"], refattrs[5]["raw"]["value"])
