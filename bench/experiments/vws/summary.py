#!/usr/bin/env python3
"""bench/experiments/vws/summary.py OUT/vws: per workload and scheduler,
IPC normalised to LRR, L1D APKI by locality class (hits/misses), L2 hits
intra-/inter-core, mean N_act and throttled cycles, as a Markdown table
(the Fig. 21, 24-26 inputs; docs/vws.md "Statistics")."""
import glob, json, os, sys

def tot(t, k):
    v = t.get(k)
    if isinstance(v, dict):
        return v.get('total', v.get('mean'))
    return v

out = sys.argv[1] if len(sys.argv) > 1 else 'out/vws/vws'
rows = {}
for f in sorted(glob.glob(os.path.join(out, 'jobs', '*.json'))):
    if f.endswith('.failed.json'):
        continue
    d = json.load(open(f))
    t = d['stats']['total']
    c = d['config']
    name = c['sched.policy'] + ('+serial' if c.get('cta.policy') == 'serial' else '')
    if int(c.get('sched.vws.static_nact', 0) or 0):
        name += '/n%d' % int(c['sched.vws.static_nact'])
    wl = d.get('run', {}).get('workload', os.path.basename(f).split('-')[0])
    insts = d['timing']['warp_insts']
    k = 1000.0 / insts if insts else 0.0
    cls = ['intra_warp', 'intra_cta', 'inter_cta', 'cold']
    rows.setdefault(wl, {})[name] = {
        'ipc': d['timing']['ipc'],
        'apki': (tot(t, 'l1d.loads') or 0) * k,
        'hit': [(tot(t, 'l1d.loc_%s_hits' % x) or 0) * k for x in cls],
        'miss': [(tot(t, 'l1d.loc_%s_misses' % x) or 0) * k for x in cls],
        'l2': [(tot(t, 'l2.hits_intra_core') or 0) * k, (tot(t, 'l2.hits_inter_core') or 0) * k],
        'nact': tot(t, 'sm.vws.nact'),
        # share of pipeline cycles with at most 2 active warps (time-weighted, every kernel)
        'low': (sum(t['sm.vws.active_warps']['bins'][:3]) / t['sm.vws.active_warps']['count']
                if 'sm.vws.active_warps' in t and t['sm.vws.active_warps']['count'] else None),
        'policy': tot(t, 'sm.sched.stall_policy') or 0,
        'cycles': tot(t, 'sm.sched.cycles') or 1,
    }
order = ['lrr', 'gto', 'ccws', 'iwl', 'iwl_intracl', 'vws+serial']
print('| workload | scheduler | IPC / LRR | L1D APKI | hits w/c/x | misses w/c/x/cold (PKI) | L2 hits intra/inter (PKI) | mean N_act | cycles at <= 2 active warps % | held cycles % |')
print('|---|---|--:|--:|---|---|---|--:|--:|--:|')
for wl in sorted(rows):
    base = rows[wl].get('lrr', {}).get('ipc')
    for s in order:
        r = rows[wl].get(s)
        if not r:
            continue
        n = '%.3f' % (r['ipc'] / base) if base else 'n/a'
        h = '/'.join('%.1f' % x for x in r['hit'][:3])
        m = '/'.join('%.1f' % x for x in r['miss'])
        l2 = '%.1f/%.1f' % tuple(r['l2'])
        na = '%.1f' % r['nact'] if r['nact'] is not None else '-'
        lo = '%.0f' % (100.0 * r['low']) if r.get('low') is not None else '-'
        print('| %s | %s | %s | %.1f | %s | %s | %s | %s | %s | %.1f |' % (wl, s, n, r['apki'], h, m, l2, na, lo,
                                                                       100.0 * r['policy'] / r['cycles']))

# Geometric means of IPC / LRR per scheduler: over every workload in OUT,
# and over the chapter's own application sets as far as the suite has them
# (000 Table 5: C1 = II, PVC, SS, KM, MM, BFS, MUM; C2 = PVR, B+T, MRIG, PF,
# LBM, BP; HW is not in the suite). Static-N runs (swl.sweep) are listed as
# iwl_intracl/nN; "best N" is the per-workload best of them.
import math
CH_C1 = ['ii', 'pvc', 'ss', 'kmeansnc', 'mrmm', 'bfs', 'mummer']
CH_C2 = ['pvr', 'btree', 'mrig', 'pathfinder', 'lbm', 'backprop']

def gm(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float('nan')

def ratio(wl, s):
    b = rows[wl].get('lrr', {}).get('ipc')
    r = rows[wl].get(s)
    return r['ipc'] / b if b and r else None

for w in rows: # best static N per workload (the SWL oracle)
    st = [(r['ipc'], s) for s, r in rows[w].items() if '/n' in s]
    if st:
        rows[w]['swl-best'] = dict(rows[w][max(st)[1]])
        print('best static N for %s: %s (IPC / LRR %.3f)' % (w, max(st)[1].split('/n')[1],
              max(st)[0] / rows[w]['lrr']['ipc'] if 'lrr' in rows[w] else float('nan')))
scheds = [s for s in order if any(s in rows[w] for w in rows)]
scheds += sorted({s for w in rows for s in rows[w] if s not in order})
sets = [('all in OUT', sorted(rows)), ("chapter's C1 (7)", CH_C1), ("chapter's C2 (6)", CH_C2)]
print()
print('| set | n | ' + ' | '.join(scheds) + ' |')
print('|---|--:|' + '--:|' * len(scheds))
for name, wls in sets:
    have = [w for w in wls if w in rows and 'lrr' in rows[w]]
    if not have:
        continue
    cells = []
    for s in scheds:
        xs = [ratio(w, s) for w in have]
        cells.append('%.3f' % gm(xs) if all(x is not None for x in xs) else '-')
    print('| %s | %d | %s |' % (name, len(have), ' | '.join(cells)))
