#!/usr/bin/env bash
# bench/correlate/correlate.sh: run gpusim's workloads on gpusim and on the
# user's own GPGPU-Sim 4.x build (PTX mode), then tabulate and plot both
# (correlate.py). GPGPU-Sim is never part of the repository: the user points
# this script at a tree they built (README.md in this directory says how).
#
# Each workload becomes a CUDA program: main.cu includes the workload's
# unmodified kernel.cu, links its unmodified host.c and workloads/common/wl.c,
# and cuda/gs_cuda.cu maps the gs_* calls they make onto the CUDA runtime
# that GPGPU-Sim's libcudart implements. A stand-in cuobjdump serves the
# workload's committed kernel.ptx, so both simulators parse the same PTX, see
# the same seeded inputs and run the same CPU check.
#
# Needs: bash, python3 (report), gcc/g++ and a CUDA toolkit with nvcc (apps),
# GNU time at /usr/bin/time (optional: wall and CPU seconds for the speed
# columns). Usage: correlate.sh --help.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)

usage() {
  cat <<EOF
usage: correlate.sh [options] WORKLOAD:SIZE ...

Runs each WORKLOAD:SIZE (e.g. vectoradd:small sgemm:tiny) on both simulators
and writes OUT/runs/<workload>_<size>/{gg,gs}_r<k>/ and the report in OUT/.

options:
  --gpgpusim DIR     root of a built GPGPU-Sim 4.x tree (setup_environment, lib/)
                     (needed unless --reuse-gg or --only gs)
  --cuda DIR         CUDA toolkit with nvcc (default \$CUDA_INSTALL_PATH or /usr/local/cuda)
  --gpusim BIN       gpusim binary (default $SRC/build/gpusim)
  -c, --config P     gpusim preset or .cfg file (default gtx480)
  -o KEY=VALUE       gpusim configuration override (repeatable)
  --gg-config DIR    directory with gpgpusim.config and its .icnt file (default:
                     GPGPU-Sim's configs/tested-cfgs/SM2_GTX480, adjusted, see README.md)
  --gg-extra W=FILE  GPGPU-Sim options appended to gpgpusim.config for workload W (repeatable)
  --gg-append FILE   GPGPU-Sim options appended for every workload (e.g. gg_3.2.2_like.config);
                     an -icnt_flit_size N among them also sets flit_size in the .icnt file
  --gg-icnt FILE     'key = value;' lines set in the .icnt file for every workload
                     (e.g. gg_3.2.2_like.icnt: 3.2.2's 8-flit VC, no internal speedup)
  --ptx FILE         run this PTX instead of each workload's kernel.ptx, on both simulators
                     (micro-kernels: same entry names and parameters; ubench/ubench.sh)
  --out DIR          results and report (default ./correlate-out)
  --work DIR         where the CUDA programs and stand-ins are built (default OUT/work)
  --reuse-gg DIR     copy the GPGPU-Sim runs from an earlier OUT/runs (or a directory of the
                     same layout) instead of running GPGPU-Sim
  --only gs|gg       run one simulator only (the other side must already be in OUT/runs)
  --reps N           runs of each simulator per workload (default 1; the fastest gives the speed)
  --seed N           input seed (default 1)
  --nice N           run the simulators under 'nice -n N' (default 0)
  --title TEXT       report title
  --no-report        run only; 'correlate.py OUT/runs --out OUT' makes the report later
  -h, --help         this text
EOF
}

die() { echo "correlate.sh: $*" >&2; exit 2; }

GG_ROOT="" CUDA=${CUDA_INSTALL_PATH:-/usr/local/cuda} GPUSIM_BIN=$SRC/build/gpusim CONFIG=gtx480
OVR=() GG_CFG="" GG_EXTRA=() GG_APPEND="" GG_ICNT="" OUT=./correlate-out WORK="" REUSE="" ONLY="" REPS=1 SEED=1 NICE=0
TITLE="" REPORT=1 LIST=() PTX="" PTXARG=()
while [ $# -gt 0 ]; do
  case "$1" in
    --gpgpusim) GG_ROOT=${2:?}; shift 2 ;;
    --cuda) CUDA=${2:?}; shift 2 ;;
    --gpusim) GPUSIM_BIN=${2:?}; shift 2 ;;
    -c|--config) CONFIG=${2:?}; shift 2 ;;
    -o) OVR+=(-o "${2:?}"); shift 2 ;;
    --gg-config) GG_CFG=${2:?}; shift 2 ;;
    --gg-extra) GG_EXTRA+=("${2:?}"); shift 2 ;;
    --gg-append) GG_APPEND=${2:?}; shift 2 ;;
    --gg-icnt) GG_ICNT=${2:?}; shift 2 ;;
    --ptx) PTX=${2:?}; shift 2 ;;
    --out) OUT=${2:?}; shift 2 ;;
    --work) WORK=${2:?}; shift 2 ;;
    --reuse-gg) REUSE=${2:?}; shift 2 ;;
    --only) ONLY=${2:?}; shift 2 ;;
    --reps) REPS=${2:?}; shift 2 ;;
    --seed) SEED=${2:?}; shift 2 ;;
    --nice) NICE=${2:?}; shift 2 ;;
    --title) TITLE=${2:?}; shift 2 ;;
    --no-report) REPORT=0; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *:*) LIST+=("$1"); shift ;;
    *) die "'$1' is not WORKLOAD:SIZE (e.g. vectoradd:small)" ;;
  esac
