#!/usr/bin/env bash
# bench/correlate/ubench/ubench.sh: run the micro-kernels of ukern.cu on
# gpusim and GPGPU-Sim and print the cost of one step of each (cycles).
#
#   ubench.sh --out DIR [--gpgpusim DIR] [correlate.sh options] [KIND ...]
#
# KIND is one of the names below (default: all). Each KIND is built twice
# (HOPS = 256 and 1280) with nvcc into DIR/ptx/<name>_<hops>.ptx and run
# through correlate.sh --ptx under the vectoradd host driver, size tiny (dram:
# small, whose 1 MB input is larger than the L2). The per-step cost is the
# cycle difference divided by 1024, so launch, start-up and drain cancel.
# These options are passed to correlate.sh: --gpgpusim, --gpusim, -c, -o,
# --gg-config, --gg-append, --only (gs: gpusim alone, e.g. for another preset), --nice,
# --reps, --work, --cuda. Writes DIR/ubench.md (the table) and keeps every run
# in DIR/<name>_<hops>/. Needs nvcc (--cuda) and python3.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT="" CUDA=${CUDA_INSTALL_PATH:-/usr/local/cuda} PASS=() KINDS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=${2:?}; shift 2 ;;
    --cuda) CUDA=${2:?}; PASS+=(--cuda "$2"); shift 2 ;;
    --no-report|--only|--gpgpusim|--gpusim|-c|--config|-o|--nice|--reps|--gg-config|--gg-append|--work)
      if [ "$1" = --no-report ]; then PASS+=("$1"); shift; else PASS+=("$1" "${2:?}"); shift 2; fi ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "ubench.sh: unknown option '$1'" >&2; exit 2 ;;
    *) KINDS+=("$1"); shift ;;
  esac
