#!/usr/bin/env python3
"""bench/correlate/correlate.py: tables and a scatter plot of gpusim against
GPGPU-Sim, per kernel, from the runs correlate.sh (or the same layout by hand)
left behind.

A run directory RUNS holds <workload>_<size>/{gg,gs}_r<k>/, where gg_r<k> has
GPGPU-Sim's stdout in `log` and gs_r<k> has gpusim's `stats.json`; both may
have `time` (GNU time: wall=..,user=..,sys=..) for the speed columns.

  correlate.py RUNS[=LABEL] [RUNS2[=LABEL2] ...] --out DIR [--items W:S ...]
               [--title TEXT] [--stat cycles]

The first RUNS is the one tabulated in full; every further RUNS adds a
cycle-ratio column, its own error summary and its own series in the plot
(e.g. the same GPGPU-Sim runs against two gpusim presets). Writes
DIR/correlation.md, DIR/kernels.csv, DIR/workloads.csv and
DIR/scatter_<stat>.svg. Python 3.6+, standard library only.

What is compared, per kernel name (summed over its launches) and per run:
  cycles        gpusim dispatch.kernel_cycles; GPGPU-Sim gpu_sim_cycle
  warp_insts    gpusim func.warp_insts; GPGPU-Sim gpgpu_n_tot_w_icount (delta)
  thread_insts  gpusim func.thread_insts; GPGPU-Sim gpu_sim_insn
  ipc           thread instructions per cycle, both
  l1d_acc/miss  gpusim l1d.loads+stores / load_misses+store_misses;
                GPGPU-Sim L1D_total_cache_accesses / _misses (delta)
  l2_acc/miss   gpusim l2.hits+misses / misses (128 B lines); GPGPU-Sim
                L2_total_cache_accesses / _misses (delta; 32 B sectors in 4.x)
  dram_rd/wr    64 B column commands: gpusim dram.rd_cmds / wr_cmds;
                GPGPU-Sim n_rd+n_rd_L2_A / n_write+n_wr_bk over channels (delta)
  row_hit       row-buffer hit rate: gpusim row_hits / (hits+misses+conflicts),
                per request; with l2.sector_fetch per column command (a request's
                commands after its first hit its open row), since GPGPU-Sim 4.x's
                sectored L2 sends each sector as its own DRAM request;
                GPGPU-Sim sum over channels of Row_Buffer_Locality x n_req (delta)
GPGPU-Sim prints memory and instruction counters cumulatively at the end of
each kernel; the per-kernel values are differences of successive dumps.
"""
import argparse
import collections
import csv
import glob
import json
import math
import os
import re
import sys

METRICS = ['cycles', 'warp_insts', 'thread_insts', 'l1d_acc', 'l1d_miss', 'l2_acc', 'l2_miss',
           'dram_rd', 'dram_wr', 'row_hits', 'row_acc']


def read_time(d):
    """GNU time's line(s) in d/time as a dict of floats (empty if absent)."""
    t = {}
    p = os.path.join(d, 'time')
    if not os.path.exists(p):
        return t
    with open(p) as f:
        for line in f:
            for k, v in re.findall(r'(\w+)=([-\d.]+)', line):
                t[k] = float(v)
    return t


def new_kernel():
    k = collections.OrderedDict((m, 0) for m in METRICS)
    k['launches'] = 0
    return k


# ---------------------------------------------------------------- GPGPU-Sim
_NUM = r'([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|nan|-nan|inf))'


def _f(x):
    try:
        v = float(x)
    except ValueError:
        return float('nan')
    return v


