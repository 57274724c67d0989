"""t_lab_view: the metric families that the Prometheus rules and the
Grafana dashboard name are all families a live daemon's textfile exports.

argv: TEXTFILE RULES_YML DASHBOARD_JSON
Prints "ok ..." or "bad ..." lines; exit status 1 on any bad one.
"""
import json, re, sys
import yaml

NAME = re.compile(r"\bssdtorture_[a-z0-9_]+\b")
text, rules_path, dash_path = sys.argv[1:4]
exported = set(re.findall(r"^# TYPE (\S+) ", open(text).read(), re.M))
bad = 0


def say(ok, what):
    global bad
    print(("ok  " if ok else "bad ") + what)
    bad += 0 if ok else 1


def strings(node, keys):
    """Every string under one of keys, anywhere in a JSON tree."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k in keys and isinstance(v, str):
                yield v
            else:
                yield from strings(v, keys)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v, keys)


rules = yaml.safe_load(open(rules_path))
exprs = {"rule " + r["alert"]: r["expr"] for g in rules["groups"]
         for r in g["rules"]}
dash = json.load(open(dash_path))
for i, e in enumerate(strings(dash, ("expr", "definition"))):
    exprs["dashboard query %d" % (i + 1)] = e
say(len(exported) >= 20, "the textfile exports %d families" % len(exported))
named = set()
for what, e in exprs.items():
    names = set(NAME.findall(e))
    named |= names
    missing = sorted(names - exported)
    say(names and not missing, "%s names %s%s" % (
        what, ", ".join(sorted(names)) or "no family",
        "; not exported: " + ", ".join(missing) if missing else ""))
say(len([w for w in exprs if w.startswith("dashboard")]) >= 10,
    "the dashboard has its queries")
print("families named: %d of %d exported" % (len(named), len(exported)))
sys.exit(1 if bad else 0)
