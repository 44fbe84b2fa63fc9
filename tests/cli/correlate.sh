#!/usr/bin/env bash
# CLI: bench/correlate (docs/correlation.md), on recorded outputs only: no
# GPGPU-Sim runs here. bench/correlate/testdata/runs holds GPGPU-Sim 4.2
# stdout logs and gpusim stats.json files (reduced to the keys the tool
# reads) of vectoradd tiny (one kernel), transpose tiny (two kernels: the
# per-kernel values are differences of GPGPU-Sim's cumulative counters) and
# reduction tiny (a GPGPU-Sim run that crashed). Checks: the parsed
# per-kernel numbers against values read off the logs by hand, the Markdown,
# CSV and SVG outputs (the SVG through python3's XML parser: one point per
# kernel and series, the y = x line and the +-10 % band), two series, error
# exits, and correlate.sh end to end with --reuse-gg (gpusim runs, GPGPU-Sim
# results come from testdata). Skipped (TAP "# SKIP") without python3.
source "$(dirname "$0")/../support/cli_lib.sh"

SRC=${GPUSIM_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
C=$SRC/bench/correlate
RUNS=$C/testdata/runs
if ! command -v python3 >/dev/null 2>&1; then
  echo "ok 1 # SKIP bench/correlate: python3 not installed"
  echo "1..1"
  exit 0
fi

# ---------------------------------------------------------------- parsing
cat >"$TMP/parse.py" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import correlate as c
runs = sys.argv[2]
gg, gs = c.load_item(runs, 'transpose:tiny')
kg, ks = gg[0]['kernels'], gs[0]['kernels']
def chk(what, got, want):
    print('%s %s: got %r, want %r' % ('PASS' if got == want else 'FAIL', what, got, want))
# GPGPU-Sim: cycles and thread instructions are per launch; warp
# instructions, L1D, L2 and DRAM counters are cumulative (second minus first dump)
chk('gg naive cycles', kg['transpose_naive']['cycles'], 2628)
chk('gg tiled cycles', kg['transpose_tiled']['cycles'], 3146)
chk('gg tiled thread insts', kg['transpose_tiled']['thread_insts'], 289680)
chk('gg naive warp insts', kg['transpose_naive']['warp_insts'], 9504)
chk('gg tiled warp insts', kg['transpose_tiled']['warp_insts'], 19944 - 9504)
chk('gg tiled L1D accesses', kg['transpose_tiled']['l1d_acc'], 9041 - 8023)
chk('gg tiled L2 accesses', kg['transpose_tiled']['l2_acc'], 13415 - 9742)
chk('gg naive DRAM reads', kg['transpose_naive']['dram_rd'], 170 + 160 + 160 + 156 + 152 + 152)
chk('gg tiled DRAM reads', kg['transpose_tiled']['dram_rd'], (170 + 168 + 168 + 164 + 160 + 152) - 950)
chk('gg naive row hits', kg['transpose_naive']['row_hits'], 166 + 160 + 160 + 156 + 152 + 152)
chk('gs tiled cycles', ks['transpose_tiled']['cycles'], 2864)
chk('gs tiled warp insts', ks['transpose_tiled']['warp_insts'], 10440)
chk('gs naive DRAM reads', ks['transpose_naive']['dram_rd'], 944)
gg, gs = c.load_item(runs, 'reduction:tiny')
chk('crashed GPGPU-Sim run is left out', len(gg), 0)
chk('gpusim reduction launches', gs[0]['kernels']['reduce_u32']['launches'], 2)
# row-buffer hits per request, or per column command with l2.sector_fetch
import json, os, tempfile
for sf, want in (('false', (3, 4)), ('true', (3 + 12, 16))):
    d = tempfile.mkdtemp()
    st = {'dram.row_hits': 3, 'dram.row_misses': 1, 'dram.row_conflicts': 0, 'dram.rd_cmds': 14, 'dram.wr_cmds': 2}
    with open(os.path.join(d, 'stats.json'), 'w') as f:
        json.dump({'config': {'l2.sector_fetch': sf}, 'stats': {'kernels': [{'name': 'k', 'stats': st}]}}, f)
    k = c.parse_gs(d)['kernels']['k']
    chk('gs row hits, l2.sector_fetch %s' % sf, (k['row_hits'], k['row_acc']), want)
s = c.error_summary([(100, 110), (100, 80), (10, 10)])
chk('error summary n', s['n'], 3)
chk('error summary MAE %', round(s['mae'], 6), 10.0)
chk('error summary within 10 %', s['within10'], 2)
EOF
python3 "$TMP/parse.py" "$C" "$RUNS" >"$TMP/parse.out" 2>"$TMP/parse.err"
while read -r verdict rest; do
  [ "$verdict" = PASS ]; ok $? "parse: $rest"
done <"$TMP/parse.out"
[ "$(grep -c '' "$TMP/parse.out")" -eq 20 ]; ok $? "parse: all 20 checks ran"

# ---------------------------------------------------------------- report
expect_exit 0 "correlate.py on the recorded runs" -- python3 "$C/correlate.py" "$RUNS=recorded" --out "$TMP/r" --title "test report"
for f in correlation.md kernels.csv workloads.csv scatter_cycles.svg; do
  [ -s "$TMP/r/$f" ]; ok $? "report writes $f"
done
contains "$TMP/r/correlation.md" "| recorded | 3 | 14.3 | 17.6 |" "summary: 3 kernels, MAE 14.3 %, max error 17.6 %"
contains "$TMP/r/correlation.md" "| transpose:tiny | transpose_tiled | 1 | 2,864 | 3,146 | 0.910 |" "kernel row: transpose_tiled cycles and ratio"
contains "$TMP/r/correlation.md" "| vectoradd | tiny | 864 / 864 | 25,264 / 25,264 | 1,232 | 1,495 | 0.824 |" "workload row: vectoradd instruction counts and cycles"
contains "$TMP/r/correlation.md" "| reduction | tiny | (no comparable result: GPGPU-Sim missing or failed, gpusim ran) |" "a crashed GPGPU-Sim run is reported, not compared"
contains "$TMP/r/kernels.csv" "recorded,transpose,tiny,transpose_tiled,1,2864," "kernels.csv row"
[ "$(grep -c '' "$TMP/r/kernels.csv")" -eq 4 ]; ok $? "kernels.csv: a header and 3 kernels"
cat >"$TMP/svg.py" <<'EOF'
import sys, xml.etree.ElementTree as ET
ns = {'s': 'http://www.w3.org/2000/svg'}
root = ET.parse(sys.argv[1]).getroot()
groups = root.findall('.//s:g[@class="series"]', ns)
print(len(groups), sum(len(list(g)) for g in groups),
      len(root.findall('.//s:polygon[@class="band"]', ns)), len(root.findall('.//s:line[@class="diag"]', ns)))
EOF
python3 "$TMP/svg.py" "$TMP/r/scatter_cycles.svg" >"$TMP/svg.out" 2>&1
[ "$(cat "$TMP/svg.out")" = "1 3 1 1" ]; ok $? "SVG parses: 1 series, 3 points, the +-10 % band and y = x (got: $(cat "$TMP/svg.out"))"

expect_exit 0 "two series (the same runs twice)" -- python3 "$C/correlate.py" "$RUNS=before" "$RUNS=after" --out "$TMP/r2" --items vectoradd:tiny transpose:tiny
contains "$TMP/r2/correlation.md" "| after | 3 |" "the second series has its own summary row"
contains "$TMP/r2/correlation.md" "| 0.824 | 0.824 |" "the second series adds a ratio column"
python3 "$TMP/svg.py" "$TMP/r2/scatter_cycles.svg" >"$TMP/svg.out" 2>&1
[ "$(cat "$TMP/svg.out")" = "2 6 1 1" ]; ok $? "SVG: 2 series, 3 points each (got: $(cat "$TMP/svg.out"))"

expect_exit 2 "a RUNS that is not a directory" -- python3 "$C/correlate.py" "$TMP/nope" --out "$TMP/r3"
expect_exit 2 "an item that is not WORKLOAD:SIZE" -- python3 "$C/correlate.py" "$RUNS" --out "$TMP/r3" --items vectoradd
expect_exit 2 "correlate.sh: an unknown option" -- bash "$C/correlate.sh" --nope vectoradd:tiny
expect_exit 2 "correlate.sh: an unknown workload" -- bash "$C/correlate.sh" --out "$TMP/r4" nosuch:tiny
expect_exit 2 "correlate.sh: GPGPU-Sim needed but not given" -- bash "$C/correlate.sh" --gpusim "$GPUSIM" --out "$TMP/r4" vectoradd:tiny
contains "$TMP/err" "--gpgpusim DIR is needed" "message says what is missing"
expect_exit 2 "correlate.sh: a --gg-append file that does not exist" -- bash "$C/correlate.sh" --gg-append "$TMP/nope" --out "$TMP/r4" vectoradd:tiny
contains "$TMP/err" "--gg-append: no file" "message names the option"
expect_exit 0 "correlate.sh --help" -- bash "$C/correlate.sh" --help
expect_exit 2 "correlate.sh: a --gg-icnt file that does not exist" -- bash "$C/correlate.sh" --gg-icnt "$TMP/nope" --out "$TMP/r4" vectoradd:tiny
contains "$TMP/err" "--gg-icnt: no file" "message names the option"

# ---------------------------------------------------------------- icnt_set.py (--gg-icnt)
printf '// a router\nflit_size = 40;\nvc_buf_size = 64; // per VC\ninput_speedup     = 1;\ninternal_speedup  = 2.0;\ntopology = fly;\n' >"$TMP/t.icnt"
expect_exit 0 "icnt_set.py applies gg_3.2.2_like.icnt" -- python3 "$C/icnt_set.py" "$TMP/t.icnt" "$C/gg_3.2.2_like.icnt"
contains "$TMP/t.icnt" "vc_buf_size = 8;" "the VC buffer is 3.2.2's 8 flits"
contains "$TMP/t.icnt" "input_speedup = 2;" "input speedup 2"
contains "$TMP/t.icnt" "internal_speedup = 1.0;" "no internal speedup"
contains "$TMP/t.icnt" "flit_size = 40;" "other keys are kept"
contains "$TMP/t.icnt" "topology = fly;" "the last key is kept"
printf 'vc_bufsize = 8;\n' >"$TMP/typo.icnt"
expect_exit 2 "icnt_set.py: a key the file does not have" -- python3 "$C/icnt_set.py" "$TMP/t.icnt" "$TMP/typo.icnt"
contains "$TMP/err" "vc_bufsize" "the message names the key"
printf 'vc_buf_size 8\n' >"$TMP/bad.icnt"
expect_exit 2 "icnt_set.py: a line without '='" -- python3 "$C/icnt_set.py" "$TMP/t.icnt" "$TMP/bad.icnt"
contains "$TMP/err" "bad.icnt:1" "the message names file and line"

# ---------------------------------------------------------------- end to end without GPGPU-Sim
expect_exit 0 "correlate.sh runs gpusim and reuses recorded GPGPU-Sim runs" -- \
  bash "$C/correlate.sh" --gpusim "$GPUSIM" --reuse-gg "$RUNS" --out "$TMP/e2e" vectoradd:tiny transpose:tiny
[ -s "$TMP/e2e/runs/vectoradd_tiny/gs_r1/stats.json" ] && [ -s "$TMP/e2e/runs/vectoradd_tiny/gg_r1/log" ]
ok $? "the run directory holds both sides"
contains "$TMP/e2e/correlation.md" "| transpose | tiny | 19,944 / 19,944 | 556,908 / 556,908 |" "fresh gpusim run: instruction counts equal GPGPU-Sim's"
contains "$TMP/e2e/runs/gpusim_run.txt" "config=gtx480" "the gpusim configuration is recorded"

# ---------------------------------------------------------------- recorded.py
# Made-up GPGPU-Sim totals: 2,000 cycles for vectoradd tiny, 50,000 for
# transpose tiny's transpose_naive alone (the kernels column). The expected
# ratios are computed here from the stats files the script leaves behind.
cat >"$TMP/rec.csv" <<'EOF2'
workload,size,gg_cycles,gg_queues,gg_verified,kernels,from,notes
vectoradd,tiny,2000,11:8:8:8,yes,,test,
transpose,tiny,50000,8:8:8:8,no,transpose_naive,test,
transpose,tiny,40000,8:8:8:8,no,first:1,test,
btree,tiny,,8:8:8:8,no,,test,no total: skipped
EOF2
expect_exit 0 "recorded.py runs gpusim on the recorded workloads" -- \
  python3 "$C/recorded.py" --recorded "$TMP/rec.csv" --gpusim "$GPUSIM" --stats-dir "$TMP/rs" --out "$TMP/rec.md"
cat >"$TMP/rec_expect.py" <<'EOF2'
import json, sys
d = sys.argv[1]
def cyc(w, only=None):
    js = json.load(open('%s/%s_tiny.json' % (d, w)))
    return sum(l['stats']['dispatch.kernel_cycles'] for l in js['stats']['kernels'] if not only or l['name'] == only)
va, tn = cyc('vectoradd'), cyc('transpose', 'transpose_naive')
assert tn < cyc('transpose'), 'transpose has two kernels'
print('| vectoradd | tiny | %d | 2000 | %.3f' % (va, va / 2000.0))
print('| transpose (transpose_naive) | tiny | %d | 50000 | %.3f' % (tn, tn / 50000.0))
js = json.load(open('%s/transpose_tiny.json' % d))
t0 = js['stats']['kernels'][0]['stats']['dispatch.kernel_cycles']
print('| transpose (first:1) | tiny | %d | 40000 | %.3f' % (t0, t0 / 40000.0))
print('- GPGPU-Sim verified: MAE %.1f %%' % (100 * abs(va / 2000.0 - 1)))
print('- all recorded: MAE %.1f %%' % (100 * (abs(va / 2000.0 - 1) + abs(tn / 50000.0 - 1) + abs(t0 / 40000.0 - 1)) / 3))
EOF2
python3 "$TMP/rec_expect.py" "$TMP/rs" >"$TMP/rec_want" 2>"$TMP/err"
ok $? "the stats files hold both workloads"
while IFS= read -r line; do contains "$TMP/rec.md" "$line" "recorded.py: ${line:0:50}"; done <"$TMP/rec_want"
! grep -q "btree" "$TMP/rec.md"
ok $? "a row without a GPGPU-Sim total is left out"
contains "$TMP/rec.md" "| yes | 11:8:8:8 | 4.2 |" "a row without gg_icnt ran on GPGPU-Sim 4.2's network"
python3 - "$TMP/rs/vectoradd_tiny.json" <<'EOF2'
import json, sys
js = json.load(open(sys.argv[1])); js['complete'] = False; js['stats']['kernels'] = []
json.dump(js, open(sys.argv[1], 'w'))
EOF2
expect_exit 0 "recorded.py reruns a workload whose statistics are partial" -- \
  python3 "$C/recorded.py" --recorded "$TMP/rec.csv" --gpusim "$GPUSIM" --stats-dir "$TMP/rs" --only vectoradd
contains "$TMP/out" "$(head -1 "$TMP/rec_want")" "the rerun gives the same row"
# Two rows for one workload, one per GPGPU-Sim network: gpusim runs once
# (a wrapper counts its runs), --network keeps one kind, and the summary
# gives each kind its own line.
cat >"$TMP/rec_net.csv" <<'EOF2'
workload,size,gg_cycles,gg_queues,gg_verified,kernels,from,notes,gg_icnt
vectoradd,tiny,2000,11:8:8:8,yes,,test,,4.2
vectoradd,tiny,2500,11:8:8:8,yes,,test,,3.2.2
EOF2
printf '#!/bin/sh\necho run >>"%s/gs_runs"\nexec "%s" "$@"\n' "$TMP" "$GPUSIM" >"$TMP/gs_wrap.sh"
chmod +x "$TMP/gs_wrap.sh"
expect_exit 0 "recorded.py with a row per network" -- \
  python3 "$C/recorded.py" --recorded "$TMP/rec_net.csv" --gpusim "$TMP/gs_wrap.sh" --stats-dir "$TMP/rs3" --jobs 2
n=$(wc -l <"$TMP/gs_runs"); [ "$n" -eq 1 ]; ok $? "gpusim ran once for the two rows ($n)"
contains "$TMP/out" "| 2000 |" "the 4.2 row is there"
contains "$TMP/out" "| 2500 |" "the 3.2.2 row is there"
contains "$TMP/out" "- GPGPU-Sim verified, 3.2.2 network: MAE" "a summary line for the 3.2.2 rows"
contains "$TMP/out" "- GPGPU-Sim verified, 4.2 network: MAE" "a summary line for the 4.2 rows"
expect_exit 0 "recorded.py --network 3.2.2" -- \
  python3 "$C/recorded.py" --recorded "$TMP/rec_net.csv" --gpusim "$GPUSIM" --stats-dir "$TMP/rs3" --network 3.2.2
! grep -q "| 2000 |" "$TMP/out"
ok $? "--network 3.2.2 leaves out the 4.2 row"
contains "$TMP/out" "| yes | 11:8:8:8 | 3.2.2 |" "and keeps the 3.2.2 row"
# the committed stock-4.2 file (partner of gtx480-gpgpusim42) parses and runs
expect_exit 0 "recorded.py on recorded_gg_stock.csv with the 4.2 preset" -- \
  python3 "$C/recorded.py" --recorded "$C/recorded_gg_stock.csv" -c gtx480-gpgpusim42 --gpusim "$GPUSIM" \
  --stats-dir "$TMP/rs42" --only sgemm
contains "$TMP/out" "| sgemm | tiny |" "the stock sgemm row"
contains "$TMP/out" "| 88310 |" "with 4.2's recorded cycles"
contains "$TMP/out" "config gtx480-gpgpusim42" "against the 4.2 preset"
# the whole-workload figure: this run and an earlier stats dir as two series
expect_exit 0 "recorded.py --svg with --svg-with" -- \
  python3 "$C/recorded.py" --recorded "$C/recorded_gg_stock.csv" -c gtx480-gpgpusim42 --gpusim "$GPUSIM" \
  --stats-dir "$TMP/rs42" --only sgemm --svg "$TMP/rec.svg" --svg-label preset --svg-with "again=$TMP/rs42"
n=$(grep -c '<g class="series"' "$TMP/rec.svg"); [ "$n" -eq 2 ]; ok $? "two series in the figure ($n)"
contains "$TMP/rec.svg" 'data-label="again"' "the --svg-with series is labelled"
contains "$TMP/rec.svg" "sgemm tiny: GPGPU-Sim 88,310" "a point per workload, at GPGPU-Sim's recorded cycles"
contains "$TMP/rec.svg" "1 workloads, MAE" "the legend counts workloads"
expect_exit 2 "recorded.py --svg-with without a directory" -- \
  python3 "$C/recorded.py" --recorded "$C/recorded_gg_stock.csv" --gpusim "$GPUSIM" --stats-dir "$TMP/rs42" \
  --svg "$TMP/rec2.svg" --svg-with "x=$TMP/nosuchdir"
contains "$TMP/err" "no directory" "the error names the missing directory"
printf 'workload,size,gg_cycles,gg_queues,gg_verified,kernels,from,notes\nnosuch,tiny,100,8:8:8:8,yes,,test,\n' >"$TMP/rec_bad.csv"
expect_exit 1 "recorded.py: a gpusim run that fails" -- \
  python3 "$C/recorded.py" --recorded "$TMP/rec_bad.csv" --gpusim "$GPUSIM" --stats-dir "$TMP/rs2"
contains "$TMP/err" "nosuch" "the failure names the run"
finish
