#!/usr/bin/env python3
"""Times feerie (1 and 2 threads) and Popeye (the best of REPEAT runs each, default 3) on single problems of Popeye's suite that feerie
solves exactly as Popeye recorded ('same'), grouped by fairy element."""
import subprocess, re, sys, time, os, math, collections
FEERIE, PY, SUITE = sys.argv[1], sys.argv[2], sys.argv[3]
listing = sys.argv[4]  # output of popeye_suite --list same
BEGIN = {'a': 'anfangproblem', 'b': 'beginproblem', 'd': 'debutprobleme'}
END = {'a': 'endeproblem', 'b': 'endproblem', 'd': 'finprobleme'}
SEP = ('nextproblem', 'weiteresproblem', 'asuivre', 'endproblem', 'endeproblem', 'finprobleme', 'next', 'weiteres', 'suivre')
def is_sep(w):
    w = w.lower()
    return any(len(w) >= 3 and s.startswith(w) for s in SEP) or w in ('end', 'ende', 'fin')
doc_lines = {}
def lines_of(path):
    if path not in doc_lines:
        out = subprocess.run([FEERIE, 'show', path], capture_output=True, text=True).stdout
        doc_lines[path] = [int(m.group(2)) for m in re.finditer(r'document (\d+) \(line (\d+)\)', out)]
    return doc_lines[path]
def extract(path, n):
    text = open(path, encoding='latin-1').read().split('\n')
    starts = lines_of(path)
    first = text[0].strip().lower()[:1] if text[0].strip() else 'b'
    lang = first if first in BEGIN else 'b'
    a = starts[n - 1] - 1
    b = starts[n] - 1 if n < len(starts) else len(text)
    body = []
    for l in text[a:b]:
        w = l.split()
        if w and (is_sep(w[0]) or w[0].lower().startswith('prot')):
            if is_sep(w[0]):
                break
            continue
        if w and w[0].lower() in ('anfangproblem', 'beginproblem', 'debutprobleme', 'anfang', 'begin'):
            continue
        body.append(l)
    return BEGIN[lang] + '\n' + '\n'.join(body) + '\n' + END[lang] + '\n'
def run(cmd, limit=10):
    t = time.perf_counter()
    try:
        subprocess.run(cmd, capture_output=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - t
def elements(inp):
    out = subprocess.run([FEERIE, 'show', inp], capture_output=True, text=True).stdout
    el = set()
    m = re.search(r'Options: (.*)', out)
    if m:
        for o in m.group(1).split(', '):
            o = o.split()[0]
            if o not in ('SetPlay', 'Try', 'Variations', 'NoThreat', 'Duplex', 'HalfDuplex', 'WhiteToPlay', 'Intelligent', 'PostKeyPlay', 'Defence', 'Threat', 'MaxSolutions', 'NoWk', 'NoBk'):
                el.add(o)
    for side in ('White', 'Black', 'Neutral'):
        m = re.search(side + r'[^:]*: (.*)', out)
        if m:
            for p in m.group(1).split():
                c = re.match(r'([A-Z]+)[a-h][1-8]', p)
                if c and c.group(1) not in ('K', 'Q', 'R', 'B', 'S', 'P'):
                    el.add(c.group(1))
    if 'Neutral' in out:
        el.add('neutral')
    return el
rows = []
for line in open(listing):
    m = re.match(r'(input/\S+\.inp) #(\d+): same', line)
    if not m:
        continue
    path = os.path.join(SUITE, m.group(1))
    n = int(m.group(2))
    inp = os.environ.get('PB_INP', '/tmp/pb/p.inp')  # PB_INP: a scratch file of one's own
    try:
        open(inp, 'w', encoding='latin-1').write(extract(path, n))
    except Exception:
        continue
    el = elements(inp)
    if not el:
        continue
    # Each program REPEAT times (default 3) in turn, its best kept: a single run of a few
    # milliseconds is noisy on a shared machine.
    cmds = [[FEERIE, 'solve', inp, '--threads', '1'], [FEERIE, 'solve', inp, '--threads', '2'], [PY, inp]]
    best = [None, None, None]
    for rep in range(int(os.environ.get('REPEAT', '3'))):
        for j in range(3):
            k = (j + rep + n) % 3
            t = run(cmds[k])
            if t is not None:
                best[k] = t if best[k] is None else min(best[k], t)
        if rep == 0 and None in best:
            break
    f1, f2, py = best
    rows.append((m.group(1), n, sorted(el), f1, f2, py))
    print(m.group(1), n, sorted(el), f1, f2, py, flush=True)
by = collections.defaultdict(list)
for r in rows:
    for e in r[2]:
        by[e].append(r)
print('\nelement  problems  feerie1 s  feerie2 s  popeye s  ratio1  ratio2  geomean1')
for e, rs in sorted(by.items()):
    rs = [r for r in rs if None not in r[3:]]
    if not rs:
        continue
    f1 = sum(r[3] for r in rs); f2 = sum(r[4] for r in rs); py = sum(r[5] for r in rs)
    gm = math.exp(sum(math.log(r[5] / r[3]) for r in rs) / len(rs))
    print(f'{e:12} {len(rs):4} {f1:9.3f} {f2:9.3f} {py:9.3f} {py/f1:7.2f} {py/f2:7.2f} {gm:7.2f}')
allr = [r for r in rows if None not in r[3:]]
if allr:
    gm = math.exp(sum(math.log(r[5] / r[3]) for r in allr) / len(allr))
    print(f'all {len(allr)} problems: feerie 1 thread {sum(r[3] for r in allr):.2f} s, 2 threads {sum(r[4] for r in allr):.2f} s, Popeye {sum(r[5] for r in allr):.2f} s; geometric mean Popeye/feerie(1) {gm:.2f}')
