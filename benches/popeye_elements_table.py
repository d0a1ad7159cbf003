import re, math, collections, ast, sys
rows=[]
for f in sys.argv[1:]:
    for l in open(f):
        m=re.match(r"(input/\S+) (\d+) (\[.*?\]) (\S+) (\S+) (\S+)$", l.strip())
        if not m: continue
        els=ast.literal_eval(m.group(3))
        vals=[None if v=='None' else float(v) for v in m.group(4,5,6)]
        rows.append((m.group(1),int(m.group(2)),els,*vals))
by=collections.defaultdict(list)
for r in rows:
    for e in r[2]: by[e].append(r)
print('| element | problems | feerie 1 thread | feerie 2 threads | Popeye | Popeye/feerie (1 thr, totals) | geometric mean |')
print('|---|---|---|---|---|---|---|')
for e,rs in sorted(by.items(), key=lambda x:-len(x[1])):
    rs=[r for r in rs if None not in r[3:]]
    if not rs: continue
    f1=sum(r[3] for r in rs); f2=sum(r[4] for r in rs); py=sum(r[5] for r in rs)
    gm=math.exp(sum(math.log(r[5]/r[3]) for r in rs)/len(rs))
    print(f'| {e} | {len(rs)} | {f1:.2f} s | {f2:.2f} s | {py:.2f} s | {py/f1:.2f} | {gm:.2f} |')
ok=[r for r in rows if None not in r[3:]]
gm=math.exp(sum(math.log(r[5]/r[3]) for r in ok)/len(ok))
to=[r for r in rows if r[3] is None]
print(f'\nall {len(ok)} problems: feerie {sum(r[3] for r in ok):.2f} s (1 thread), {sum(r[4] for r in ok):.2f} s (2 threads), Popeye {sum(r[5] for r in ok):.2f} s; geometric mean of Popeye/feerie {gm:.2f}; feerie over 10 s on {len(to)}; Popeye over 10 s on {len([r for r in rows if r[5] is None])}')
