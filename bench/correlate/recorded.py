#!/usr/bin/env python3
"""bench/correlate/recorded.py: gpusim's whole-workload cycles beside the
GPGPU-Sim cycles recorded in recorded_gg.csv, without running GPGPU-Sim.

GPGPU-Sim needs 5 to 40 minutes per small run here, so every workload's
3.2.2-like GPGPU-Sim total (GPGPU-Sim 4.2 with gg_3.2.2_like.config, the
correlate.sh runs of sessions 6-15, docs/correlation.md) is kept in
recorded_gg.csv. This script runs gpusim on each recorded workload (or reuses
stats JSON files already in --stats-dir), and prints a markdown table with
the ratio gpusim / GPGPU-Sim and a summary: mean absolute error and Pearson r
of log cycles over the workloads whose GPGPU-Sim result verified, and how
many are within +-10 %. A model change is judged by running it twice, e.g.

  recorded.py --stats-dir out/before -o pipes.wb_reserve=false
  recorded.py --stats-dir out/after

A GPGPU-Sim total is only as recent as its row says (gg_queues: 8:8:8:8 for
runs before session 13, 11:8:8:8 after; gg_icnt: the interconnect file it
ran with, 4.2's or 3.2.2's; docs/correlation.md); correlate.sh with the
user's own GPGPU-Sim is the tool for fresh per-kernel comparisons. A
workload may have a row per network; --network picks one kind, e.g.

  recorded.py --stats-dir out/iq --network 3.2.2 -o icnt.topology=xbar_iq

compares gpusim's input-queued crossbar with GPGPU-Sim on 3.2.2's network.
gpusim runs each (workload, size) once, whatever the number of its rows.
recorded_gg_stock.csv holds stock GPGPU-Sim 4.2 runs (SM2_GTX480 as
shipped, no appended configuration), the partner of the preset
gtx480-gpgpusim42 (docs/correlation.md, session 20):

  recorded.py --recorded recorded_gg_stock.csv -c gtx480-gpgpusim42 --stats-dir out/s42

--svg F writes a log-log scatter of the verified rows (one point per
workload, the y = x line and the +-10 % band, as correlate.py's per-kernel
figure); --svg-with LABEL=DIR adds the same rows from an earlier run's
--stats-dir as another series, e.g. the seeds' model beside the preset:

  recorded.py --recorded recorded_gg_stock.csv -c gtx480 --stats-dir out/g
  recorded.py --recorded recorded_gg_stock.csv -c gtx480-gpgpusim42 --stats-dir out/s42 \
      --svg fig.svg --svg-with gtx480=out/g

Python 3.6+, standard library only.
"""
import argparse
import concurrent.futures
import csv
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.abspath(os.path.join(HERE, '..', '..'))
sys.path.insert(0, HERE)
from correlate import pearson, svg_scatter  # noqa: E402 (the report's own Pearson r and figure)


def load_recorded(path):
    rows = []
    with open(path, newline='') as f:
        for r in csv.DictReader(f):
            if not r['gg_cycles']:
                continue  # compared, but GPGPU-Sim gave no total (its row says why)
            r['gg_cycles'] = float(r['gg_cycles'])
            # GPGPU-Sim's interconnect file: '4.2' (its config_fermi_islip.icnt,
            # internal speedup 2; every run before session 18) or '3.2.2'
            # (correlate.sh --gg-icnt gg_3.2.2_like.icnt); docs/correlation.md
            r['gg_icnt'] = (r.get('gg_icnt') or '4.2').strip()
            rows.append(r)
    return rows


def kernel_cycles(stats_path, kernels):
    """Sum of dispatch.kernel_cycles over the run's launches (the statistic
    correlate.py compares), or, for a recorded row whose GPGPU-Sim run
    stopped early, over the launches of the named kernels only and/or the
    first N launches ('first:N')."""
    with open(stats_path) as f:
        js = json.load(f)
    first = None
    for k in kernels:
        if k.startswith('first:'):
            first = int(k[6:])
    names = [k for k in kernels if not k.startswith('first:')]
    total = 0.0
    for i, launch in enumerate(js['stats']['kernels']):
        if first is not None and i >= first:
            break
        if names and launch['name'] not in names:
            continue
        v = launch['stats'].get('dispatch.kernel_cycles', 0)
        total += v.get('total', 0) if isinstance(v, dict) else v
    return total