done
[ -n "$OUT" ] || { echo "ubench.sh: --out DIR is needed" >&2; exit 2; }
# name kind stride size
TABLE="smem_chase 1 1 tiny
smem_chase_s2 1 2 tiny
smem_chase_s32 1 32 tiny
l1d_chase 2 1 tiny
l2_chase 3 1 tiny
dram_chase 4 1 small
fma_chain 5 1 tiny
fma_issue 6 1 tiny
smem_issue 7 1 tiny
smem_issue_s32 7 32 tiny
smem_atom 8 1 tiny
smem_atom_same 8 0 tiny
gatom_chain 9 1 tiny
gatom_issue 10 1 tiny
gatom_issue_same 10 0 tiny
sfu_chain 11 1 tiny
sfu_issue 12 1 tiny
l2_issue 13 1 tiny
l1d_issue 14 1 tiny
l2_bw 15 1 small
l2_bw_ca 16 1 small
l1d_scatter 17 1 small
st_scatter 18 1 small"
[ ${#KINDS[@]} -gt 0 ] || KINDS=($(echo "$TABLE" | awk '{print $1}'))
mkdir -p "$OUT/ptx" && OUT=$(cd "$OUT" && pwd)
WORK=$OUT/work
printf '| micro-kernel | what | gpusim cycles/step | GPGPU-Sim cycles/step | ratio |\n|---|---|---|---|---|\n' >"$OUT/ubench.md"
for name in "${KINDS[@]}"; do
  row=$(echo "$TABLE" | awk -v n="$name" '$1 == n')
  [ -n "$row" ] || { echo "ubench.sh: unknown micro-kernel '$name'" >&2; exit 2; }
  read -r _ kind stride size <<<"$row"
  for h in 256 1280; do
    p=$OUT/ptx/${name}_$h.ptx
    "$CUDA/bin/nvcc" -arch=sm_75 -ptx -DKIND="$kind" -DHOPS="$h" -DSTRIDE="$stride" "$HERE/ukern.cu" -o "$p" 2>/dev/null ||
      { echo "ubench.sh: nvcc failed for $name" >&2; exit 2; }
    # NOTE(ubench-regs): the register count for occupancy from ptxas (sm_75),
    # in the sidecar gpusim reads beside the PTX, as GPGPU-Sim takes it
    # (-gpgpu_occupancy_sm_number 75). Without it gpusim used its allocator's
    # count, which for l2_bw_ca is 21 or fewer against ptxas' 38: 6 CTAs per
    # SM here against GPGPU-Sim's 3 (session 12).
    regs=$("$CUDA/bin/nvcc" -arch=sm_75 -cubin -Xptxas -v -DKIND="$kind" -DHOPS="$h" -DSTRIDE="$stride" \
             "$HERE/ukern.cu" -o /dev/null 2>&1 | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' | head -1)
    [ -n "$regs" ] || { echo "ubench.sh: no ptxas register count for $name" >&2; exit 2; }
    printf '# register count from ptxas -v (sm_75)\nvectoradd %s\n' "$regs" >"$p.regs"
    "$HERE/../correlate.sh" --ptx "$p" --out "$OUT/${name}_$h" --work "$WORK" --no-report \
      "${PASS[@]+"${PASS[@]}"}" "vectoradd:$size" >/dev/null 2>&1
  done
  python3 - "$OUT" "$name" "$size" >>"$OUT/ubench.md" <<'EOF'
import json, os, re, sys
out, name, size = sys.argv[1:4]
def gs(h):
    try:
        return json.load(open(os.path.join(out, '%s_%d/runs/vectoradd_%s/gs_r1/stats.json' % (name, h, size))))['timing']['cycles']
    except (OSError, ValueError, KeyError):
        return None
def gg(h):
    try:
        t = open(os.path.join(out, '%s_%d/runs/vectoradd_%s/gg_r1/log' % (name, h, size))).read()
        return int(re.findall(r'gpu_sim_cycle = (\d+)', t)[-1])
    except (OSError, IndexError):
        return None
def step(f):
    a, b = f(256), f(1280)
    return (b - a) / 1024.0 if a is not None and b is not None else None
what = {'smem_chase': 'dependent ld.shared, conflict-free', 'smem_chase_s2': 'dependent ld.shared, 2-way conflict',
        'smem_chase_s32': 'dependent ld.shared, 32-way conflict', 'l1d_chase': 'dependent ld.global.ca, L1D hit',
        'l2_chase': 'dependent ld.global.cg, L2 hit', 'dram_chase': 'dependent ld.global.cg, L2 miss (DRAM)',
        'fma_chain': 'dependent fma.f32 (+ loop)', 'fma_issue': '8 warps x 4 independent fma chains per CTA',
        'smem_issue': '8 warps of independent ld.shared per CTA', 'smem_issue_s32': 'same, 32-way conflicts',
        'smem_atom': '8 warps of atom.shared.add, 32 distinct banks', 'smem_atom_same': 'same, all lanes on one word',
        'gatom_chain': 'dependent atom.global.add, 32 words of a line', 'gatom_issue': 'CTA 0: 8 warps of atom.global.add, a line each',
        'gatom_issue_same': 'same, all lanes of a warp on one word', 'sfu_chain': 'dependent ex2.approx.f32',
        'sfu_issue': '8 warps x 4 independent ex2.approx chains per CTA',
        'l2_issue': '8 warps of independent ld.global.cg per CTA, L2 hits', 'l1d_issue': 'same with ld.global.ca, L1D hits',
        'l2_bw': '120 CTAs x 8 warps of independent ld.global.cg over 256 KB, L2 hits on every slice',
        'l2_bw_ca': 'same with ld.global.ca: L1D misses, L2 hits',
        'l1d_scatter': 'CTA 0, 8 warps of uncoalesced ld.global.ca (32 lines per warp load), L2 hits',
        'st_scatter': 'CTA 0, 8 warps of uncoalesced st.global (32 lines per warp store)'}[name]
s, g = step(gs), step(gg)
f = lambda x: '-' if x is None else '%.2f' % x
print('| %s | %s | %s | %s | %s |' % (name, what, f(s), f(g), '%.3f' % (s / g) if s and g else '-'))
EOF
  tail -1 "$OUT/ubench.md"
done
