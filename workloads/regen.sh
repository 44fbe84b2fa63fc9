#!/usr/bin/env bash
# workloads/regen.sh: regenerate workloads/<name>/kernel.ptx and its
# register-count sidecar kernel.ptx.regs from kernel.cu with nvcc.
#
#   kernel.ptx       nvcc -arch=$ARCH -ptx kernel.cu
#   kernel.ptx.regs  "<function> <registers>" per function, from `ptxas -v`
#
# The generated files are committed, so building and running gpusim never
# needs nvcc. Run this after editing a kernel.cu (or `cmake --build build
# --target workloads-ptx`). tests/cli/workloads_ptx_fresh.sh checks, when nvcc
# is installed, that the committed files match what this script produces.
#
# Usage: workloads/regen.sh [--check] [name ...]   (default: every workload)
#   --check   write nothing; exit 1 listing the workloads whose committed
#             files differ from a fresh generation.
# Environment: NVCC (default /usr/local/cuda/bin/nvcc), ARCH (default sm_75,
# the oldest target CUDA 13 accepts).
set -euo pipefail
cd "$(dirname "$0")"
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
ARCH=${ARCH:-sm_75}
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
if ! [ -x "$NVCC" ] && ! command -v "$NVCC" >/dev/null 2>&1; then
    echo "regen.sh: nvcc not found at $NVCC (set NVCC=...)" >&2
    exit 3
fi
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
    for d in */kernel.cu; do names+=("${d%/kernel.cu}"); done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stale=()
for n in "${names[@]}"; do
    [ -f "$n/kernel.cu" ] || { echo "regen.sh: no workloads/$n/kernel.cu" >&2; exit 2; }
    out="$tmp/$n"
    mkdir -p "$out"
    # nvcc names internal-linkage symbols (static __device__ functions and
    # their static __shared__ variables) with a hash of the source file's
    # absolute path, so compile a copy at a fixed path: the output is then
    # the same from any checkout.
    canon="/tmp/gpusim-regen/$n"
    mkdir -p "$canon"
    cp "$n/kernel.cu" "$canon/kernel.cu"
    "$NVCC" -arch="$ARCH" -ptx -o "$out/kernel.ptx" "$canon/kernel.cu"
    # ptxas -v prints per function "Compiling entry function 'name'" (or
    # "Function properties for name") followed by "Used N registers".
    "$NVCC" -arch="$ARCH" -cubin -Xptxas -v -o "$out/kernel.cubin" "$canon/kernel.cu" 2> "$out/ptxas.log"
    {
        echo "# register counts from ptxas -v ($ARCH); format: <function> <registers>"
        awk '
            /Compiling entry function/ { match($0, /function .[^'"'"']*/); name = substr($0, RSTART + 10, RLENGTH - 10) }
            /Function properties for/  { k = split($0, a, " "); name = a[k] }
            /Used [0-9]+ registers/    { match($0, /Used [0-9]+ registers/); split(substr($0, RSTART, RLENGTH), u, " ");
                                         if (name != "") print name, u[2]; name = "" }
        ' "$out/ptxas.log"
    } > "$out/kernel.ptx.regs"
    if [ $check -eq 1 ]; then
        # Compare everything but the compiler's banner comments (tool versions).
        if ! diff -q <(grep -v '^//' "$out/kernel.ptx") <(grep -v '^//' "$n/kernel.ptx" 2>/dev/null) >/dev/null ||
           ! diff -q "$out/kernel.ptx.regs" "$n/kernel.ptx.regs" >/dev/null 2>&1; then
            stale+=("$n")
        fi
    else
        cp "$out/kernel.ptx" "$out/kernel.ptx.regs" "$n/"
        echo "regenerated workloads/$n/kernel.ptx and kernel.ptx.regs"
    fi
done
if [ $check -eq 1 ] && [ ${#stale[@]} -gt 0 ]; then
    echo "stale PTX (run workloads/regen.sh ${stale[*]}): ${stale[*]}" >&2
    exit 1
fi
exit 0