def run_one(args, key):
    r = {'workload': key[0], 'size': key[1]}
    name = '%s_%s.json' % (r['workload'], r['size'])
    out = os.path.join(args.stats_dir, name)
    if os.path.exists(out) and os.path.getsize(out) > 0:
        with open(out) as f:
            if json.load(f).get('complete'):
                return out, None
        os.unlink(out)  # an interrupted run's partial statistics: run again
    cmd = [args.gpusim, 'run', r['workload'], '--size', r['size'], '-c', args.config, '--threads',
           str(args.threads), '--pin', 'none', '-q', '-o', 'sim.mode=timing', '--stats', out]
    for o in args.o:
        cmd += ['-o', o]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if p.returncode != 0:
        return None, '%s: exit %d: %s' % (' '.join(cmd), p.returncode, p.stdout.strip()[-400:])
    return out, None


def stats_of(rows):
    """MAE (%), Pearson r of log cycles and the count within +-10 % over rows
    (each with its ratio): the summary line and the figure legend."""
    if not rows:
        return {'n': 0, 'mae': None, 'r': None, 'within10': 0}
    err = [abs(r['ratio'] - 1.0) for r in rows]
    return {'n': len(rows), 'mae': 100 * sum(err) / len(err), 'within10': sum(1 for e in err if e <= 0.10),
            'r': pearson([math.log(x['gs_cycles']) for x in rows], [math.log(x['gg_cycles']) for x in rows])}


def series_of(label, rows):
    """One scatter series: a point per verified row, named workload (kernels) size."""
    pts = [('%s%s %s' % (r['workload'], ' (%s)' % r['kernels'] if r['kernels'] else '', r['size']),
            int(round(r['gg_cycles'])), int(round(r['gs_cycles']))) for r in rows]
    return {'label': label, 'points': pts, 'summary': stats_of(rows)}


