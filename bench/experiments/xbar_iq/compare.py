#!/usr/bin/env python3
"""bench/experiments/xbar_iq/compare.py OUT: gpusim's crossbars against
GPGPU-Sim, from the statistics run.sh left in OUT. Two tables, markdown on
stdout:
  1. GPGPU-Sim with 3.2.2's network (recorded_gg.csv rows with gg_icnt =
     3.2.2: one 8-flit VC, no internal speedup) against gtx480 with `xbar`
     (OUT/xbar) and with `xbar_iq` (OUT/xbar_iq);
  2. (session 21) GPGPU-Sim with 4.2's network (rows with gg_icnt = 4.2:
     64-flit VC, internal speedup 2) against `xbar` (OUT/xbar) and `xbar_iq`
     with icnt.iq_buf_flits 64 and icnt.iq_speedup 2 (OUT/xbar_iq42).
Python 3.6+, standard library only."""
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COR = os.path.join(HERE, '..', '..', 'correlate')
sys.path.insert(0, COR)
from recorded import kernel_cycles  # noqa: E402 (the statistic recorded.py compares)


def summ(v):
    err = [abs(a - 1) for a in v]
    return 'MAE %.1f %%, %d of %d within 10 %%' % (100 * sum(err) / len(err), sum(e <= 0.1 for e in err),
                                                  len(err)) if v else 'none'


def flag(v):
    return ' **' if abs(v - 1) > 0.10 else ''


def fmt(v):
    return '{:,}'.format(int(v))


def table(out, rows, net, dirs, other, head):
    """Rows recorded with GPGPU-Sim on network net; dirs = (xbar, xbar_iq)
    stats folders under out; other = the GPGPU-Sim totals on the other
    network, for reference."""
    lines = [head, '|---|---|--:|--:|---|--:|--:|--:|--:|']
    ex, eq = [], []
    for r in rows:
        if r['gg_icnt'] != net or not r['gg_cycles']:
            continue
        k = (r['workload'], r['size'])
        paths = [os.path.join(out, d, '%s_%s.json' % k) for d in dirs]
        if not all(os.path.exists(p) for p in paths):
            continue
        gg = float(r['gg_cycles'])
        x, q = (kernel_cycles(p, r['kernels'].split()) for p in paths)
        o = other.get(k)
        lines.append('| %s | %s | %s | %s | %s | %s | %.3f%s | %s | %.3f%s |' % (
            k[0], k[1], fmt(float(o['gg_cycles'])) if o else '', fmt(gg),
            'verified' if r['gg_verified'] == 'yes' else 'wrong or partial',
            fmt(x), x / gg, flag(x / gg), fmt(q), q / gg, flag(q / gg)))
        if r['gg_verified'] == 'yes':
            ex.append(x / gg)
            eq.append(q / gg)
    return lines, ex, eq


def main():
    out = sys.argv[1]
    rows = list(csv.DictReader(open(os.path.join(COR, 'recorded_gg.csv'), newline='')))
    by = {n: {(r['workload'], r['size']): r for r in rows if r['gg_icnt'] == n and r['gg_cycles']}
          for n in ('4.2', '3.2.2')}
    lines, ex, eq = table(out, rows, '3.2.2', ('xbar', 'xbar_iq'), by['4.2'],
                          '| workload | size | GPGPU-Sim, 4.2 network | GPGPU-Sim, 3.2.2 network | its result | '
                          'gpusim `xbar` | ratio | gpusim `xbar_iq` | ratio |')
    lines += ['', 'Over the %d rows GPGPU-Sim verified: `xbar` %s; `xbar_iq` %s. ** = outside +-10 %%.'
              % (len(ex), summ(ex), summ(eq))]
    if os.path.isdir(os.path.join(out, 'xbar_iq42')):
        l2, ex, eq = table(out, rows, '4.2', ('xbar', 'xbar_iq42'), by['3.2.2'],
                           '| workload | size | GPGPU-Sim, 3.2.2 network | GPGPU-Sim, 4.2 network | its result | '
                           'gpusim `xbar` | ratio | gpusim `xbar_iq`, 64 flits, speedup 2 | ratio |')
        lines += ['', ''] + l2
        lines += ['', 'Over the %d rows GPGPU-Sim verified: `xbar` %s; `xbar_iq` with 64-flit buffers and '
                  'internal speedup 2 %s. ** = outside +-10 %%.' % (len(ex), summ(ex), summ(eq))]
    print('\n'.join(lines))


if __name__ == '__main__':
    main()
