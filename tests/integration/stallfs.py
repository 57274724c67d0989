#!/usr/bin/python3
# stallfs.py BACKING MOUNTPOINT FLAG: a FUSE file system with one file,
# "disk", over the file BACKING. While the file FLAG exists, every read and
# write of "disk" waits: a device that stops answering (the host has no
# device-mapper to suspend one), and answers again when FLAG is removed.
# Runs in the foreground until unmounted. Needs python3-fuse (Debian's,
# for /usr/bin/python3).
import errno
import os
import stat
import sys
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

    def write(self, path, buf, offset):
        self.stall()
        return os.pwrite(self.fd, buf, offset)

    def fsync(self, path, datasync):
        return 0

    def flush(self, path):
        return 0


def main():
    backing, mnt, flag = map(os.path.abspath, sys.argv[1:4])
    fs = StallFS()
    fs.flag = flag
    fs.fd = os.open(backing, os.O_RDWR)
    fs.fuse_args.mountpoint = mnt
    fs.fuse_args.setmod("foreground")
    fs.multithreaded = True
    fs.main()


if __name__ == "__main__":
    main()
