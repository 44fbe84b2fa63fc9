#!/usr/bin/env bash
# CLI: gpusim report (docs/report.md). Exit codes and messages for bad input;
# CSV, Markdown and SVG from the fixture tests/fixtures/report/basic; the
# SVG parsed by python3's XML parser and rendered to PNG by rsvg-convert
# (Debian: librsvg2-bin), whose pixels must show the bars; and a real
# two-variant sweep of vectoradd reported end to end. Checks that need
# python3, rsvg-convert or `gpusim sweep` are skipped (TAP "# SKIP") where
# those are missing.
source "$(dirname "$0")/../support/cli_lib.sh"

SRC=${GPUSIM_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
FIX="$SRC/tests/fixtures/report/basic"
skip() { # skip <description> <why>
  T_N=$((T_N + 1))
  echo "ok $T_N # SKIP $1: $2"
}
have() { command -v "$1" >/dev/null 2>&1; }

# ---------------------------------------------------------------- errors
expect_exit 2 "no OUT directory" -- "$GPUSIM" report
contains "$TMP/err" "report needs the OUT directory of a sweep" "message says what is missing"
expect_exit 2 "an OUT that does not exist" -- "$GPUSIM" report "$TMP/nope"
contains "$TMP/err" "$TMP/nope: not a directory" "message names the directory"
mkdir -p "$TMP/empty"
expect_exit 2 "an OUT without sweep.json" -- "$GPUSIM" report "$TMP/empty"
contains "$TMP/err" "sweep.json: No such file or directory (is this the OUT directory of 'gpusim sweep'?)" \
  "message names sweep.json"
mkdir -p "$TMP/badjson"
printf '{"format": "gpusim-sweep-1",\n "jobs": [1,]}\n' >"$TMP/badjson/sweep.json"
expect_exit 2 "a sweep.json that is not JSON" -- "$GPUSIM" report "$TMP/badjson"
contains "$TMP/err" "sweep.json: line 2, column 13: trailing comma in an array" "message has line and column"
expect_exit 2 "an unknown statistic" -- "$GPUSIM" report "$FIX" --stat ipcc
contains "$TMP/err" "unknown statistic 'ipcc'; did you mean 'ipc'?" "message suggests the closest name"
expect_exit 2 "a path that gives no number" -- "$GPUSIM" report "$FIX" --stat timing.ipx
contains "$TMP/err" "'timing' exists but has nothing named 'ipx'" "message says where the path stops"
expect_exit 2 "--x without --svg-dir" -- "$GPUSIM" report "$FIX" --x l1d.size
expect_exit 2 "--x of a key no variant sets" -- "$GPUSIM" report "$FIX" --x sched.policy --svg-dir "$TMP/f0"
contains "$TMP/err" "--x sched.policy: a line chart needs at least two variants" "message names the key"
[ ! -e "$TMP/f0" ]; ok $? "nothing is written when the report is refused"
expect_exit 2 "an unknown option" -- "$GPUSIM" report "$FIX" --nope
expect_exit 2 "an empty --stat" -- "$GPUSIM" report "$FIX" --stat ,
expect_exit 2 "an output that cannot be written" -- "$GPUSIM" report "$FIX" --csv "$TMP/no/such/dir/r.csv"
contains "$TMP/err" "cannot write $TMP/no/such/dir/r.csv" "message names the file"
expect_exit 0 "--help" -- "$GPUSIM" report --help
contains "$TMP/out" "--svg-dir DIR" "help lists the options"
expect_exit 0 "--list-stats" -- "$GPUSIM" report --list-stats
contains "$TMP/out" "l1d_miss_rate" "statistic list has l1d_miss_rate"
contains "$TMP/out" "dram_traffic" "and dram_traffic"
expect_exit 0 "gpusim help mentions report" -- "$GPUSIM" help
contains "$TMP/out" "report OUT" "usage line"

# --------------------------------------------------------------- fixture
expect_exit 0 "Markdown on stdout by default" -- "$GPUSIM" report "$FIX"
for s in ipc cycles l1d_miss_rate l2_miss_rate dram_traffic energy; do
  contains "$TMP/out" "## \`$s\`" "default statistic $s"
done
contains "$TMP/err" "job D-small-s2-base is left out" "an unreadable job is warned about on stderr"

O="$TMP/rep"
expect_exit 0 "CSV, Markdown and figures" -- "$GPUSIM" report "$FIX" --stat ipc,l1d_miss_rate --stat timing.cycles \
  --csv "$O/r.csv" --md "$O/r.md" --svg-dir "$O/fig" --x l1d.size
mkdir -p "$O" # (created by the report when it works; keeps later checks quiet when it does not)
for f in r.csv r.md fig/ipc.svg fig/l1d_miss_rate.svg fig/timing.cycles.svg fig/ipc-by-l1d.size.svg \
  fig/timing.cycles-by-l1d.size.svg; do
  [ -s "$O/$f" ]; ok $? "$f written"
done
contains "$O/r.md" "| **geomean** | | **0.585 (3 of 4)** | **1.000** | **1.778** |" "Markdown geomean row"
contains "$O/r.md" "| D | - | missing | 1.000 (2)* | 1.000 (2) |" "Markdown marks missing and partial cells"
contains "$O/r.md" "![ipc](fig/ipc.svg)" "Markdown links the bar chart relative to itself"
contains "$O/r.md" "![ipc](fig/ipc-by-l1d.size.svg)" "and the line chart"
contains "$O/r.csv" "ipc,geomean,,,cache,v48,2,2,,1.58113883008418" "CSV per-class geomean"
[ "$(wc -l <"$O/r.csv")" -eq 91 ]; ok $? "CSV has a header and 30 lines per statistic"
ls "$O" "$O/fig" | grep -q '\.tmp\.'; [ $? -ne 0 ]; ok $? "no temporary files are left"
cp "$O/r.csv" "$TMP/first.csv"
"$GPUSIM" report "$FIX" --stat ipc,l1d_miss_rate --stat timing.cycles --csv "$O/r.csv" 2>/dev/null
cmp -s "$O/r.csv" "$TMP/first.csv"; ok $? "the same report twice gives the same CSV"

if have python3; then
  python3 - "$O/fig" >"$TMP/py" 2>&1 <<'PY'
import sys, glob, xml.etree.ElementTree as ET
files = sorted(glob.glob(sys.argv[1] + "/*.svg"))
assert len(files) == 6, files
for f in files:
    root = ET.parse(f).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg", (f, root.tag)
    assert root.get("version") == "1.1", f
    texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert any("normalised to base" in t for t in texts), (f, texts[:5])
print("parsed", len(files))
PY
  ok $? "python3 parses every SVG as XML in the svg namespace"
  sed 's/^/# /' "$TMP/py"
else
  skip "python3 parses every SVG" "python3 not installed"
fi

# A real renderer draws the chart: the PNG is neither blank nor all ink,
# and the first variant's bar colour (#4e79a7) fills whole pixels.
if have rsvg-convert && have python3; then
  rsvg-convert -o "$TMP/ipc.png" "$O/fig/ipc.svg" 2>"$TMP/rsvg.err"
  ok $? "rsvg-convert renders the bar chart"
  python3 - "$TMP/ipc.png" >"$TMP/png" 2>&1 <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    n, typ = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    pos += 12 + n
    if typ == b"IHDR":
        w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
    elif typ == b"IDAT":
        idat += body
    elif typ == b"IEND":
        break
assert depth == 8 and interlace == 0 and ctype in (2, 6), (depth, ctype, interlace)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, i, ink, bar = bytearray(stride), 0, 0, 0
for y in range(h):
    f = raw[i]
    line = bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1:
            line[x] = (line[x] + a) & 255
        elif f == 2:
            line[x] = (line[x] + b) & 255
        elif f == 3:
            line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        px = tuple(line[x:x + 3])
        alpha = line[x + 3] if bpp == 4 else 255
        if alpha and px != (255, 255, 255):
            ink += 1
        if alpha == 255 and px == (0x4e, 0x79, 0xa7):
            bar += 1
    prev = line
frac = ink / (w * h)
print(f"{w}x{h} px, {ink} not white ({frac:.1%}), {bar} of the first bar colour")
assert 0.02 < frac < 0.6, "blank or all ink"
assert bar > 200, "the bars are not drawn"
PY
  ok $? "the PNG shows the chart (not blank, bars drawn)"
  sed 's/^/# /' "$TMP/png"
else
  skip "render the bar chart to PNG" "rsvg-convert (Debian package librsvg2-bin) or python3 not installed"
  skip "the PNG shows the chart" "no renderer"
fi

# ------------------------------------------------------- a real sweep
if "$GPUSIM" sweep --help >/dev/null 2>&1; then
  cat >"$TMP/real.sweep" <<'EOF'
preset = gtx480
overrides = sim.mode=timing
variant.lrr = sched.policy=lrr
variant.gto = sched.policy=gto
variant.l1_32 = sched.policy=lrr l1d.size=32K
baseline = lrr
workloads = vectoradd
sizes = tiny
seeds = 1
EOF
  expect_exit 0 "a real sweep runs" -- "$GPUSIM" sweep "$TMP/real.sweep" -o "$TMP/real" -j 2 --no-progress
  expect_exit 0 "and is reported" -- "$GPUSIM" report "$TMP/real" --stat ipc,dram_traffic,stats.total.l1d.loads \
    --md "$TMP/real.md" --csv "$TMP/real.csv" --svg-dir "$TMP/real/fig" --x l1d.size
  contains "$TMP/real.md" "3 jobs: 3 finished" "every job finished"
  # vectoradd carries the class memory-sensitive (gpusim list; bench/experiments/baseline)
  contains "$TMP/real.md" "| vectoradd | memory-sensitive | 1.000 (" "the baseline cell is 1"
  grep -q '^ipc,workload,vectoradd,tiny,memory-sensitive,gto,1,1,[0-9.e+-]*,[0-9.e+-]*$' "$TMP/real.csv"
  ok $? "the CSV has a number for gto"
  contains "$TMP/real.md" "## \`stats.total.l1d.loads\`" "a path into the real statistics"
  [ -s "$TMP/real/fig/ipc-by-l1d.size.svg" ]; ok $? "line chart over l1d.size (baseline from its configuration)"
else
  skip "a real sweep" "this gpusim has no sweep command"
fi

finish
