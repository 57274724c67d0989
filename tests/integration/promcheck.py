#!/usr/bin/env python3
"""promcheck.py: a strict parser of the Prometheus text exposition format
(version 0.0.4), and a checker in the spirit of `promtool check metrics`
for when promtool is missing.

    promcheck.py [FILE]      (standard input when no FILE or "-")

prints one line per problem and exits 1 when there is any. As a module:
parse(text) returns (families, problems), families being an ordered dict
name -> Family(name, type, help, samples), a sample being (sample_name,
labels dict, value float).

Strict: UTF-8 only; a newline at the end; metric and label names from
their grammars; label values in double quotes with only the \\\\, \\" and
\\n escapes; decimal values, or NaN, +Inf, -Inf spelled so;
no timestamps (node_exporter's textfile collector refuses them); HELP
and TYPE at most once per family and before its samples; each family's
samples together; no repeated series. Lint: every family has HELP and
TYPE; counters end in _total and nothing else does; snake_case names.
"""
import math
import re
import sys
from collections import OrderedDict

METRIC_RE = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
LABEL_RE = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
FLOAT_RE = re.compile(
    r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$")
TYPES = ("counter", "gauge", "histogram", "summary", "untyped")
SUFFIXES = {"histogram": ("_bucket", "_sum", "_count"),
            "summary": ("_sum", "_count")}


class Family:
    def __init__(self, name):
        self.name = name
        self.type = None
        self.help = None
        self.samples = []       # (sample name, labels dict, value)
        self.line = 0           # where it appears first


class ParseError(Exception):
    pass


def parse_value(tok):
    """A sample value: a decimal float, or NaN, +Inf, -Inf as spelled so
    (Go's ParseFloat would take other spellings too; writers should not)."""
    special = {"NaN": math.nan, "+Inf": math.inf, "-Inf": -math.inf}
    if tok in special:
        return special[tok]
    if not FLOAT_RE.match(tok):
        raise ParseError("bad value %r" % tok)
    return float(tok)


def parse_labels(s, i):
    """Labels from s[i] == '{'; returns (dict, index after '}')."""
    labels = {}
    i += 1
    while True:
        while i < len(s) and s[i] in " \t":
            i += 1
        if i < len(s) and s[i] == "}":
            return labels, i + 1
        m = LABEL_RE.match(s, i)
        if not m:
            raise ParseError("bad label name at column %d" % (i + 1))
        name = m.group(0)
        i = m.end()
        while i < len(s) and s[i] in " \t":
            i += 1
        if i >= len(s) or s[i] != "=":
            raise ParseError("expected '=' after label %s" % name)
        i += 1
        while i < len(s) and s[i] in " \t":
            i += 1
        if i >= len(s) or s[i] != '"':
            raise ParseError("expected '\"' for the value of label %s" % name)
        val, i = parse_quoted(s, i + 1, name)
        if name in labels:
            raise ParseError("label %s repeated" % name)
        if name.startswith("__"):
            raise ParseError("label name %s is reserved" % name)
        labels[name] = val
        while i < len(s) and s[i] in " \t":
            i += 1
        if i < len(s) and s[i] == ",":
            i += 1
        elif i < len(s) and s[i] == "}":
            return labels, i + 1
        else:
            raise ParseError("expected ',' or '}' after label %s" % name)


def parse_quoted(s, i, name):
    out = []
    while i < len(s):
        c = s[i]
        if c == '"':
            return "".join(out), i + 1
        if c == "\\":
            if i + 1 >= len(s) or s[i + 1] not in '\\"n':
                raise ParseError("bad escape in the value of label %s" % name)
            out.append({"\\": "\\", '"': '"', "n": "\n"}[s[i + 1]])
            i += 2
            continue
        out.append(c)
        i += 1
    raise ParseError("unterminated value of label %s" % name)


def family_of(name, families):
    """The family a sample name belongs to (histogram/summary suffixes)."""
    for suf in ("_bucket", "_sum", "_count"):
        if name.endswith(suf):
            base = name[: -len(suf)]
            f = families.get(base)
            if f is not None and suf in SUFFIXES.get(f.type, ()):
                return base
    return name


def parse_sample(line):
    m = METRIC_RE.match(line)
    if not m:
        raise ParseError("bad metric name")
    name, i = m.group(0), m.end()
    labels = {}
    if i < len(line) and line[i] == "{":
        labels, i = parse_labels(line, i)
    rest = line[i:]
    if rest[:1] not in (" ", "\t"):
        raise ParseError("expected a blank before the value")
    toks = rest.split()
    if len(toks) == 0:
        raise ParseError("no value")
    if len(toks) > 1:
        raise ParseError("timestamps are not allowed (textfile collector)"
                         if len(toks) == 2 else "junk after the value")
    return name, labels, parse_value(toks[0])


def switch_to(name, state):
    """The family now being read is `name`; a family may not come back."""
    if name == state["current"]:
        return
    if name in state["done"]:
        raise ParseError("lines of %s are not together" % name)
    if state["current"] is not None:
        state["done"].add(state["current"])
    state["current"] = name


def check_help_escapes(s, name):
    i = 0
    while i < len(s):
        if s[i] == "\\":
            if i + 1 >= len(s) or s[i + 1] not in "\\n":
                raise ParseError("bad escape in the HELP of %s" % name)
            i += 1
        i += 1


def parse_comment(line, lno, families, state):
    parts = line[1:].lstrip(" \t").split(None, 2)
    if len(parts) < 2 or parts[0] not in ("HELP", "TYPE"):
        return                              # a plain comment
    kw, name = parts[0], parts[1]
    arg = parts[2] if len(parts) > 2 else ""
    if not METRIC_RE.fullmatch(name):
        raise ParseError("bad metric name %r in %s" % (name, kw))
    switch_to(name, state)
    f = families.get(name)
    if f is None:
        f = families[name] = Family(name)
        f.line = lno
    if f.samples:
        raise ParseError("%s for %s after its samples" % (kw, name))
    if kw == "TYPE":
        if f.type is not None:
            raise ParseError("second TYPE for %s" % name)
        if arg.strip() not in TYPES:
            raise ParseError("unknown type %r for %s" % (arg, name))
        f.type = arg.strip()
    else:
        if f.help is not None:
            raise ParseError("second HELP for %s" % name)
        check_help_escapes(arg, name)
        f.help = arg


def parse(text):
    """(families, problems) of a whole exposition."""
    families, problems, seen = OrderedDict(), [], set()
    state = {"current": None, "done": set()}
    if text and not text.endswith("\n"):
        problems.append("no newline at the end (a partial file?)")
    for lno, line in enumerate(text.split("\n")[:-1] if text else [], 1):
        try:
            if line.strip() == "":
                continue
            if line.lstrip(" \t").startswith("#"):
                parse_comment(line.lstrip(" \t"), lno, families, state)
                continue
            name, labels, value = parse_sample(line)
            base = family_of(name, families)
            switch_to(base, state)
            f = families.get(base)
            if f is None:
                f = families[base] = Family(base)
                f.line = lno
            key = (name, tuple(sorted(labels.items())))
            if key in seen:
                raise ParseError("repeated series %s%s" % (name, labels))
            seen.add(key)
            f.samples.append((name, labels, value))
        except ParseError as e:
            problems.append("line %d: %s: %s" % (lno, e, line[:200]))
    return families, problems


def lint(families):
    problems = []
    for name, f in families.items():
        if f.help is None:
            problems.append("%s: no HELP" % name)
        elif f.help.strip() == "":
            problems.append("%s: empty HELP" % name)
        if f.type is None:
            problems.append("%s: no TYPE" % name)
        if f.type == "counter" and not name.endswith("_total"):
            problems.append("%s: counter metrics should have \"_total\" "
                            "suffix" % name)
        if f.type != "counter" and name.endswith("_total"):
            problems.append("%s: non-counter metrics should not have "
                            "\"_total\" suffix" % name)
        if re.search(r"[A-Z]", name):
            problems.append("%s: metric names should be written in "
                            "'snake_case' not 'camelCase'" % name)
        if ":" in name:
            problems.append("%s: metric names should not contain ':'" % name)
        if not f.samples:
            problems.append("%s: no samples" % name)
        for _, labels, _ in f.samples:
            for k in labels:
                if re.search(r"[A-Z]", k):
                    problems.append("%s: label names should be written in "
                                    "'snake_case' not 'camelCase'" % name)
    return problems


def check(text):
    """Every problem of an exposition: parse errors, then lint."""
    try:
        families, problems = parse(text)
    except Exception as e:      # a bug here must not pass as "clean"
        return {}, ["parser failure: %r" % e]
    return families, problems + lint(families)


def main(argv):
    path = argv[1] if len(argv) > 1 else "-"
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as fp:
                data = fp.read()
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        print("not UTF-8: %s" % e)
        return 1
    except OSError as e:
        print(e)
        return 2
    _, problems = check(text)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
