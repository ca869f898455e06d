# report-compare.py PERF_OUT PRF_OUT: compares two `report --stdio` outputs
# (perf's, then prf's). Same column header; every perf entry at or above
# 0.5% is in prf's output at the same position with overheads within 0.05
# percentage points, and its callchain lines are the same (percentages
# within 0.05). Exits non-zero with the first difference; prints
# "ok: N entries compared" otherwise. Used through report_check (report.sh).
import re, sys
def parse(path):
    entries, chains, header, cur = [], {}, None, None
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("# Overhead") or line.startswith("# Children"):
            header = line.rstrip()
        m = re.match(r"^ +((?:[0-9.]+%\s+)+)(.*)$", line)
        if m and not line.startswith("      "[:4] + "|"):
            pcts = [float(x) for x in re.findall(r"([0-9.]+)%", m.group(1))]
            key = re.sub(r"\s+", " ", m.group(2)).strip()
            entries.append((key, pcts))
            cur = key
            chains[cur] = []
            continue
        if cur is not None and line.strip() and not line.startswith("#"):
            chains[cur].append(line.rstrip())
    return header, entries, chains
ph, pe, pc = parse(sys.argv[1])
qh, qe, qc = parse(sys.argv[2])
if ph != qh:
    sys.exit("header differs:\n perf: %r\n prf:  %r" % (ph, qh))
top = [e for e in pe if e[1][0] >= 0.5]
if not top:
    sys.exit("perf printed no entries")
qd = dict(qe)
qkeys = [k for k, _ in qe]
for i, (k, p) in enumerate(top):
    if k not in qd:
        sys.exit("entry missing in prf: %s" % k)
    for a, b in zip(p, qd[k]):
        if abs(a - b) > 0.05:
            sys.exit("overhead of %s: perf %s prf %s" % (k, p, qd[k]))
    if qkeys.index(k) != [x for x, _ in pe].index(k):
        sys.exit("entry %s at position %d in perf, %d in prf" % (k, [x for x, _ in pe].index(k), qkeys.index(k)))
    # callchain text of the entry: same paths (percentages within 0.05)
    pl, ql = pc.get(k, []), qc.get(k, [])
    if len(pl) != len(ql):
        sys.exit("callchain of %s: %d lines in perf, %d in prf" % (k, len(pl), len(ql)))
    for a, b in zip(pl, ql):
        na, nb = re.sub(r"[0-9.]+%", "P", a), re.sub(r"[0-9.]+%", "P", b)
        if na != nb:
            sys.exit("callchain of %s differs:\n perf: %s\n prf:  %s" % (k, a, b))
        for x, y in zip(re.findall(r"([0-9.]+)%", a), re.findall(r"([0-9.]+)%", b)):
            if abs(float(x) - float(y)) > 0.05:
                sys.exit("callchain percent of %s: %s vs %s" % (k, a, b))
print("ok: %d entries compared" % len(top))