done
[ ${#LIST[@]} -gt 0 ] || { usage >&2; exit 2; }
case "$ONLY" in ""|gs|gg) ;; *) die "--only takes gs or gg, not '$ONLY'" ;; esac
[[ "$REPS" =~ ^[1-9][0-9]*$ ]] || die "--reps needs a positive integer"
if [ -n "$GG_APPEND" ]; then
  [ -f "$GG_APPEND" ] || die "--gg-append: no file $GG_APPEND"
  GG_APPEND=$(cd "$(dirname "$GG_APPEND")" && pwd)/$(basename "$GG_APPEND")
fi
if [ -n "$GG_ICNT" ]; then
  [ -f "$GG_ICNT" ] || die "--gg-icnt: no file $GG_ICNT"
  GG_ICNT=$(cd "$(dirname "$GG_ICNT")" && pwd)/$(basename "$GG_ICNT")
fi
if [ -n "$PTX" ]; then
  [ -f "$PTX" ] || die "--ptx: no file $PTX"
  PTX=$(cd "$(dirname "$PTX")" && pwd)/$(basename "$PTX")
  PTXARG=(--ptx "$PTX")
fi
RUN_GG=1 RUN_GS=1
[ "$ONLY" = gs ] && RUN_GG=0
[ "$ONLY" = gg ] && RUN_GS=0
[ -n "$REUSE" ] && RUN_GG=0
for ws in "${LIST[@]}"; do
  w=${ws%%:*}; s=${ws##*:}
  [ -f "$SRC/workloads/$w/kernel.ptx" ] || die "no workload '$w' (no $SRC/workloads/$w/kernel.ptx)"
  case "$s" in tiny|small|medium|large) ;; *) die "size '$s' is not tiny, small, medium or large" ;; esac
done
if [ "$RUN_GS" = 1 ]; then
  [ -x "$GPUSIM_BIN" ] || die "no gpusim binary at $GPUSIM_BIN (build it, or pass --gpusim)"
  GPUSIM_BIN=$(cd "$(dirname "$GPUSIM_BIN")" && pwd)/$(basename "$GPUSIM_BIN")
fi
mkdir -p "$OUT/runs" || die "cannot create $OUT"
OUT=$(cd "$OUT" && pwd)
WORK=${WORK:-$OUT/work}
mkdir -p "$WORK" && WORK=$(cd "$WORK" && pwd)
TIME=()
[ -x /usr/bin/time ] && TIME=(/usr/bin/time -f "wall=%e,user=%U,sys=%S,maxrss_kb=%M" -o time)

