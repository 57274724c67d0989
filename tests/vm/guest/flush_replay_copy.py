"""t_flush_replay: while the daemon runs, copy its state file and events each
time a new state file appears, and set a mark in the log-writes device
(the message "mark mN" to lw, as `dmsetup message lw 0 mark mN` sends it)
first. A copy counts only if the state file is the same inode before the
mark and after the copy (the daemon did not move on in between). The mark
goes through the device-mapper ioctl itself: starting dmsetup takes tens
of milliseconds in a slow guest, long enough for the next cache flush to
come first every time, and a copy is only worth checking when no flush
completed between the checkpoint and its mark.

argv: PID STATEFILE EVENTS SNAPDIR
Copy N goes to SNAPDIR/N/lw/{state,events.jsonl}; SNAPDIR/good lists the
copies that count. Exit status non-zero when a mark cannot be set.
"""
import fcntl, os, shutil, struct, subprocess, sys, time
pid, state, events, snap = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
n, good, seen = 0, [], None
# linux/dm-ioctl.h: struct dm_ioctl (312 bytes), then struct dm_target_msg
DM_IOCTL = "=3IIIIiIIIQ128s129s7s"
DM_TARGET_MSG = (3 << 30) | (struct.calcsize(DM_IOCTL) << 16) | (0xFD << 8) | 14
def mark(name, msg, ctl=[None]):
    """Send `msg` to target 0 of device `name`; dmsetup if the ioctl fails."""
    body = struct.pack("=Q", 0) + msg.encode() + b"\0"
    size = struct.calcsize(DM_IOCTL)
    buf = bytearray(struct.pack(DM_IOCTL, 4, 0, 0, size + len(body), size,
                                0, 0, 0, 0, 0, 0, name.encode(), b"", b"") + body)
    try:
        if ctl[0] is None:
            ctl[0] = os.open("/dev/mapper/control", os.O_RDWR)
        fcntl.ioctl(ctl[0], DM_TARGET_MSG, buf)
    except OSError as e:
        print("mark through the ioctl: %s; dmsetup instead" % e, file=sys.stderr)
        subprocess.run(["dmsetup", "message", name, "0"] + msg.split(), check=True)
def alive():
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(") ", 1)[1][0] not in "ZX"
    except OSError:
        return False
while alive():
    try:
        before = os.stat(state).st_ino
    except OSError:
        before = None
    if before is None or before == seen:
        time.sleep(0.005)
        continue
    seen = before
    n += 1
    mark("lw", "mark m%d" % n)
    d = os.path.join(snap, str(n), "lw")
    os.makedirs(d)
    shutil.copy(state, os.path.join(d, "state"))
    shutil.copy(events, os.path.join(d, "events.jsonl"))
    if os.stat(state).st_ino == before:
        good.append(n)
    else:
        shutil.rmtree(os.path.dirname(d))
with open(os.path.join(snap, "good"), "w") as f:
    f.writelines("%d\n" % g for g in good)
