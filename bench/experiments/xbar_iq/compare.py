#!/usr/bin/env python3
"""bench/experiments/xbar_iq/compare.py OUT: the xbar / xbar_iq table against
GPGPU-Sim with 3.2.2's network (recorded_gg.csv rows with gg_icnt = 3.2.2),
from the statistics run.sh left in OUT/xbar and OUT/xbar_iq. Markdown on
stdout. Python 3.6+, standard library only."""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COR = os.path.join(HERE, '..', '..', 'correlate')
sys.path.insert(0, COR)
from recorded import kernel_cycles  # noqa: E402 (the statistic recorded.py compares)


def main():
    out = sys.argv[1]
    rows = list(csv.DictReader(open(os.path.join(COR, 'recorded_gg.csv'), newline='')))
    g42 = {(r['workload'], r['size']): r for r in rows if r['gg_icnt'] == '4.2' and r['gg_cycles']}
    lines = ['| workload | size | GPGPU-Sim, 4.2 network | GPGPU-Sim, 3.2.2 network | its result | '
             'gpusim `xbar` | ratio | gpusim `xbar_iq` | ratio |',
             '|---|---|--:|--:|---|--:|--:|--:|--:|']
    ex, eq = [], []
    for r in rows:
        if r['gg_icnt'] != '3.2.2' or not r['gg_cycles']:
            continue
        k = (r['workload'], r['size'])
        paths = [os.path.join(out, net, '%s_%s.json' % k) for net in ('xbar', 'xbar_iq')]
        if not all(os.path.exists(p) for p in paths):
            continue
        gg = float(r['gg_cycles'])
        x, q = (kernel_cycles(p, r['kernels'].split()) for p in paths)
        old = g42.get(k)
        flag = lambda v: ' **' if abs(v - 1) > 0.10 else ''  # noqa: E731
        lines.append('| %s | %s | %s | %s | %s | %s | %.3f%s | %s | %.3f%s |' % (
            k[0], k[1], '{:,}'.format(int(float(old['gg_cycles']))) if old else '', '{:,}'.format(int(gg)),
            'verified' if r['gg_verified'] == 'yes' else 'wrong or partial',
            '{:,}'.format(int(x)), x / gg, flag(x / gg), '{:,}'.format(int(q)), q / gg, flag(q / gg)))
        if r['gg_verified'] == 'yes':
            ex.append(x / gg)
            eq.append(q / gg)

    def summ(v):
        err = [abs(a - 1) for a in v]
        return 'MAE %.1f %%, %d of %d within 10 %%' % (100 * sum(err) / len(err), sum(e <= 0.1 for e in err),
                                                      len(err)) if v else 'none'
    lines += ['', 'Over the %d rows GPGPU-Sim verified: `xbar` %s; `xbar_iq` %s. ** = outside +-10 %%.'
              % (len(ex), summ(ex), summ(eq))]
    print('\n'.join(lines))


if __name__ == '__main__':
    main()
