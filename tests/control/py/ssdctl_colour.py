"""t_ssdctl: colour on a terminal; none with NO_COLOR.
Run by pyrun (tests/control/lib.sh), which sets SOCK, T, CONF, DLOG,
DAEMON_PID and SSDCTL in the environment."""
import os, pty, subprocess, select
from vl import check, done
def on_tty(env_extra):
    m, s = pty.openpty()
    env = dict(os.environ, **env_extra)
    p = subprocess.Popen([os.environ["SSDCTL"], "-s", os.environ["SOCK"], "status"],
                         stdout=s, stderr=subprocess.DEVNULL, env=env)
    os.close(s)
    out = b""
    while True:
        r, _, _ = select.select([m], [], [], 5)
        if not r:
            break
        try:
            d = os.read(m, 4096)
        except OSError:
            break
        if not d:
            break
        out += d
    p.wait(5)
    os.close(m)
    return p.returncode, out
os.environ.pop("NO_COLOR", None)
rc, out = on_tty({})
check(rc == 0 and b"\033[" in out, "on a terminal: the state is coloured", out[:300])
rc, out = on_tty({"NO_COLOR": "1"})
check(rc == 0 and b"\033" not in out, "on a terminal with NO_COLOR: no escapes", out[:300])
done()
