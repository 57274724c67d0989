"""The defaults ssdtortured.conf(5) states are the ones the daemon applies.

argv: DAEMON PAGE README DIR. For each key of `DAEMON --list-keys`
(SECTION KEY RELOAD DEFAULT, "-" for none): the page's paragraph of the key
says "Default VALUE" or "Default: none", and the README's tables of keys
have a row for it whose default column is `VALUE` or a word in brackets
(none, required); a key without a default in the table must say none, and
VALUE, set in a configuration, must resolve (as `DAEMON -n` prints it) to
what leaving the key out resolves to. DIR is a scratch directory. One line
per problem; exit status 1 when any.
"""
import os, re, subprocess, sys

daemon, page, readme, tmp = sys.argv[1:5]


def paragraphs(path):
    """KEY -> the text of its .It Cm paragraph, macros reduced to words."""
    out, cur = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        m = re.match(r"\.It Cm ([A-Za-z_0-9]+)", line)
        if m:
            cur = m.group(1)
            out[cur] = []
        elif line.startswith((".It", ".El", ".Sh")):
            cur = None
        elif cur is not None:
            out[cur].append(" ".join(line.split()[1:]) if line.startswith(".") else line)
    return {k: re.sub(r"\s+([.,;)])", r"\1", " ".join(v)) for k, v in out.items()}


def stated(text):
    m = re.search(r"Default(?::)?\s+(none|\S+)", text or "")
    return m.group(1).rstrip(".,;") if m else None


def resolved(section, key, value):
    """The line of KEY in -n's output, with KEY = value (None: left out)."""
    img = os.path.join(tmp, "x.img")
    open(img, "a").close()
    os.truncate(img, 4 << 20)
    lines = {"daemon": [], "drive": ["device = " + img]}
    if value is not None:
        lines[section].append("%s = %s" % (key, value))
    conf = os.path.join(tmp, "c.conf")
    with open(conf, "w") as f:
        f.write("[daemon]\n%s\n[drive:x]\n%s\n" % ("\n".join(lines["daemon"]),
                                                  "\n".join(lines["drive"])))
    r = subprocess.run([daemon, "-n", "-c", conf], capture_output=True, text=True)
    for line in r.stdout.splitlines():
        parts = line.split("=", 1)
        if len(parts) == 2 and parts[0].strip() == key:
            return parts[1].strip()
    return "(rejected: %s)" % (r.stdout + r.stderr).strip().splitlines()[-1:]


def readme_rows(path):
    """KEY -> the default column of its row in the README's key tables:
    the value in backquotes, or "none" for anything else (none, required,
    root, empty)."""
    out = {}
    for line in open(path):
        m = re.match(r"\|\s*`([a-z_]+)`\s*\|([^|]*)\|", line)
        if m:
            v = re.match(r"\s*`([^`]+)`\s*$", m.group(2))
            out[m.group(1)] = v.group(1) if v else "none"
    return out


def check(where, key, section, default, said):
    """One source's statement of a key's default; 1 when it is wrong."""
    if said is None:
        if default == "-":
            return 0
        print("%s: %s states no default; the daemon's is %s" % (key, where, default))
    elif said == "none":
        # no default, or the word none is the default (prepare = none)
        if default in ("-", "none"):
            return 0
        print("%s: %s says none; the daemon's default is %s" % (key, where, default))
    elif default == "-":
        print("%s: %s says %s; the daemon has no default" % (key, where, said))
    elif resolved(section, key, said) != resolved(section, key, None):
        print("%s: %s's default %s resolves to %s, the daemon's to %s" % (key,
              where, said, resolved(section, key, said), resolved(section, key, None)))
    else:
        return 0
    return 1


keys = subprocess.run([daemon, "--list-keys"], capture_output=True, text=True,
                      check=True).stdout.split("\n")
paras, rows = paragraphs(page), readme_rows(readme)
bad = 0
for line in filter(None, keys):
    section, key, _, default = line.split()
    bad += check("the page", key, section, default, stated(paras.get(key)))
    if key not in rows:
        print("%s: no row in the README's tables of keys" % key)
        bad += 1
    else:
        bad += check("the README", key, section, default, rows[key])
sys.exit(1 if bad else 0)
