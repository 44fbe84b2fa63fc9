#!/usr/bin/env bash
# tests/ptx/regen.sh: regenerate the committed PTX test inputs and their
# register-count sidecars from the CUDA sources in this directory.
#
# For each X.cu: X.ptx   = nvcc -arch=$ARCH -ptx
#                X.ptx.regs = "<function> <registers>" per function, taken from
#                             the "Used N registers" lines of `ptxas -v`.
# Only needed when a .cu file changes; the build and tests never run nvcc.
# Usage: tests/ptx/regen.sh [file.cu ...]   (default: all *.cu here)
# Environment: NVCC (default /usr/local/cuda/bin/nvcc), ARCH (default sm_75,
# the oldest target CUDA 13 accepts).
set -euo pipefail
cd "${REGEN_DIR:-$(dirname "$0")}"   # REGEN_DIR: another directory of .cu files (bench/kernels)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
ARCH=${ARCH:-sm_75}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(*.cu)
for cu in "${files[@]}"; do
    base=${cu%.cu}
    "$NVCC" -arch="$ARCH" -ptx -o "$base.ptx" "$cu"
    # ptxas -v prints, per function:
    #   ptxas info    : Compiling entry function 'name' for 'sm_75'   (or: Function properties for name)
    #   ptxas info    : Used N registers, ...
    "$NVCC" -arch="$ARCH" -cubin -Xptxas -v -o "$tmp/$base.cubin" "$cu" 2> "$tmp/$base.log"
    {
        echo "# register counts from ptxas -v ($ARCH); format: <function> <registers>"
        awk '
            /Compiling entry function/ { match($0, /function .[^'"'"']*/); name = substr($0, RSTART + 10, RLENGTH - 10) }
            /Function properties for/  { n = split($0, a, " "); name = a[n] }
            /Used [0-9]+ registers/    { match($0, /Used [0-9]+ registers/); split(substr($0, RSTART, RLENGTH), u, " ");
                                         if (name != "") print name, u[2]; name = "" }
        ' "$tmp/$base.log"
    } > "$base.ptx.regs"
    echo "regenerated $base.ptx and $base.ptx.regs"
done
