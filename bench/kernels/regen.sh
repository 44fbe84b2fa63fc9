#!/usr/bin/env bash
# bench/kernels/regen.sh: regenerate bench/kernels/*.ptx (+ .ptx.regs) from
# the .cu files here with the procedure of tests/ptx/regen.sh (nvcc is
# needed only for this step; the committed PTX is what the benchmark runs).
here=$(cd "$(dirname "$0")" && pwd)
REGEN_DIR=$here exec bash "$here/../../tests/ptx/regen.sh" "$@"
