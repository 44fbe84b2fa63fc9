#!/usr/bin/env python3
"""bench/experiments/racetrack/summary.py OUT: the racetrack experiment's
tables (Markdown) from OUT/jobs/*.json written by run.sh, with the papers'
numbers beside ours (paper.md has the sources).

  python3 summary.py OUT            the report
  python3 summary.py OUT --tlp W    the CTA cap N* the TLP driver picks for W
"""
import glob, json, math, os, sys

def load(out):
    jobs = {}
    for f in glob.glob(os.path.join(out, 'jobs', '*.json')):
        name = os.path.basename(f)[:-5]
        exp, var, wl = name.split('.', 2)
        d = json.load(open(f))
        jobs[(exp, var, wl)] = d
    return jobs

def tot(d, k, default=0):
    v = d['stats']['total'].get(k)
    if isinstance(v, dict):
        return v.get('total', v.get('count', default))
    return default if v is None else v

def hist(d, k):
    v = d['stats']['total'].get(k)
    return v.get('bins', []) if isinstance(v, dict) else []

def ipc(d):
    return d['timing']['ipc']

def rf_energy(d):
    return d['energy']['rf']['total']

def gmean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float('nan')

def f3(x):
    return 'n/a' if x is None or (isinstance(x, float) and math.isnan(x)) else '%.3f' % x

def pct(x):
    return 'n/a' if x is None or (isinstance(x, float) and math.isnan(x)) else '%+.1f %%' % (100.0 * (x - 1.0))

# ------------------------------------------------------------------ TLP driver

def tlp_table(jobs, w):
    rows = []
    for n in range(1, 9):
        c, i, r = (jobs.get(('li', v + str(n), w)) for v in ('tlp_cache', 'tlp_ideal', 'tlp_rm'))
        if not (c and i and r):
            continue
        pc, pi, pr = ipc(c), ipc(i), ipc(r)
        rows.append((n, pc, pi, pr, pc - (pi - pr)))
    return rows

def nstar(jobs, w):
    rows = tlp_table(jobs, w)
    if not rows:
        return 8
    best = max(r[4] for r in rows)
    return min(r[0] for r in rows if r[4] >= best - 1e-12)  # ties -> smaller N

# ------------------------------------------------------------------ mao

MAO_CLASS = {}
for w in 'cp mriq hotspot srad blackscholes scalarprod'.split():
    MAO_CLASS[w] = 'C1'
for w in 'nn lbm bfs kmeans pathfinder streamcluster histo vectoradd'.split():
    MAO_CLASS[w] = 'C2'
for w in 'backprop reduction transpose'.split():
    MAO_CLASS[w] = 'C3'
MAO_PAPER_IPC = {'p4_gto': {'C1': -11.7, 'C2': '> -2.8', 'C3': +2.1, 'all': -4.8},
                 'remap': {'all': -3.4}, 'rmws': {'all': '> -0.3'}}

