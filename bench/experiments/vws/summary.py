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
        'policy': tot(t, 'sm.sched.stall_policy') or 0,
        'cycles': tot(t, 'sm.sched.cycles') or 1,
    }
order = ['lrr', 'gto', 'ccws', 'iwl', 'iwl_intracl', 'vws+serial']
print('| workload | scheduler | IPC / LRR | L1D APKI | hits w/c/x | misses w/c/x/cold (PKI) | L2 hits intra/inter (PKI) | mean N_act | held cycles % |')
print('|---|---|--:|--:|---|---|---|--:|--:|')
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
        print('| %s | %s | %s | %.1f | %s | %s | %s | %s | %.1f |' % (wl, s, n, r['apki'], h, m, l2, na,
                                                                  100.0 * r['policy'] / r['cycles']))
