"""t_ssdctl: `ssdctl --json status` (argv[1]: its output) against the Status reply of the daemon.
Run by pyrun (tests/control/lib.sh), which sets SOCK, T, CONF, DLOG,
DAEMON_PID and SSDCTL in the environment."""
import json, sys
from vl import check, done
try:
    d = json.load(open(sys.argv[1]))
except ValueError as e:
    check(False, "--json status parses", str(e)); done()
check(isinstance(d, dict) and list(d) == ["drives"], "--json status: {\"drives\": [...]}", d)
drives = d.get("drives", [])
check([x.get("name") for x in drives] == ["a", "b"], "--json status: drives a and b", drives)
ints = ("cycle", "host_bytes_written", "host_bytes_read")
nums = ("phase_progress", "write_bytes_per_sec", "read_bytes_per_sec")
strs = ("name", "device", "serial", "state", "phase")
for x in drives:
    for k in strs:
        check(isinstance(x.get(k), str), "--json %s: %s is a string" % (x.get("name"), k), x.get(k))
    for k in ints:
        check(isinstance(x.get(k), int) and not isinstance(x.get(k), bool),
              "--json %s: %s is an integer" % (x.get("name"), k), x.get(k))
    for k in nums:
        check(isinstance(x.get(k), (int, float)) and not isinstance(x.get(k), bool),
              "--json %s: %s is a number" % (x.get("name"), k), x.get(k))
    e = x.get("errors")
    check(isinstance(e, dict) and set(e) == {"corrupt", "misdirected", "stale", "foreign",
                                             "unwritten", "io_error",
                                             "lost_flush", "torn"},
          "--json %s: errors has the eight classes" % x.get("name"), e)
    check("smart" in x and x["smart"] is None, "--json %s: smart is null" % x.get("name"), x)
    check(x.get("state") == "running", "--json %s: running" % x.get("name"), x.get("state"))
done()
