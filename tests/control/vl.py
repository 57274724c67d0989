#!/usr/bin/env python3
"""vl.py: a raw Varlink client for the control-plane tests of ssdtortured.

Used two ways:

  * as a module (the tests run python snippets with this directory on
    sys.path): Conn speaks the wire protocol byte for byte (one JSON object
    per message, each ended by a NUL), with timeouts on every read, and the
    check()/done() helpers count failures the way lib.sh does;

  * from the shell:
      vl.py call SOCKET METHOD [PARAMS_JSON] [--more N] [--oneway] [--timeout S]
          send one call, print each reply as one line of JSON; exit 0 when
          the (last) reply is not an error, 3 when it is, 1 on a transport
          problem (cannot connect, timeout, connection closed)
      vl.py raw SOCKET TEXT [--timeout S]
          send TEXT plus a NUL exactly as given, print the reply line
      vl.py get PATH [DEFAULT]
          read JSON from stdin, print the value at PATH ("a.b.0.c"); strings
          bare, everything else as JSON
      vl.py wait SOCKET [--timeout S]
          wait until GetInfo on SOCKET answers; exit 0, or 1 on timeout
"""

import errno
import json
import os
import select
import socket
import sys
import time

SERVICE = "org.varlink.service"
IFACE = "io.ssdtorture.Manager"


class Closed(Exception):
    """The server closed the connection (EOF or reset)."""


class Timeout(Exception):
    """No complete message arrived in time."""


class Conn:
    """One client connection to the control socket."""

    def __init__(self, path, timeout=5.0):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(path)
        self.sock.setblocking(False)
        self.buf = b""
        self.eof = False

    def fileno(self):
        return self.sock.fileno()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()

    # ------------------------------------------------------------ sending

    def send_raw(self, data, timeout=5.0):
        """Send bytes as they are (no NUL added). Raises Closed on EPIPE."""
        if isinstance(data, str):
            data = data.encode()
        end = time.monotonic() + timeout
        view = memoryview(data)
        while view:
            left = end - time.monotonic()
            if left <= 0:
                raise Timeout("send of %d bytes timed out" % len(data))
            _, w, _ = select.select([], [self.sock], [], left)
            if not w:
                continue
            try:
                n = self.sock.send(view)
            except BlockingIOError:
                continue
            except (BrokenPipeError, ConnectionResetError) as e:
                raise Closed(str(e))
            view = view[n:]

    def send(self, method, params=None, more=False, oneway=False,
             extra=None):
        msg = {"method": method}
        if params is not None:
            msg["parameters"] = params
        if more:
            msg["more"] = True
        if oneway:
            msg["oneway"] = True
        if extra:
            msg.update(extra)
        self.send_raw(json.dumps(msg).encode() + b"\0")

    # ------------------------------------------------------------ receiving

    def _fill(self, deadline):
        """Read what is there; False on timeout. Raises Closed on EOF."""
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        r, _, _ = select.select([self.sock], [], [], left)
        if not r:
            return False
        try:
            data = self.sock.recv(1 << 20)
        except BlockingIOError:
            return True
        except ConnectionResetError:
            data = b""
        if not data:
            self.eof = True
            raise Closed("connection closed by the server")
        self.buf += data
        return True

    def recv_raw(self, timeout=5.0):
        """One message's bytes, without its NUL."""
        deadline = time.monotonic() + timeout
        while b"\0" not in self.buf:
            if self.eof:
                raise Closed("connection closed by the server")
            if not self._fill(deadline):
                raise Timeout("no reply within %.1f s" % timeout)
        msg, _, self.buf = self.buf.partition(b"\0")
        return msg

    def recv(self, timeout=5.0):
        return json.loads(self.recv_raw(timeout).decode())

    def call(self, method, params=None, timeout=5.0, **kw):
        self.send(method, params, **kw)
        return self.recv(timeout)

    def nothing_within(self, timeout):
        """True when no byte at all arrives within timeout (and no EOF)."""
        if self.buf:
            return False
        r, _, _ = select.select([self.sock], [], [], timeout)
        return not r

    def drain(self, timeout):
        """Everything that arrives within timeout (buffered bytes too)."""
        deadline = time.monotonic() + timeout
        try:
            while self._fill(deadline):
                pass
        except Closed:
            pass
        data, self.buf = self.buf, b""
        return data

    def closed_within(self, timeout, keep=False):
        """Wait for EOF; data that comes first is kept in self.buf (or
        dropped). Returns the seconds it took, or None on timeout."""
        t0 = time.monotonic()
        deadline = t0 + timeout
        if self.eof:
            return 0.0
        while True:
            try:
                if not self._fill(deadline):
                    return None
                if not keep:
                    self.buf = b""
            except Closed:
                return time.monotonic() - t0