# ---- GPGPU-Sim side: the CUDA "install" it sees, its configuration, the apps
gg_setup() {
  [ -n "$GG_ROOT" ] || die "--gpgpusim DIR is needed to run GPGPU-Sim (or use --reuse-gg / --only gs)"
  GG_ROOT=$(cd "$GG_ROOT" 2>/dev/null && pwd) || die "--gpgpusim: no such directory"
  [ -f "$GG_ROOT/setup_environment" ] || die "$GG_ROOT has no setup_environment: not a GPGPU-Sim tree"
  [ -x "$CUDA/bin/nvcc" ] || die "no nvcc in $CUDA/bin (pass --cuda)"
  GG_LIB=$(ls -d "$GG_ROOT"/lib/*/cuda-*/release 2>/dev/null | head -1)
  [ -n "$GG_LIB" ] && [ -f "$GG_LIB/libcudart.so" ] || die "no $GG_ROOT/lib/*/cuda-*/release/libcudart.so: build GPGPU-Sim first"
  # the CUDA tree GPGPU-Sim calls tools from: the real tools, plus the two stand-ins
  local F=$WORK/cudafake
  mkdir -p "$F/bin" "$WORK/lib"
  for f in "$CUDA"/bin/*; do ln -sf "$f" "$F/bin/"; done
  ln -sfn "$CUDA/include" "$F/include"
  rm -f "$F/bin/ptxas" "$F/bin/cuobjdump"
  cp "$HERE/cuda/cuobjdump" "$HERE/cuda/ptxas" "$F/bin/"
  chmod +x "$F/bin/cuobjdump" "$F/bin/ptxas"
  # the apps link libcudart.so.<major>; these names resolve to GPGPU-Sim's library
  for v in 11.0 12 13; do ln -sf "$GG_LIB/libcudart.so" "$WORK/lib/libcudart.so.$v"; done
  if [ -z "$GG_CFG" ]; then
    local T=$GG_ROOT/configs/tested-cfgs/SM2_GTX480
    [ -f "$T/gpgpusim.config" ] || die "no $T/gpgpusim.config (pass --gg-config)"
    GG_CFG=$WORK/cfg; mkdir -p "$GG_CFG"
    cp "$T/gpgpusim.config" "$T"/*.icnt "$GG_CFG/"
    # each change says why (README.md, "GPGPU-Sim configuration")
    sed -i -e 's/^-gpgpu_ptx_force_max_capability 20.*/-gpgpu_ptx_force_max_capability 75  # was 20: CUDA 12+ emits no sm_20 PTX/' \
      -e 's/^-gpgpu_occupancy_sm_number 20.*/-gpgpu_occupancy_sm_number 75  # was 20: ptxas of CUDA 12+ cannot target sm_20/' \
      -e 's/^-gpgpu_perf_sim_memcpy 1.*/-gpgpu_perf_sim_memcpy 0  # was 1: memcpy would pre-load L2; gpusim starts cold/' \
      -e 's/^-power_simulation_enabled 1.*/-power_simulation_enabled 0  # no power model in the comparison/' \
      -e 's/^-gpuwattch_xml_file.*/# -gpuwattch_xml_file removed: unknown to GPGPU-Sim 4.2/' "$GG_CFG/gpgpusim.config"
  fi
  GG_CFG=$(cd "$GG_CFG" && pwd)
  [ -f "$GG_CFG/gpgpusim.config" ] || die "no gpgpusim.config in $GG_CFG"
}

