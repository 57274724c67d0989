#!/usr/bin/env python3
"""ssdsim_io.py: timed direct I/O on ssdsim's drive file, for t_ssdsim.

  write FILE OFF_MIB N_MIB SEED [fsync]  1 MiB O_DIRECT writes of seeded
        bytes; prints one line per MiB: "mib seconds"
  check FILE OFF_MIB N_MIB SEED          reads back; prints the MiB that
        differ from the seeded bytes ("ok" when none)
  zeroes FILE OFF LEN                    prints how many bytes of the range
        are not zero
  same FILE OFF LEN SEED                 prints how many bytes of the range
        (inside one MiB) differ from the seeded bytes
  trim FILE OFF LEN                      punches the range (a discard)
  fsync FILE
"""
import ctypes
import mmap
import os
import random
import sys
import time

MIB = 1 << 20
FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE = 1, 2


def seeded(seed, mib):
    """The bytes of one MiB, from the seed and the MiB's index."""
    return random.Random(seed * 1000003 + mib).randbytes(MIB)


def aligned(n):
    return mmap.mmap(-1, n)  # page aligned, as O_DIRECT wants


def do_write(path, off, n, seed, sync):
    fd = os.open(path, os.O_WRONLY | os.O_DIRECT)
    buf = aligned(MIB)
    for i in range(off, off + n):
        buf.seek(0)
        buf.write(seeded(seed, i))
        t0 = time.monotonic()
        if os.pwritev(fd, [buf], i * MIB) != MIB:
            sys.exit("short write at MiB %d" % i)
        print(i, "%.6f" % (time.monotonic() - t0))
    if sync:
        os.fsync(fd)
    os.close(fd)


def do_check(path, off, n, seed):
    fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
    buf = aligned(MIB)
    bad = []
    for i in range(off, off + n):
        if os.preadv(fd, [buf], i * MIB) != MIB or buf[:] != seeded(seed, i):
            bad.append(str(i))
    os.close(fd)
    print(" ".join(bad) if bad else "ok")


def do_zeroes(path, off, length):
    fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
    start, end = off // 4096 * 4096, (off + length + 4095) // 4096 * 4096
    buf = aligned(end - start)
    os.preadv(fd, [buf], start)
    os.close(fd)
    part = buf[off - start:off - start + length]
    print(length - part.count(0))


def read_range(path, off, length):
    fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
    start, end = off // 4096 * 4096, (off + length + 4095) // 4096 * 4096
    buf = aligned(end - start)
    os.preadv(fd, [buf], start)
    os.close(fd)
    return buf[off - start:off - start + length]


def do_same(path, off, length, seed):
    want = seeded(seed, off // MIB)[off % MIB:off % MIB + length]
    got = read_range(path, off, length)
    print(sum(1 for a, b in zip(got, want) if a != b))


def do_trim(path, off, length):
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(path, os.O_WRONLY | os.O_DIRECT)
    rc = libc.fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                        ctypes.c_long(off), ctypes.c_long(length))
    os.close(fd)
    if rc != 0:
        sys.exit("fallocate: %s" % os.strerror(ctypes.get_errno()))


def main():
    a = sys.argv[1:]
    if a[0] == "write":
        do_write(a[1], int(a[2]), int(a[3]), int(a[4]), len(a) > 5)
    elif a[0] == "check":
        do_check(a[1], int(a[2]), int(a[3]), int(a[4]))
    elif a[0] == "zeroes":
        do_zeroes(a[1], int(a[2]), int(a[3]))
    elif a[0] == "same":
        do_same(a[1], int(a[2]), int(a[3]), int(a[4]))
    elif a[0] == "trim":
        do_trim(a[1], int(a[2]), int(a[3]))
    elif a[0] == "fsync":
        fd = os.open(a[1], os.O_WRONLY)
        os.fsync(fd)
        os.close(fd)
    else:
        sys.exit(__doc__)


main()
