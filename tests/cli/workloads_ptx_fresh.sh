#!/usr/bin/env bash
# tests/cli/workloads_ptx_fresh.sh: when nvcc is installed, the committed
# workloads/*/kernel.ptx and kernel.ptx.regs must equal a fresh generation
# from kernel.cu (workloads/regen.sh --check). Without nvcc: skipped (77).
source "$(dirname "$0")/../support/cli_lib.sh"
SRC=${GPUSIM_SOURCE_DIR:?}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
if ! [ -x "$NVCC" ]; then
    echo "1..0 # SKIP nvcc not found at $NVCC"
    exit 77
fi
bash "$SRC/workloads/regen.sh" --check >"$TMP/out" 2>"$TMP/err"
ok $? "committed PTX matches kernel.cu"
sed 's/^/# /' "$TMP/err"
finish