def parse_gg_log(text):
    """Per-launch records from GPGPU-Sim 4.x stdout, in launch order.

    Each record holds the per-launch cycles and thread instructions and the
    cumulative counters printed with it (warp instructions, L1D, L2, and per
    DRAM channel: read/write commands, requests and row-buffer locality)."""
    launches = []
    cur = None
    chan = None
    for line in text.splitlines():
        m = re.match(r'kernel_name = (\S+)', line)
        if m:
            cur = {'name': m.group(1), 'dram': {}}
            launches.append(cur)
            chan = None
            continue
        if cur is None:
            continue
        m = re.match(r'\s*(gpu_sim_cycle|gpu_sim_insn|gpgpu_n_tot_w_icount|L1D_total_cache_accesses|'
                     r'L1D_total_cache_misses|L2_total_cache_accesses|L2_total_cache_misses) = (\d+)', line)
        if m:
            cur.setdefault(m.group(1), int(m.group(2)))
            continue
        m = re.match(r'DRAM\[(\d+)\]:', line)
        if m:
            chan = cur['dram'].setdefault(int(m.group(1)), {})
            continue
        if chan is not None:
            m = re.match(r'n_cmd=\d+ .*n_req=(\d+) n_rd=(\d+) n_rd_L2_A=(\d+) n_write=(\d+) n_wr_bk=(\d+)', line)
            if m:
                chan['req'] = int(m.group(1))
                chan['rd'] = int(m.group(2)) + int(m.group(3))
                chan['wr'] = int(m.group(4)) + int(m.group(5))
                continue
            m = re.match(r'Row_Buffer_Locality = ' + _NUM, line)
            if m:
                v = _f(m.group(1))
                chan['rbl'] = 0.0 if math.isnan(v) or math.isinf(v) else v
                chan = None
    return launches


def gg_cumulative(rec):
    """The cumulative counters of one GPGPU-Sim launch record."""
    c = {'warp_insts': rec.get('gpgpu_n_tot_w_icount', 0),
         'l1d_acc': rec.get('L1D_total_cache_accesses', 0), 'l1d_miss': rec.get('L1D_total_cache_misses', 0),
         'l2_acc': rec.get('L2_total_cache_accesses', 0), 'l2_miss': rec.get('L2_total_cache_misses', 0),
         'dram_rd': 0, 'dram_wr': 0, 'row_hits': 0.0, 'row_acc': 0}
    for ch in rec['dram'].values():
        c['dram_rd'] += ch.get('rd', 0)
        c['dram_wr'] += ch.get('wr', 0)
        c['row_acc'] += ch.get('req', 0)
        c['row_hits'] += ch.get('rbl', 0.0) * ch.get('req', 0)
    return c


def parse_gg(d):
    """One GPGPU-Sim run directory: per-kernel sums, totals, verdict, time."""
    with open(os.path.join(d, 'log'), errors='replace') as f:
        text = f.read()
    kern = collections.OrderedDict()
    prev = None
    for rec in parse_gg_log(text):
        cum = gg_cumulative(rec)
        k = kern.setdefault(rec['name'], new_kernel())
        k['launches'] += 1
        k['cycles'] += rec.get('gpu_sim_cycle', 0)
        k['thread_insts'] += rec.get('gpu_sim_insn', 0)
        for m, v in cum.items():
            k[m] += v - (prev[m] if prev else 0)
        prev = cum
    for k in kern.values():
        k['row_hits'] = int(round(k['row_hits']))
    v = re.findall(r'APP-VERDICT .*: (.*)', text)
    t = read_time(d)
    verdict = v[-1].strip() if v else 'no verdict (rc=%s)' % (int(t['rc']) if 'rc' in t else '?')
    return {'kernels': kern, 'verdict': verdict, 'time': t}


# ---------------------------------------------------------------- gpusim
def parse_gs(d):
    """One gpusim run directory (stats.json): per-kernel sums, verdict, time."""
    with open(os.path.join(d, 'stats.json')) as f:
        js = json.load(f)
    kern = collections.OrderedDict()
    # With l2.sector_fetch every sector of a line read is its own DRAM
    # column command, as each sector miss is its own DRAM request in
    # GPGPU-Sim 4.x's sectored L2, whose row-buffer locality counts those
    # requests: count row hits per command then, so both sides count alike.
    per_cmd = str(js.get('config', {}).get('l2.sector_fetch', 'false')).lower() == 'true'
    for launch in js['stats']['kernels']:
        s = launch['stats']

        def g(key):
            v = s.get(key, 0)
            return v.get('total', 0) if isinstance(v, dict) else v
        k = kern.setdefault(launch['name'], new_kernel())
        k['launches'] += 1
        k['cycles'] += g('dispatch.kernel_cycles')
        k['warp_insts'] += g('func.warp_insts')
        k['thread_insts'] += g('func.thread_insts')
        k['l1d_acc'] += g('l1d.loads') + g('l1d.stores')
        k['l1d_miss'] += g('l1d.load_misses') + g('l1d.store_misses')
        k['l2_acc'] += g('l2.hits') + g('l2.misses')
        k['l2_miss'] += g('l2.misses')
        k['dram_rd'] += g('dram.rd_cmds')
        k['dram_wr'] += g('dram.wr_cmds')
        reqs = g('dram.row_hits') + g('dram.row_misses') + g('dram.row_conflicts')
        if per_cmd:
            # one request of k sectors is k column commands to its open row:
            # its first command is the hit, miss or conflict, the rest hit
            cmds = g('dram.rd_cmds') + g('dram.wr_cmds')
            k['row_hits'] += g('dram.row_hits') + max(cmds - reqs, 0)
            k['row_acc'] += max(cmds, reqs)
        else:
            k['row_hits'] += g('dram.row_hits')
            k['row_acc'] += reqs
    run = js.get('run', {})
    return {'kernels': kern, 'verdict': run.get('verdict', '?'), 'time': read_time(d),
            'config': js.get('config', {})}