def mao(jobs, out):
    p = out.append
    wls = sorted({k[2] for k in jobs if k[0] == 'mao' and k[1] == 'sram_gto'}, key=lambda w: (MAO_CLASS.get(w, 'C9'), w))
    if not wls:
        return
    V = ['p4_gto', 'remap', 'rmws']
    p('## Mao (000 ch. 3): IPC and RF energy normalised to SRAM+GTO\n')
    p('| workload | class | 4P+GTO IPC | remap IPC | RMWS IPC | 4P+GTO RF energy | remap RF energy | RMWS RF energy |')
    p('|---|---|--:|--:|--:|--:|--:|--:|')
    norm = {v: {} for v in V}
    enorm = {v: {} for v in V}
    for w in wls:
        b = jobs.get(('mao', 'sram_gto', w))
        cells = []
        ecells = []
        for v in V:
            d = jobs.get(('mao', v, w))
            x = ipc(d) / ipc(b) if d and b else None
            e = rf_energy(d) / rf_energy(b) if d and b else None
            norm[v][w] = x
            enorm[v][w] = e
            cells.append(f3(x))
            ecells.append(f3(e))
        p('| %s | %s | %s | %s |' % (w, MAO_CLASS.get(w, '?'), ' | '.join(cells), ' | '.join(ecells)))
    p('')
    p('Geometric means (ours) beside the chapter (Fig. 12 and 16 text, paper.md A.4-A.6):\n')
    p('| configuration | C1 | C2 | C3 | all | paper IPC | ours RF energy (all) | paper RF energy |')
    p('|---|--:|--:|--:|--:|---|--:|---|')
    paper_e = {'p4_gto': '-13.4 %', 'remap': 'about -25 % (-13.4, then -11.8 more)', 'rmws': '-48.5 %'}
    paper_i = {'p4_gto': '-4.8 % (C1 -11.7 %, C2 within 2.8 %, C3 +2.1 %)', 'remap': '-3.4 %',
               'rmws': 'within 0.3 %'}
    for v in V:
        g = {c: gmean([norm[v][w] for w in wls if MAO_CLASS.get(w) == c]) for c in ('C1', 'C2', 'C3')}
        ga = gmean(list(norm[v].values()))
        ea = gmean(list(enorm[v].values()))
        p('| %s | %s | %s | %s | %s | %s | %s | %s |' % (v, pct(g['C1']), pct(g['C2']), pct(g['C3']), pct(ga),
                                                    paper_i[v], pct(ea), paper_e[v]))
    p('')
    # energy breakdown (sums over workloads), normalised to SRAM+GTO's total
    p('RF energy by component, summed over the workloads, as a share of SRAM+GTO\'s RF energy (Fig. 16):\n')
    p('| configuration | read | write | shift | write buffer | leakage | total |')
    p('|---|--:|--:|--:|--:|--:|--:|')
    base = sum(rf_energy(jobs[('mao', 'sram_gto', w)]) for w in wls if ('mao', 'sram_gto', w) in jobs)
    for v in ['sram_gto'] + V:
        comp = {'read': 0, 'write': 0, 'shift': 0, 'wb': 0, 'leak': 0}
        for w in wls:
            d = jobs.get(('mao', v, w))
            if not d:
                continue
            ev = d['energy']['rf']['events']
            comp['read'] += ev.get('read', {}).get('nj', 0)
            comp['write'] += ev.get('write', {}).get('nj', 0)
            comp['shift'] += ev.get('shift', {}).get('nj', 0)
            comp['wb'] += ev.get('wb_read', {}).get('nj', 0) + ev.get('wb_write', {}).get('nj', 0)
            comp['leak'] += d['energy']['rf']['static']
        t = sum(comp.values())
        p('| %s | %s |' % (v, ' | '.join('%.3f' % (comp[k] / base) for k in ('read', 'write', 'shift', 'wb', 'leak'))
                         + ' | %.3f' % (t / base)))
    p('')
    # scores, shifts, waiting
    p('Scheduling score (share of issued instructions with score >= 3, Fig. 13), shift steps and RF request '
      'waiting (`rm_wait_ticks` when recorded, else bank-conflict cycles, Fig. 15), summed over the workloads, '
      'normalised to 4P+GTO:\n')
    p('| configuration | score >= 3 | mean score | shift steps / 4P+GTO | waiting / 4P+GTO |')
    p('|---|--:|--:|--:|--:|')
    ref_s = sum(tot(jobs[('mao', 'p4_gto', w)], 'sm.oc.rm_shift_steps') for w in wls if ('mao', 'p4_gto', w) in jobs)
    def waitof(d):
        t = d['stats']['total']
        return tot(d, 'sm.oc.rm_wait_ticks') if 'sm.oc.rm_wait_ticks' in t else tot(d, 'sm.oc.bank_conflict_cycles')
    ref_c = sum(waitof(jobs[('mao', 'p4_gto', w)]) for w in wls if ('mao', 'p4_gto', w) in jobs)
    for v in V:
        bins = [0] * 64
        st = cc = 0
        for w in wls:
            d = jobs.get(('mao', v, w))
            if not d:
                continue
            for i, x in enumerate(hist(d, 'sm.oc.rm_issue_score')):
                bins[i] += x
            st += tot(d, 'sm.oc.rm_shift_steps')
            cc += tot(d, 'sm.oc.rm_wait_ticks') if 'sm.oc.rm_wait_ticks' in d['stats']['total'] else \
                tot(d, 'sm.oc.bank_conflict_cycles')
        n = sum(bins)
        ge3 = sum(bins[3:]) / n if n else float('nan')
        mean = sum(i * x for i, x in enumerate(bins)) / n if n else float('nan')
        p('| %s | %.1f %% | %.2f | %s | %s |' % (v, 100 * ge3, mean, f3(st / ref_s if ref_s else None),
                                               f3(cc / ref_c if ref_c else None)))
    p('\nPaper: score >= 3 for about 39 % (C1) and 27 % (C2/C3) of instructions under 4P+GTO, about 13 % fewer '
      'under RMWS; shift steps -52.7 % and waiting cycles -22.6 % (RMWS vs 4P+GTO), -8.3 % waiting for '
      'remapping.\n')
    # RF access distribution under RMWS
    r = {k: 0 for k in ('reads', 'wb_reads', 'direct', 'pig', 'drain', 'ovf', 'void')}
    for w in wls:
        d = jobs.get(('mao', 'rmws', w))
        if not d:
            continue
        r['reads'] += tot(d, 'sm.oc.reads')
        r['wb_reads'] += tot(d, 'sm.oc.rm_wb_reads')
        r['direct'] += tot(d, 'sm.oc.rm_wb_direct')
        r['pig'] += tot(d, 'sm.oc.rm_wb_piggyback')
        r['drain'] += tot(d, 'sm.oc.rm_wb_drains')
        r['ovf'] += tot(d, 'sm.oc.rm_wb_overflow')
        r['void'] += tot(d, 'sm.oc.rm_wb_voided')
    allr = r['reads'] + r['wb_reads']
    allw = r['direct'] + r['pig'] + r['drain'] + r['ovf'] + r['void']
    if allr and allw:
        p('RF access distribution under RMWS (Fig. 14), ours vs paper:\n')
        p('| share | ours | paper |')
        p('|---|--:|--:|')
        p('| reads served by the write buffer | %.1f %% | 33.3 %% |' % (100.0 * r['wb_reads'] / allr))
        p('| writes: direct | %.1f %% | 36.1 %% |' % (100.0 * r['direct'] / allw))
        p('| writes: piggyback (no shift) | %.1f %% | 27.7 %% |' % (100.0 * r['pig'] / allw))
        p('| writes: drained after a shift (idle bank) | %.1f %% | (not a category) |' % (100.0 * r['drain'] / allw))
        p('| writes: overflow | %.1f %% | < 5 %% |' % (100.0 * r['ovf'] / allw))
        p('| writes: voided | %.1f %% | 31.5 %% |' % (100.0 * r['void'] / allw))
        p('')
    # sweeps
    sw = sorted({k[2] for k in jobs if k[0] == 'mao' and k[1].startswith('ports')})
    if sw:
        p('Port sweep (RMWS, Fig. 17) and write-buffer sweep (Fig. 18) on %s at the sweep size: geometric-mean '
          'IPC and RF energy normalised to SRAM+GTO (energies of 4P for every port count: the chapter gives none '
          'for the others):\n' % ', '.join(sw))
        p('| configuration | IPC | RF energy |')
        p('|---|--:|--:|')
        def row(label, var):
            xs, es = [], []
            for w in sw:
                b, d = jobs.get(('mao', 'ssram', w)), jobs.get(('mao', var, w))
                if b and d:
                    xs.append(ipc(d) / ipc(b))
                    es.append(rf_energy(d) / rf_energy(b))
            p('| %s | %s | %s |' % (label, f3(gmean(xs)), f3(gmean(es))))
        for pp in (1, 2, 4, 8, 16, 32, 64):
            row('%d ports' % pp, 'ports%d' % pp)
        for e in (16, 32, 64, 128, 256):
            row('write buffer %d entries' % e, 'wb%d' % e)
        p('\nPaper: 4 ports give the best performance and energy; 16 write-buffer entries reach 95 % of the baseline, '
          '32 over 99 %, 256 double the energy.\n')
        p('Dual and quad schedulers (Fig. 19), IPC normalised to the same number of GTO schedulers with SRAM:\n')
        p('| schedulers | RMWS (remap) | RMWS + warp-register remapping | paper RMWS | paper + wrr |')
        p('|---|--:|--:|---|---|')
        for s, pr, pw in ((2, '-6.4 %', 'within 1.9 %'), (4, '-7.2 %', '97.8 % (-2.2 %)')):
            a, b2 = [], []
            for w in sw:
                g = jobs.get(('mao', 's%d_gto' % s, w))
                x, y = jobs.get(('mao', 's%d_rmws' % s, w)), jobs.get(('mao', 's%d_rmws_wrr' % s, w))
                if g and x:
                    a.append(ipc(x) / ipc(g))
                if g and y:
                    b2.append(ipc(y) / ipc(g))
            p('| %d | %s | %s | %s | %s |' % (s, pct(gmean(a)), pct(gmean(b2)), pr, pw))
        p('')