# build_app W: WORK/apps/W/app, the workload as a CUDA program
build_app() {
  local w=$1 D=$WORK/apps/$1 NVCC=$CUDA/bin/nvcc
  [ -x "$D/app" ] && [ "$D/app.ptx" -nt "$SRC/workloads/$w/kernel.ptx" ] && return 0
  mkdir -p "$D"
  # kernel names = the .entry names of the committed PTX (extern "C", so unmangled)
  local kernels
  kernels=$(grep -oE '^\.(visible )?\.entry[[:space:]]+[A-Za-z_0-9]+' "$SRC/workloads/$w/kernel.ptx" | awk '{print $NF}')
  local globals
  globals=$(grep -oE '^(\.visible )?\.(const|global)[[:space:]].*[[:space:]][A-Za-z_][A-Za-z_0-9]*(\[[0-9]*\])?[[:space:]]*[;=]' "$SRC/workloads/$w/kernel.ptx" |
            sed -E 's/(\[[0-9]*\])?[[:space:]]*[;=]$//' | awk '{print $NF}' | grep -v '^_Z')
  {
    echo "// generated by bench/correlate/correlate.sh: gpusim workload '$w' as a CUDA program"
    echo "#include <stdio.h>"
    echo "#include <stdlib.h>"
    echo "#include <string.h>"
    echo "#include \"kernel.cu\"        // workloads/$w/kernel.cu, unmodified"
    echo "extern \"C\" {"
    echo "#include \"wl.h\""
    echo "}"
    echo "struct gs_kernel_entry { const char *name; const void *fn; };"
    echo "extern \"C\" const struct gs_kernel_entry gs_kernel_table[] = {"
    for k in $kernels; do echo "    {\"$k\", (const void *)$k},"; done
    echo "};"
    echo "extern \"C\" const unsigned gs_kernel_table_len = sizeof gs_kernel_table / sizeof gs_kernel_table[0];"
    # module-scope .const/.global variables: gs_module_get_global hands out
    # a stand-in address for each, and gs_memcpy_htod turns a copy to it
    # into cudaMemcpyToSymbol (GPGPU-Sim has no cudaGetSymbolAddress)
    echo "struct gs_global_entry { const char *name; const void *var; size_t bytes; };"
    echo "extern \"C\" const struct gs_global_entry gs_global_table[] = {"
    for g in $globals; do echo "    {\"$g\", (const void *)&$g, sizeof $g},"; done
    echo "    {0, 0, 0}};"
    # WL_REGISTER's C identifier: a name that starts with a digit gets a
    # leading underscore (workloads/2dconv registers _2dconv)
    local sym=$w
    case $w in [0-9]*) sym=_$w ;; esac
    echo "#define WL_DESC_SYM wl_desc_$sym"
    echo "#include \"main_tail.inc\""
  } >"$D/main.cu"
  local INC="-I$SRC/include -I$SRC/workloads/common -I$SRC/workloads/$w -I$HERE/cuda"
  (
    cd "$D" || exit 1
    set -e
    "$NVCC" -O2 -arch=sm_75 -cudart shared $INC -c main.cu -o main.o
    # plain C++, not nvcc: a second nvcc fat binary registration aborts GPGPU-Sim
    g++ -O2 -x c++ -I"$CUDA/include" $INC -c "$HERE/cuda/gs_cuda.cu" -o gs_cuda.o
    gcc -O2 -std=gnu11 $INC -c "$SRC/workloads/$w/host.c" -o host.o
    gcc -O2 -std=gnu11 $INC -c "$SRC/workloads/common/wl.c" -o wl.o
    gcc -O2 -c "$HERE/cuda/launch_shim.c" -o launch_shim.o
    "$NVCC" -arch=sm_75 -cudart shared -o app main.o gs_cuda.o host.o wl.o launch_shim.o -lm
    cp "$SRC/workloads/$w/kernel.ptx" app.ptx
  ) >"$D/build.log" 2>&1 || die "building the CUDA program for $w failed; see $D/build.log"
  echo "built $D/app (kernels: $(echo $kernels))"
}

