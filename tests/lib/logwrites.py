#!/usr/bin/env python3
"""Read a dm-log-writes log and replay it as a power cut would leave a drive.

The on-disk format is the kernel's (Documentation/admin-guide/device-mapper/
log-writes.rst, drivers/md/dm-log-writes.c): sector 0 holds the super block
(magic, version, nr_entries, sectorsize); each entry takes one sector
(sector, nr_sectors, flags, data_len, then for a mark its name), followed
by nr_sectors sectors of data for a write. Writes are logged when a flush
covers them, so the log reads: writes, flush, writes, flush, ...; a mark
sits where it was set.

    logwrites.py LOG list
        one line per mark: NAME ENTRY FLUSHES_BEFORE
    logwrites.py LOG replay DEV MARK [--seed N] [--omit-in A B]
        zero DEV's first --zero bytes, then write what a drive with a
        volatile cache may hold after a power cut at MARK: every write a
        completed flush covered before MARK, every write acknowledged
        after it before MARK, and a random subset (--seed) of the writes
        the next flush covers (acknowledged, not flushed). --omit-in A B
        leaves out the first flushed write whose bytes start in [A, B): a
        drive that lost a write it had flushed. Prints "kept N" (flushed),
        "volatile M of K", "unflushed U" (written, not flushed: the two
        kinds after the last flush) and "omitted OFFSET" when it did.
"""
import argparse
import os
import random
import struct
import sys

MAGIC = 0x6a736677736872
FLUSH, FUA, DISCARD, MARK = 1, 2, 4, 8
ENTRY = struct.Struct("<QQQQ")


def entries(path):
    """(index, kind, byte offset, length, data position, mark name)."""
    with open(path, "rb") as f:
        magic, version, n, ss = struct.unpack("<QQQI", f.read(28))
        if magic != MAGIC or version != 1:
            sys.exit("%s: not a log-writes log" % path)
        pos = ss
        for i in range(n):
            f.seek(pos)
            raw = f.read(ss)
            sector, nsec, flags, dlen = ENTRY.unpack_from(raw)
            name = raw[32:32 + dlen].decode() if flags & MARK else None
            kind = ("mark" if flags & MARK else "flush" if flags & FLUSH
                    and nsec == 0 else "discard" if flags & DISCARD
                    else "write")
            yield i, kind, sector * ss, nsec * ss, pos + ss, name
            pos += ss + (0 if flags & DISCARD else nsec * ss)


def cmd_list(log):
    flushes = 0
    for i, kind, _, _, _, name in entries(log):
        flushes += kind == "flush"
        if kind == "mark":
            print(name, i, flushes)


def split_at(log, mark):
    """Writes a flush covered before MARK, those acknowledged after the last
    flush before MARK (kept: a FUA write, if any, is durable already), and
    those of the next flush."""
    flushed, pending, group, early, seen = [], [], [], [], False
    for _, kind, off, ln, dpos, name in entries(log):
        if kind == "mark" and name == mark:
            seen = True
            early = group
            group = []
        elif kind == "write":
            group.append((off, ln, dpos))
        elif kind == "flush":
            if seen:
                return flushed, early, group
            flushed += group
            group = []
    if not seen:
        sys.exit("no mark %s in the log" % mark)
    return flushed, early, group


def cmd_replay(a):
    flushed, early, pending = split_at(a.log, a.mark)
    omitted = None
    if a.omit_in is not None:
        lo, hi = a.omit_in
        for w in flushed:
            if lo <= w[0] < hi:
                omitted = w
                break
        if omitted is None:
            sys.exit("no flushed write in [%d, %d)" % (lo, hi))
    rnd = random.Random(a.seed)
    volatile = [w for w in pending if rnd.random() < 0.5]
    fd = os.open(a.dev, os.O_WRONLY)
    zero = bytes(1 << 20)
    for off in range(0, a.zero, len(zero)):
        os.pwrite(fd, zero[:min(len(zero), a.zero - off)], off)
    with open(a.log, "rb") as f:
        for w in flushed + early + volatile:  # in log order: later writes win
            if w is omitted:
                continue
            f.seek(w[2])
            os.pwrite(fd, f.read(w[1]), w[0])
    os.fsync(fd)
    os.close(fd)
    print("kept", len(flushed) - (omitted is not None))
    print("volatile", len(volatile), "of", len(pending))
    print("unflushed", len(early) + len(volatile))
    if omitted is not None:
        print("omitted", omitted[0])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("log")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("list")
    r = sub.add_parser("replay")
    r.add_argument("dev")
    r.add_argument("mark")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--zero", type=int, required=True)
    r.add_argument("--omit-in", type=int, nargs=2)
    a = p.parse_args()
    if a.cmd == "list":
        cmd_list(a.log)
    else:
        cmd_replay(a)


if __name__ == "__main__":
    main()