# ---------------------------------------------------------------- collection
def load_item(runs, item):
    """(gg runs, gs runs) of one workload:size in RUNS; unreadable runs are skipped with a note."""
    w, s = item.split(':')
    base = os.path.join(runs, '%s_%s' % (w, s))
    out = {}
    for sim, parse in (('gg', parse_gg), ('gs', parse_gs)):
        res = []
        for d in sorted(glob.glob(os.path.join(base, sim + '_r*'))):
            try:
                r = parse(d)
            except (OSError, ValueError, KeyError) as e:
                sys.stderr.write('correlate.py: skipping %s: %s\n' % (d, e))
                continue
            if r['kernels']:
                res.append(r)
            else:
                sys.stderr.write('correlate.py: skipping %s: no kernel statistics (%s)\n' % (d, r['verdict']))
        out[sim] = res
    return out['gg'], out['gs']


def total(kernels):
    t = new_kernel()
    for k in kernels.values():
        for m in METRICS + ['launches']:
            t[m] += k[m]
    return t


def ratio(a, b):
    return a / b if b else float('nan')


def rate(n, d):
    return n / d if d else float('nan')


def best_time(runs):
    """Fastest run's wall and CPU (user+sys) seconds, or (nan, nan)."""
    walls = [r['time']['wall'] for r in runs if 'wall' in r['time']]
    cpus = [r['time']['user'] + r['time'].get('sys', 0) for r in runs if 'user' in r['time']]
    return (min(walls) if walls else float('nan'), min(cpus) if cpus else float('nan'))


def pearson(xs, ys):
    n = len(xs)
    if n < 2:
        return float('nan')
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float('nan')


def error_summary(pairs):
    """pairs: [(gg, gs)] of a statistic. Mean absolute relative error (%),
    Pearson r of the raw values and of their logarithms, and how many lie
    within +-10 %."""
    pairs = [(a, b) for a, b in pairs if a > 0 and b > 0]
    if not pairs:
        return {'n': 0, 'mae': float('nan'), 'r': float('nan'), 'r_log': float('nan'), 'within10': 0}
    errs = [abs(b / a - 1) for a, b in pairs]
    return {'n': len(pairs), 'mae': 100 * sum(errs) / len(errs),
            'r': pearson([a for a, _ in pairs], [b for _, b in pairs]),
            'r_log': pearson([math.log(a) for a, _ in pairs], [math.log(b) for _, b in pairs]),
            'within10': sum(1 for e in errs if e <= 0.10 + 1e-12),
            'max': max(errs) * 100}


# ---------------------------------------------------------------- formatting
def fmt(x, p=2):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return '-'
    if isinstance(x, float):
        return ('%.' + str(p) + 'f') % x
    return '{:,}'.format(x)


def pct(n, d):
    return fmt(100.0 * n / d, 1) if d else '-'