# ------------------------------------------------------------------ liang

def liang(jobs, out, outdir):
    p = out.append
    wls = sorted({k[2] for k in jobs if k[0] == 'li' and k[1] == 'sram'})
    if not wls:
        return
    V = [('ideal', 'ideal RM'), ('plain', 'RM (DIRECT, max TLP)'), ('tlp', '+TLP'), ('map', '+mapping'),
         ('full', '+preshift (full)')]
    p('## Liang (002): IPC and RF energy normalised to the 128 KB SRAM RF\n')
    p('| workload | N* | ' + ' | '.join(l for _, l in V) + ' | RF energy (full) | shift steps full / plain |')
    p('|---|--:|' + '--:|' * len(V) + '--:|--:|')
    g = {v: [] for v, _ in V}
    ge, gs = [], []
    for w in wls:
        b = jobs.get(('li', 'sram', w))
        ns = open(os.path.join(outdir, 'prof', w + '.nstar')).read().strip() if os.path.exists(
            os.path.join(outdir, 'prof', w + '.nstar')) else '?'
        cells = []
        for v, _ in V:
            d = jobs.get(('li', v, w))
            x = ipc(d) / ipc(b) if d and b else None
            if x:
                g[v].append(x)
            cells.append(f3(x))
        full, plain = jobs.get(('li', 'full', w)), jobs.get(('li', 'plain', w))
        e = rf_energy(full) / rf_energy(b) if full and b else None
        s = None
        if full and plain:
            sp = tot(plain, 'sm.oc.rm_steps')
            s = tot(full, 'sm.oc.rm_steps') / sp if sp else None
        if e:
            ge.append(e)
        if s:
            gs.append(s)
        p('| %s | %s | %s | %s | %s |' % (w, ns, ' | '.join(cells), f3(e), f3(s)))
    p('| geomean | | ' + ' | '.join(f3(gmean(g[v])) for v, _ in V) + ' | %s | %s |' % (f3(gmean(ge)), f3(gmean(gs))))
    p('| paper | | (Fig. 3: figure only) | about +4 % (18 % of the gain) | | | +21 % average, +29 % best | -43 % (-33..-53 %) | 0.41 |')
    p('')
    p('Sensitivity to OQ-8 (`rf.busy_holds_slot = false`: a shifting bank holds its access slot only when it '
      'starts), IPC normalised to SRAM:\n')
    p('| workload | plain, slot held | plain, slot at start | full, slot held | full, slot at start |')
    p('|---|--:|--:|--:|--:|')
    for w in wls:
        b = jobs.get(('li', 'sram', w))
        vals = []
        for v in ('plain', 'plainfree', 'full', 'fullfree'):
            d = jobs.get(('li', v, w))
            vals.append(f3(ipc(d) / ipc(b) if d and b else None))
        p('| %s | %s |' % (w, ' | '.join(vals)))
    p('')
    p('TLP driver (spec 2.6): IPC per CTA cap N; P = P_cache - (P_ideal - P_rm):\n')
    for w in wls:
        rows = tlp_table(jobs, w)
        if not rows:
            continue
        p('%s: ' % w + '; '.join('N=%d P_cache %.1f P_ideal %.1f P_rm %.1f P %.1f' % r for r in rows))
        p('')
    p('Predicted shift steps of the profile (Liang eq. 3) under DIRECT and under the computed mapping, and the '
      'measured demand and preshift steps:\n')
    p('| workload | predicted DIRECT | predicted liang | ratio | demand steps +map | preshift steps full |')
    p('|---|--:|--:|--:|--:|--:|')
    for w in wls:
        m, f = jobs.get(('li', 'map', w)), jobs.get(('li', 'full', w))
        if not m:
            continue
        a, b = tot(m, 'sm.oc.rm_pred_direct'), tot(m, 'sm.oc.rm_pred_liang')
        p('| %s | %d | %d | %s | %d | %d |' % (w, a, b, f3(b / a if a else None), tot(m, 'sm.oc.rm_shift_steps'),
                                              tot(f, 'sm.oc.rm_preshift_steps') if f else 0))
    p('')

def main():
    out = sys.argv[1] if len(sys.argv) > 1 else 'out/racetrack'
    jobs = load(out)
    if len(sys.argv) > 3 and sys.argv[2] == '--tlp':
        print(nstar(jobs, sys.argv[3]))
        return
    lines = []
    rev = open(os.path.join(out, 'revision')).read().strip() if os.path.exists(os.path.join(out, 'revision')) else '?'
    params = open(os.path.join(out, 'params')).read().strip() if os.path.exists(os.path.join(out, 'params')) else ''
    lines.append('# Racetrack register file: results (%s, revision %s, %d runs)\n' % (params, rev, len(jobs)))
    mao(jobs, lines)
    liang(jobs, lines, out)
    print('\n'.join(lines))

if __name__ == '__main__':
    main()
