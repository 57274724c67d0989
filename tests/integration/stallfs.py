#!/usr/bin/python3
# stallfs.py BACKING MOUNTPOINT FLAG [SLOW_FROM RATE [FAST_RATE]]: a FUSE file system
# with one file, "disk", over the file BACKING. While the file FLAG exists,
# every read and write of "disk" waits: a device that stops answering (the
# host has no device-mapper to suspend one), and answers again when FLAG
# is removed. With SLOW_FROM and RATE, the writes at byte SLOW_FROM and
# past it go at RATE bytes a second in all (however many are in flight),
# the ones before it at FAST_RATE (default: as fast as the host goes): a
# drive whose write cache covers the first SLOW_FROM bytes, with a known
# answer. Runs in the
# foreground until unmounted. Needs python3-fuse (Debian's, for
# /usr/bin/python3).
import errno
import os
import stat
import sys
import threading
import time

import fuse

fuse.fuse_python_api = (0, 2)


class StallFS(fuse.Fuse):
    def getattr(self, path):
        st = fuse.Stat()
        if path == "/":
            st.st_mode = stat.S_IFDIR | 0o755
            st.st_nlink = 2
        elif path == "/disk":
            st.st_mode = stat.S_IFREG | 0o600
            st.st_nlink = 1
            back = os.fstat(self.fd)
            st.st_size = back.st_size
            st.st_blocks = back.st_blocks   # sparse: holds no data yet
        else:
            return -errno.ENOENT
        return st

    def readdir(self, path, offset):
        for name in (".", "..", "disk"):
            yield fuse.Direntry(name)

    def open(self, path, flags):
        return 0 if path == "/disk" else -errno.ENOENT

    def truncate(self, path, size):
        return 0 if size == os.fstat(self.fd).st_size else -errno.EPERM

    def stall(self):
        while os.path.exists(self.flag):
            time.sleep(0.05)

    def read(self, path, size, offset):
        self.stall()
        return os.pread(self.fd, size, offset)

    def pace(self, part, nbytes, rate):
        # a part's writes in turn, each after its share of time
        with self.lock:
            now = time.monotonic()
            self.next_t[part] = max(self.next_t[part], now) + nbytes / rate
            wait = self.next_t[part] - now
        time.sleep(wait)

    def write(self, path, buf, offset):
        self.stall()
        if self.rate and offset + len(buf) > self.slow_from:
            self.pace(1, len(buf), self.rate)
        elif self.fast_rate:
            self.pace(0, len(buf), self.fast_rate)
        return os.pwrite(self.fd, buf, offset)

    def fsync(self, path, datasync):
        return 0

    def flush(self, path):
        return 0


def main():
    backing, mnt, flag = map(os.path.abspath, sys.argv[1:4])
    fs = StallFS()
    fs.flag = flag
    fs.slow_from = int(sys.argv[4]) if len(sys.argv) > 5 else 0
    fs.rate = float(sys.argv[5]) if len(sys.argv) > 5 else 0
    fs.fast_rate = float(sys.argv[6]) if len(sys.argv) > 6 else 0
    fs.lock = threading.Lock()
    fs.next_t = [0.0, 0.0]
    fs.fd = os.open(backing, os.O_RDWR)
    fs.fuse_args.mountpoint = mnt
    fs.fuse_args.setmod("foreground")
    fs.multithreaded = True
    fs.main()


if __name__ == "__main__":
    main()