def call(path, method, params=None, timeout=5.0, **kw):
    """Connect, call once, return the first reply, close."""
    with Conn(path, timeout) as c:
        return c.call(method, params, timeout=timeout, **kw)


def is_error(reply, name=None):
    if "error" not in reply:
        return False
    if name is None:
        return True
    if "." not in name:
        name = (SERVICE if name in ("InterfaceNotFound", "MethodNotFound",
                                    "MethodNotImplemented",
                                    "InvalidParameter", "PermissionDenied")
                else IFACE) + "." + name
    return reply["error"] == name


def wait_ready(path, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            r = call(path, SERVICE + ".GetInfo", timeout=1.0)
            if "parameters" in r and "error" not in r:
                return True
        except (OSError, Closed, Timeout, ValueError):
            pass
        time.sleep(0.05)
    return False


# ---------------------------------------------------------------- checks

FAILS = 0
CHECKS = 0


def check(cond, what, detail=None):
    """Record one check; print failures (with detail), and with CT_VERBOSE
    the checks that held, in the lines of tests/lib/assert.sh."""
    global FAILS, CHECKS
    if cond:
        CHECKS += 1
        if os.environ.get("CT_VERBOSE", "0") not in ("", "0"):
            print("   ok    %s" % what)
    else:
        FAILS += 1
        msg = "   FAIL  %s" % what
        if detail is not None:
            d = detail if isinstance(detail, str) else json.dumps(detail)
            d = d.replace("\0", "\\0")
            if len(d) > 600:
                d = d[:600] + "..."
            msg += " -- " + d
        print(msg)
    sys.stdout.flush()
    return bool(cond)


def done():
    """End of a python section: exit 1 if any check failed."""
    print("  (%d checks passed, %d failed)" % (CHECKS, FAILS))
    sys.stdout.flush()
    sys.exit(1 if FAILS else 0)


def poll(fn, timeout=10.0, interval=0.1):
    """Call fn until it returns a true value; that value, or None."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            v = fn()
        except (OSError, Closed, Timeout, ValueError, KeyError):
            v = None
        if v:
            return v
        if time.monotonic() >= deadline:
            return None
        time.sleep(interval)


def status(path, drive=None):
    p = {"drive": drive} if drive is not None else None
    r = call(path, IFACE + ".Status", p)
    if drive is None:
        return r["parameters"]["drives"]
    return r["parameters"]["drives"][0]


# ---------------------------------------------------------------- CLI

def _opt(args, name, default=None, conv=str):
    if name in args:
        i = args.index(name)
        v = args[i + 1]
        del args[i:i + 2]
        return conv(v)
    return default


def _flag(args, name):
    if name in args:
        args.remove(name)
        return True
    return False


def _get(obj, path):
    for part in path.split(".") if path else []:
        if isinstance(obj, list):
            obj = obj[int(part)]
        else:
            obj = obj[part]
    return obj


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = argv[1], argv[2:]
    timeout = _opt(args, "--timeout", 5.0, float)
    if cmd == "get":
        try:
            v = _get(json.load(sys.stdin), args[0])
        except (KeyError, IndexError, ValueError, TypeError):
            if len(args) > 1:
                print(args[1])
                return 0
            return 1
        print(v if isinstance(v, str) else json.dumps(v))
        return 0
    if cmd == "wait":
        return 0 if wait_ready(args[0], timeout) else 1
    more = _opt(args, "--more", None, int)
    oneway = _flag(args, "--oneway")
    try:
        with Conn(args[0], timeout) as c:
            if cmd == "raw":
                c.send_raw(args[1].encode() + b"\0")
            elif cmd == "call":
                params = json.loads(args[2]) if len(args) > 2 else None
                c.send(args[1], params, more=more is not None, oneway=oneway)
            else:
                print("vl.py: unknown command %s" % cmd, file=sys.stderr)
                return 2
            if oneway:
                return 0
            n = 0
            while True:
                r = c.recv(timeout)
                print(json.dumps(r))
                sys.stdout.flush()
                n += 1
                if not r.get("continues") or (more is not None and n >= more):
                    return 3 if "error" in r else 0
    except (OSError, Closed, Timeout) as e:
        print("vl.py: %s: %s" % (args[0] if args else "?", e), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