def svg_scatter(series, stat, title, path, unit='kernels'):
    """Log-log scatter: x = GPGPU-Sim, y = gpusim, one point per kernel (or
    whatever `unit` names) and series, the y = x line and the +-10 % band."""
    pts = [(x, y) for s in series for (_, x, y) in s['points'] if x > 0 and y > 0]
    W, H, L, R, T, B = 800, 600, 90, 290, 50, 60
    if pts:
        lo = min(min(x, y) for x, y in pts) / 1.5
        hi = max(max(x, y) for x, y in pts) * 1.5
    else:
        lo, hi = 1.0, 10.0
    e0, e1 = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    if e1 == e0:
        e1 += 1
    pw, ph = W - L - R, H - T - B

    def px(v):
        return L + (math.log10(v) - e0) / (e1 - e0) * pw

    def py(v):
        return T + ph - (math.log10(v) - e0) / (e1 - e0) * ph
    vlo, vhi = 10.0 ** e0, 10.0 ** e1
    o = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
         'font-family="sans-serif" font-size="12">' % (W, H, W, H),
         '<title>%s</title>' % esc(title),
         '<rect x="0" y="0" width="%d" height="%d" fill="white"/>' % (W, H),
         '<text x="%d" y="24" font-size="15" text-anchor="middle">%s</text>' % (L + pw // 2, esc(title))]
    o.append('<clipPath id="plot"><rect x="%d" y="%d" width="%d" height="%d"/></clipPath>' % (L, T, pw, ph))
    # +-10 % band between y = 0.9 x and y = 1.1 x, then y = x
    band = [(vlo, vlo * 1.1), (vhi, vhi * 1.1), (vhi, vhi * 0.9), (vlo, vlo * 0.9)]
    o.append('<polygon class="band" clip-path="url(#plot)" points="%s" fill="#cfe3f7" stroke="none"/>'
             % ' '.join('%.1f,%.1f' % (px(a), py(b)) for a, b in band))
    o.append('<line class="diag" clip-path="url(#plot)" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" '
             'stroke="#3a6ea5" stroke-width="1.2"/>' % (px(vlo), py(vlo), px(vhi), py(vhi)))
    # grid and ticks (decades, with 2..9 minor lines)
    for e in range(e0, e1 + 1):
        v = 10.0 ** e
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#bbb"/>' % (px(v), T, px(v), T + ph))
        o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#bbb"/>' % (L, py(v), L + pw, py(v)))
        o.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (px(v), T + ph + 18, tick(e)))
        o.append('<text x="%d" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>'
                 % (L - 6, py(v), tick(e)))
        if e < e1:
            for m in range(2, 10):
                o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>'
                         % (px(m * v), T, px(m * v), T + ph))
                o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>'
                         % (L, py(m * v), L + pw, py(m * v)))
    o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>' % (L, T, pw, ph))
    o.append('<text x="%d" y="%d" text-anchor="middle">GPGPU-Sim %s</text>' % (L + pw // 2, H - 15, esc(stat)))
    o.append('<text transform="translate(20,%d) rotate(-90)" text-anchor="middle">gpusim %s</text>'
             % (T + ph // 2, esc(stat)))
    colours = ['#d62728', '#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b']
    shapes = ['circle', 'square', 'diamond', 'triangle']
    ly = T + 10
    for i, s in enumerate(series):
        c = colours[i % len(colours)]
        shape = shapes[i % len(shapes)]
        o.append('<g class="series" data-label="%s">' % esc(s['label']))
        for name, x, y in s['points']:
            if x <= 0 or y <= 0:
                continue
            o.append(marker(shape, px(x), py(y), c, '%s: GPGPU-Sim %s, gpusim %s (%.3f)'
                            % (name, fmt(x), fmt(y), y / x)))
        o.append('</g>')
        summ = s['summary']
        o.append(marker(shape, L + pw + 18, ly, c, s['label']))
        o.append('<text x="%d" y="%d" dominant-baseline="middle">%s</text>' % (L + pw + 28, ly, esc(s['label'])))
        o.append('<text x="%d" y="%d" font-size="11" fill="#444">%d %s, MAE %s%%, r %s, %d in &#177;10%%</text>'
                 % (L + pw + 28, ly + 15, summ['n'], esc(unit), fmt(summ['mae'], 1), fmt(summ['r'], 3),
                    summ['within10']))
        ly += 40
    o.append('<rect x="%d" y="%d" width="14" height="10" fill="#cfe3f7"/>' % (L + pw + 11, ly - 5))
    o.append('<text x="%d" y="%d" dominant-baseline="middle">&#177;10%% of y = x</text>' % (L + pw + 28, ly))
    o.append('</svg>')
    with open(path, 'w') as f:
        f.write('\n'.join(o) + '\n')


def tick(e):
    return '{:,}'.format(10 ** e) if 0 <= e <= 7 else '1e%d' % e


def esc(s):
    return str(s).replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;').replace('"', '&quot;')


def marker(shape, x, y, colour, tip):
    t = '<title>%s</title>' % esc(tip)
    if shape == 'square':
        return '<rect x="%.1f" y="%.1f" width="8" height="8" fill="%s" fill-opacity="0.75">%s</rect>' % (
            x - 4, y - 4, colour, t)
    if shape == 'diamond':
        return '<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="%s" fill-opacity="0.75">%s</polygon>' % (
            x, y - 5, x + 5, y, x, y + 5, x - 5, y, colour, t)
    if shape == 'triangle':
        return '<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="%s" fill-opacity="0.75">%s</polygon>' % (
            x, y - 5, x + 5, y + 4, x - 5, y + 4, colour, t)
    return '<circle cx="%.1f" cy="%.1f" r="4.5" fill="%s" fill-opacity="0.75">%s</circle>' % (x, y, colour, t)


# ---------------------------------------------------------------- main
def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('runs', nargs='+', help='RUNS[=LABEL]: directories of <workload>_<size>/{gg,gs}_r<k>')
    ap.add_argument('--out', required=True, help='directory for correlation.md, CSVs and the SVG')
    ap.add_argument('--items', nargs='*', help='WORKLOAD:SIZE to include (default: every one in the first RUNS)')
    ap.add_argument('--only', nargs='*', dest='items_alias', help=argparse.SUPPRESS)
    ap.add_argument('--title', default='gpusim vs GPGPU-Sim', help='report and plot title')
    ap.add_argument('--stat', default='cycles', choices=METRICS[:3] + ['ipc'], help='statistic of the plot')
    a = ap.parse_args(argv)
    series = []
    for spec in a.runs:
        path, _, label = spec.partition('=')
        if not os.path.isdir(path):
            ap.error('%s: not a directory' % path)
        series.append({'dir': path, 'label': label or os.path.basename(os.path.normpath(path))})
    items = a.items or a.items_alias
    if not items:
        items = sorted(os.path.basename(p).replace('_', ':', 1)
                       for p in glob.glob(os.path.join(series[0]['dir'], '*_*')) if os.path.isdir(p))
    for it in items:
        if not re.match(r'^[A-Za-z0-9_]+:(tiny|small|medium|large)$', it):
            ap.error("'%s' is not WORKLOAD:SIZE" % it)
    os.makedirs(a.out, exist_ok=True)

    # load everything: data[series][item] = (gg runs, gs runs)
    for s in series:
        s['data'] = {it: load_item(s['dir'], it) for it in items}

    def value(k, stat):
        return rate(k['thread_insts'], k['cycles']) if stat == 'ipc' else k[stat]

    # per-kernel points and summaries for each series
    for s in series:
        pts, wpairs = [], []
        for it in items:
            gg, gs = s['data'][it]
            if not gg or not gs:
                continue
            kg, ks = gg[0]['kernels'], gs[0]['kernels']
            for name in kg:
                if name in ks:
                    pts.append(('%s %s' % (it, name), value(kg[name], a.stat), value(ks[name], a.stat)))
            wpairs.append((total(kg)['cycles'], total(ks)['cycles']))
        s['points'] = pts
        s['summary'] = error_summary([(x, y) for _, x, y in pts])
        s['wsummary'] = error_summary(wpairs)

    p = series[0]
    md = ['# %s' % a.title, '']
    md.append('gpusim (gs) against GPGPU-Sim (gg), one host thread each. Runs: %s.' % ', '.join(
        '`%s` (%s)' % (s['dir'], s['label']) for s in series))
    md.append('Cycle ratio = gpusim / GPGPU-Sim; MAE = mean |ratio - 1| over kernels (or workloads); '
              'r = Pearson correlation of the raw values (r log: of their logarithms).')
    md.append('')
    md.append('## Summary (%s)' % a.stat)
    md.append('')
    md.append('| series | kernels | MAE % | max error % | r | r log | within +-10 % | workloads | workload MAE % | workloads within +-10 % |')
    md.append('|---|---|---|---|---|---|---|---|---|---|')
    for s in series:
        k, w = s['summary'], s['wsummary']
        md.append('| %s | %d | %s | %s | %s | %s | %d | %d | %s | %d |' % (
            s['label'], k['n'], fmt(k['mae'], 1), fmt(k.get('max', float('nan')), 1), fmt(k['r'], 3),
            fmt(k['r_log'], 3), k['within10'], w['n'], fmt(w['mae'], 1), w['within10']))
    md.append('')

    # workload table (first series in full, cycle ratios of the others)
    md.append('## Workloads (%s)' % p['label'])
    md.append('')
    extra = ''.join(' %s ratio |' % s['label'] for s in series[1:])
    md.append('| workload | size | warp insts gs / gg | thread insts gs / gg | cycles gs | cycles gg | ratio |%s IPC gs / gg | '
              'L1D miss %% gs / gg | L2 miss %% gs / gg | DRAM rd cmds gs / gg | DRAM wr cmds gs / gg | row hit %% gs / gg | verdict gs / gg |' % extra)
    md.append('|' + '---|' * (14 + len(series) - 1))
    wrows, speed = [], []
    for it in items:
        w, sz = it.split(':')
        gg, gs = p['data'][it]
        if not gg or not gs:
            md.append('| %s | %s | (no comparable result: GPGPU-Sim %s, gpusim %s) |' % (
                w, sz, 'ran' if gg else 'missing or failed', 'ran' if gs else 'missing or failed'))
            continue
        tg, ts = total(gg[0]['kernels']), total(gs[0]['kernels'])
        others = ''
        for s in series[1:]:
            g2, s2 = s['data'][it]
            others += ' %s |' % (fmt(ratio(total(s2[0]['kernels'])['cycles'], total(g2[0]['kernels'])['cycles']), 3)
                                 if g2 and s2 else '-')
        md.append('| %s | %s | %s / %s | %s / %s | %s | %s | %s |%s %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s |' % (
            w, sz, fmt(ts['warp_insts']), fmt(tg['warp_insts']), fmt(ts['thread_insts']), fmt(tg['thread_insts']),
            fmt(ts['cycles']), fmt(tg['cycles']), fmt(ratio(ts['cycles'], tg['cycles']), 3), others,
            fmt(rate(ts['thread_insts'], ts['cycles'])), fmt(rate(tg['thread_insts'], tg['cycles'])),
            pct(ts['l1d_miss'], ts['l1d_acc']), pct(tg['l1d_miss'], tg['l1d_acc']),
            pct(ts['l2_miss'], ts['l2_acc']), pct(tg['l2_miss'], tg['l2_acc']),
            fmt(ts['dram_rd']), fmt(tg['dram_rd']), fmt(ts['dram_wr']), fmt(tg['dram_wr']),
            pct(ts['row_hits'], ts['row_acc']), pct(tg['row_hits'], tg['row_acc']),
            gs[0]['verdict'], gg[0]['verdict']))
        wg, cg = best_time(gg)
        wsw, cs = best_time(gs)
        speed.append((w, sz, ts['warp_insts'], tg['warp_insts'], wsw, wg, cs, cg, len(gs), len(gg)))
        wrows.append([w, sz] + [ts[m] for m in METRICS] + [tg[m] for m in METRICS] +
                     [ratio(ts['cycles'], tg['cycles']), wsw, cs, wg, cg, gs[0]['verdict'], gg[0]['verdict']])
    md.append('')

    # kernel table
    md.append('## Kernels (%s; summed over launches)' % p['label'])
    md.append('')
    md.append('| workload | kernel | launches | cycles gs | cycles gg | ratio |%s warp insts gs / gg | IPC gs / gg | '
              'L1D miss %% gs / gg | L2 miss %% gs / gg | DRAM rd gs / gg | DRAM wr gs / gg | row hit %% gs / gg |' % extra)
    md.append('|' + '---|' * (13 + len(series) - 1))
    krows = []
    for it in items:
        gg, gs = p['data'][it]
        if not gg or not gs:
            continue
        kg, ks = gg[0]['kernels'], gs[0]['kernels']
        for name in list(ks) + [n for n in kg if n not in ks]:
            a_, b_ = ks.get(name), kg.get(name)
            if a_ is None or b_ is None:
                md.append('| %s | %s | (only in %s) |' % (it, name, 'gpusim' if a_ else 'GPGPU-Sim'))
                continue
            others = ''
            for s in series[1:]:
                g2, s2 = s['data'][it]
                if g2 and s2 and name in g2[0]['kernels'] and name in s2[0]['kernels']:
                    others += ' %s |' % fmt(ratio(s2[0]['kernels'][name]['cycles'], g2[0]['kernels'][name]['cycles']), 3)
                else:
                    others += ' - |'
            md.append('| %s | %s | %s | %s | %s | %s |%s %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s |' % (
                it, name, '%d' % a_['launches'] if a_['launches'] == b_['launches'] else '%d / %d' % (a_['launches'], b_['launches']),
                fmt(a_['cycles']), fmt(b_['cycles']), fmt(ratio(a_['cycles'], b_['cycles']), 3), others,
                fmt(a_['warp_insts']), fmt(b_['warp_insts']),
                fmt(rate(a_['thread_insts'], a_['cycles'])), fmt(rate(b_['thread_insts'], b_['cycles'])),
                pct(a_['l1d_miss'], a_['l1d_acc']), pct(b_['l1d_miss'], b_['l1d_acc']),
                pct(a_['l2_miss'], a_['l2_acc']), pct(b_['l2_miss'], b_['l2_acc']),
                fmt(a_['dram_rd']), fmt(b_['dram_rd']), fmt(a_['dram_wr']), fmt(b_['dram_wr']),
                pct(a_['row_hits'], a_['row_acc']), pct(b_['row_hits'], b_['row_acc'])))
            for s in series:
                g2, s2 = s['data'][it]
                if g2 and s2 and name in g2[0]['kernels'] and name in s2[0]['kernels']:
                    x, y = s2[0]['kernels'][name], g2[0]['kernels'][name]
                    krows.append([s['label'], it.split(':')[0], it.split(':')[1], name, x['launches']] +
                                 [x[m] for m in METRICS] + [y[m] for m in METRICS] + [ratio(x['cycles'], y['cycles'])])
    md.append('')

    # speed
    md.append('## Speed (%s; fastest run of each, one host thread)' % p['label'])
    md.append('')
    md.append('Warp instructions per second of host time (K = 1000). CPU = user + sys.')
    md.append('')
    md.append('| workload | size | warp insts | wall s gs (n) | wall s gg (n) | KWIPS wall gs | KWIPS wall gg | KWIPS CPU gs | KWIPS CPU gg | ratio (CPU) |')
    md.append('|---|---|---|---|---|---|---|---|---|---|')
    for w, sz, wis, wig, wsw, wg, cs, cg, ns, ng in speed:
        kws, kwg = rate(wis, wsw) / 1e3, rate(wig, wg) / 1e3
        # a gpusim run can finish within GNU time's 10 ms resolution
        kcs, kcg = rate(wis, max(cs, 0.01)) / 1e3, rate(wig, cg) / 1e3
        md.append('| %s | %s | %s | %s (%d) | %s (%d) | %s | %s | %s | %s | %sx |' % (
            w, sz, fmt(wis), fmt(wsw), ns, fmt(wg), ng, fmt(kws, 1), fmt(kwg, 1), fmt(kcs, 1), fmt(kcg, 1),
            fmt(ratio(kcs, kcg), 1)))
    md.append('')
    md.append('Units: L1D accesses are 128 B line transactions on both; L2 accesses are 128 B lines in gpusim and '
              '32 B sectors in GPGPU-Sim 4.x (sectored L2), so L2 miss rates are comparable, counts are not; '
              'DRAM counts are 64 B column commands on both.')
    text = '\n'.join(md) + '\n'
    with open(os.path.join(a.out, 'correlation.md'), 'w') as f:
        f.write(text)
    hdr_m = ['gs_' + m for m in METRICS] + ['gg_' + m for m in METRICS]
    with open(os.path.join(a.out, 'kernels.csv'), 'w', newline='') as f:
        wr = csv.writer(f)
        wr.writerow(['series', 'workload', 'size', 'kernel', 'launches'] + hdr_m + ['cycle_ratio'])
        wr.writerows(krows)
    with open(os.path.join(a.out, 'workloads.csv'), 'w', newline='') as f:
        wr = csv.writer(f)
        wr.writerow(['workload', 'size'] + hdr_m + ['cycle_ratio', 'gs_wall_s', 'gs_cpu_s', 'gg_wall_s', 'gg_cpu_s',
                                                    'gs_verdict', 'gg_verdict'])
        wr.writerows(wrows)
    svg_scatter(series, a.stat, a.title, os.path.join(a.out, 'scatter_%s.svg' % a.stat))
    sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
