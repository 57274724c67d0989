"""t_flakey_drop: the verify_error events of cycle 2 (after writes were
dropped) against what they must be: stale, in cycle 2's verify, at block
offsets in the dynamic area, expected generation 2 and found 1 of our own
instance; and together they cover the dynamic area without gaps.

argv: FINDINGS SBYTES DBYTES BS INSTANCE_HEX
FINDINGS: ev_query lines "cycle phase class offset blocks
expected_generation found_generation found_instance".
Prints "blocks N", "end BYTE", "gaps N", "bad N" and up to five
"example WHY" lines.
"""
import sys
path, sb, db, bs, inst = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
rows = [l.split() for l in open(path) if l.strip()]
bad = []
blocks = 0
covered = []
for cyc, ph, cls, off, n, exp, found, finst in rows:
    off, n = int(off), int(n)
    blocks += n
    covered.append((off, off + n * bs))
    if cls != "stale": bad.append("class %s at %d" % (cls, off))
    if cyc != "2" or ph != "verify": bad.append("cycle/phase %s/%s at %d" % (cyc, ph, off))
    if off % bs: bad.append("offset %d not a block offset" % off)
    if off < sb or off + n * bs > sb + db: bad.append("offset %d (+%d blocks) outside the dynamic area" % (off, n))
    if exp != "2" or found != "1": bad.append("expected/found generation %s/%s at %d" % (exp, found, off))
    if finst != inst: bad.append("found_instance %s at %d" % (finst, off))
covered.sort()
pos, gaps = sb, 0
for a, b in covered:
    if a != pos: gaps += 1
    pos = max(pos, b)
print("blocks", blocks)
print("end", pos)
print("gaps", gaps)
print("bad", len(bad))
for b in bad[:5]: print("example", b.replace(" ", "_"))