def summary(rows):
    """The table's summary line: stats_of(rows) as text."""
    if not rows:
        return 'none'
    st = stats_of(rows)
    return 'MAE %.1f %%, r %.4f (log cycles), %d of %d within +-10 %%' % (st['mae'], st['r'], st['within10'], st['n'])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--recorded', default=os.path.join(HERE, 'recorded_gg.csv'), help='GPGPU-Sim totals (CSV)')
    ap.add_argument('--gpusim', default=os.path.join(SRC, 'build', 'gpusim'), help='gpusim binary')
    ap.add_argument('-c', '--config', default='gtx480', help='gpusim preset or .cfg file')
    ap.add_argument('-o', action='append', default=[], metavar='KEY=VALUE', help='gpusim override (repeatable)')
    ap.add_argument('--stats-dir', required=True, help='gpusim stats JSONs: reused when present, else written')
    ap.add_argument('--jobs', type=int, default=1, help='gpusim runs at once (default 1)')
    ap.add_argument('--threads', type=int, default=1, help='host threads per gpusim run (default 1)')
    ap.add_argument('--only', nargs='*', help='these workloads only')
    ap.add_argument('--network', choices=['all', '4.2', '3.2.2'], default='all',
                    help="rows whose GPGPU-Sim ran with this interconnect file (default all)")
    ap.add_argument('--out', help='write the table here too (markdown)')
    ap.add_argument('--svg', help='write a log-log scatter of the verified rows here (one point per workload)')
    ap.add_argument('--svg-label', help='this run\'s series label (default: the config and overrides)')
    ap.add_argument('--svg-with', action='append', default=[], metavar='LABEL=DIR',
                    help='another series: the same rows from an earlier --stats-dir DIR (repeatable)')
    args = ap.parse_args()
    extra = []
    for sw in args.svg_with:
        if '=' not in sw:
            ap.error('--svg-with wants LABEL=DIR, got %r' % sw)
        label, d = sw.split('=', 1)
        if not os.path.isdir(d):
            ap.error('--svg-with %s: no directory %s' % (label, d))
        extra.append((label, d))

    rows = load_recorded(args.recorded)
    if args.only:
        rows = [r for r in rows if r['workload'] in args.only]
    if args.network != 'all':
        rows = [r for r in rows if r['gg_icnt'] == args.network]
    os.makedirs(args.stats_dir, exist_ok=True)
    failed = []
    keys = []  # one gpusim run per (workload, size), in row order
    for r in rows:
        if (r['workload'], r['size']) not in keys:
            keys.append((r['workload'], r['size']))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        done = dict(zip(keys, ex.map(lambda k: run_one(args, k), keys)))
    for k in keys:
        if done[k][1]:
            failed.append(done[k][1])
    for r in rows:
        path, err = done[(r['workload'], r['size'])]
        if err:
            r['gs_cycles'] = None
            continue
        r['gs_cycles'] = kernel_cycles(path, r['kernels'].split())
        r['ratio'] = r['gs_cycles'] / r['gg_cycles']
    lines = ['| workload | size | cycles gpusim | cycles GPGPU-Sim | ratio | GPGPU-Sim verified | queues | network |',
             '|---|---|--:|--:|--:|---|---|---|']
    for r in rows:
        if r['gs_cycles'] is None:
            lines.append('| %s | %s | failed | %d | | %s | %s | %s |' % (r['workload'], r['size'], r['gg_cycles'],
                                                                       r['gg_verified'], r['gg_queues'], r['gg_icnt']))
            continue
        flag = '' if abs(r['ratio'] - 1) <= 0.10 else ' **'
        lines.append('| %s%s | %s | %d | %d | %.3f%s | %s | %s | %s |' % (r['workload'], ' (%s)' % r['kernels'] if r['kernels'] else '', r['size'], r['gs_cycles'],
                                                                       r['gg_cycles'], r['ratio'], flag,
                                                                       r['gg_verified'], r['gg_queues'], r['gg_icnt']))
    ok = [r for r in rows if r['gs_cycles'] is not None]
    ver = [r for r in ok if r['gg_verified'] == 'yes']
    lines += ['', '- GPGPU-Sim verified: ' + summary(ver), '- all recorded: ' + summary(ok)]
    nets = sorted(set(r['gg_icnt'] for r in ok))
    if len(nets) > 1:  # a workload may appear once per network: summarise each kind apart
        for net in nets:
            lines.append('- GPGPU-Sim verified, %s network: %s' % (
                net, summary([r for r in ver if r['gg_icnt'] == net])))
    lines += ['- network = GPGPU-Sim\'s interconnect file: 4.2 (internal speedup 2, 64-flit VCs) or 3.2.2 '
              '(one 8-flit VC, no internal speedup: --gg-icnt gg_3.2.2_like.icnt; docs/correlation.md, '
              'sessions 18-19)',
              '- ** = outside +-10 %%; config %s%s' % (args.config, ''.join(' -o ' + o for o in args.o))]
    text = '\n'.join(lines) + '\n'
    sys.stdout.write(text)
    if args.svg:
        series = []
        for label, d in extra:  # earlier runs first, this run drawn on top
            rs = []
            for r in ver:
                path = os.path.join(d, '%s_%s.json' % (r['workload'], r['size']))
                if not os.path.exists(path):
                    failed.append('--svg-with %s: no statistics %s' % (label, path))
                    continue
                c = kernel_cycles(path, r['kernels'].split())
                rs.append(dict(r, gs_cycles=c, ratio=c / r['gg_cycles']))
            series.append(series_of(label, rs))
        series.append(series_of(args.svg_label or args.config + ''.join(' -o ' + o for o in args.o), ver))
        svg_scatter(series, 'cycles', 'gpusim vs GPGPU-Sim, whole workloads (%s)' % os.path.basename(args.recorded),
                    args.svg, unit='workloads')
    if args.out:
        with open(args.out, 'w') as f:
            f.write(text)
    for e in failed:
        sys.stderr.write('recorded.py: ' + e + '\n')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