run_gg() { # run_gg W SIZE DIR
  local w=$1 s=$2 d=$3 e app=$WORK/apps/$1/app
  mkdir -p "$d"
  if [ -n "$PTX" ]; then
    # a copy, not a link: GPGPU-Sim asks the stand-in cuobjdump about the
    # resolved executable path, and the stand-in serves <exe>.ptx
    app=$WORK/apps/$w/ptx-$(basename "$PTX" .ptx)/app
    mkdir -p "$(dirname "$app")"
    cp "$WORK/apps/$w/app" "$app"
    cp "$PTX" "$app.ptx"
  fi
  cp "$GG_CFG"/gpgpusim.config "$GG_CFG"/*.icnt "$d/"
  if [ -n "$GG_APPEND" ]; then
    cat "$GG_APPEND" >>"$d/gpgpusim.config"
    local flit
    flit=$(sed -n 's/^-icnt_flit_size[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p' "$GG_APPEND" | tail -1)
    [ -n "$flit" ] && sed -i "s/^flit_size *= *[0-9]*;/flit_size = $flit;/" "$d"/*.icnt
  fi
  if [ -n "$GG_ICNT" ]; then
    local f
    for f in "$d"/*.icnt; do python3 "$SRC/bench/correlate/icnt_set.py" "$f" "$GG_ICNT" || exit 2; done
  fi
  # options appended for this workload (later options override earlier ones)
  local extra=""
  for e in "${GG_EXTRA[@]+"${GG_EXTRA[@]}"}"; do [ "${e%%=*}" = "$w" ] && extra=${e#*=}; done
  if [ -n "$extra" ]; then cat "$extra" >>"$d/gpgpusim.config"
  elif [ "$w" = reduction ]; then
    # the shipped SHFL latency 32 overruns this configuration's SP pipeline (segfault)
    echo '-ptx_opcode_latency_int 4,13,4,5,145,13' >>"$d/gpgpusim.config"
  fi
  (
    cd "$d" || exit 1
    export CUDA_INSTALL_PATH=$CUDA
    set +u # setup_environment reads variables that may be unset
    # shellcheck disable=SC1091
    source "$GG_ROOT/setup_environment" >/dev/null 2>&1
    export CUDA_INSTALL_PATH=$WORK/cudafake PTXAS_CUDA_INSTALL_PATH=$WORK/cudafake REAL_CUDA=$CUDA
    export LD_LIBRARY_PATH=$WORK/lib:$GG_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    nice -n "$NICE" "${TIME[@]}" "$app" "$s" "$SEED" >log 2>&1
    echo "rc=$?" >>time
  )
}

run_gs() { # run_gs W SIZE DIR
  local w=$1 s=$2 d=$3
  mkdir -p "$d"
  (
    cd "$d" || exit 1
    nice -n "$NICE" "${TIME[@]}" "$GPUSIM_BIN" run "$w" --size "$s" --seed "$SEED" -c "$CONFIG" \
      -o sim.mode=timing "${OVR[@]+"${OVR[@]}"}" "${PTXARG[@]+"${PTXARG[@]}"}" --threads 1 --pin none --stats stats.json >log 2>&1
    echo "rc=$?" >>time
  )
}

[ "$RUN_GG" = 1 ] && gg_setup
for ws in "${LIST[@]}"; do
  w=${ws%%:*}; s=${ws##*:}; R=$OUT/runs/${w}_$s
  mkdir -p "$R"
  if [ -n "$REUSE" ]; then
    ls -d "$REUSE/${w}_$s"/gg_r* >/dev/null 2>&1 || die "--reuse-gg: no $REUSE/${w}_$s/gg_r*"
    for g in "$REUSE/${w}_$s"/gg_r*; do
      [ "$(cd "$g" && pwd)" = "$(cd "$R" && pwd)/$(basename "$g")" ] && continue
      rm -rf "${R:?}/$(basename "$g")"; cp -r "$g" "$R/"
    done
  fi
  [ "$RUN_GG" = 1 ] && build_app "$w"
  for k in $(seq 1 "$REPS"); do
    if [ "$RUN_GG" = 1 ]; then rm -rf "$R/gg_r$k"; run_gg "$w" "$s" "$R/gg_r$k"; fi
    if [ "$RUN_GS" = 1 ]; then rm -rf "$R/gs_r$k"; run_gs "$w" "$s" "$R/gs_r$k"; fi
    echo "$w $s run $k: GPGPU-Sim $(head -1 "$R/gg_r$k/time" 2>/dev/null) | gpusim $(head -1 "$R/gs_r$k/time" 2>/dev/null)"
  done
done
# what produced the gpusim side, for the report
{
  echo "config=$CONFIG"
  echo "overrides=${OVR[*]+"${OVR[*]}"}"
  echo "seed=$SEED"
  [ -n "$PTX" ] && echo "ptx=$PTX"
  [ "$RUN_GS" = 1 ] && echo "gpusim_version=$("$GPUSIM_BIN" version 2>/dev/null | head -1)"
} >"$OUT/runs/gpusim_run.txt"
if [ "$REPORT" = 1 ]; then
  command -v python3 >/dev/null || die "python3 is needed for the report (runs are in $OUT/runs)"
  args=("$OUT/runs" --out "$OUT" --items "${LIST[@]}")
  [ -n "$TITLE" ] && args+=(--title "$TITLE")
  python3 "$HERE/correlate.py" "${args[@]}"
fi
