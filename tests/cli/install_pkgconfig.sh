#!/usr/bin/env bash
# cmake --install produces libgpusim.a, gpusim, gpusim.h and gpusim.pc, and
# `cc app.c $(pkg-config --cflags --libs gpusim)` builds a working program.
source "$(dirname "$0")/../support/cli_lib.sh"
builddir=$(dirname "$GPUSIM")
cmake --install "$builddir" --prefix "$TMP/prefix" >"$TMP/install.log" 2>&1; ok $? "cmake --install succeeds"
for f in include/gpusim.h bin/gpusim; do
  [ -e "$TMP/prefix/$f" ]; ok $? "installed $f"
done
pc=$(find "$TMP/prefix" -name gpusim.pc | head -1)
[ -n "$pc" ]; ok $? "installed gpusim.pc"
lib=$(find "$TMP/prefix" -name libgpusim.a | head -1)
[ -n "$lib" ]; ok $? "installed libgpusim.a"
[ -n "$(find "$TMP/prefix" -name gtx480.cfg)" ]; ok $? "installed the presets"
cat >"$TMP/app.c" <<'C'
#include <gpusim.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    printf("%s\n", gs_version());
    return strcmp(gs_error_name(GS_ERR_PTX), "GS_ERR_PTX") != 0;
}
C
export PKG_CONFIG_PATH="$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
cc "$TMP/app.c" $(pkg-config --cflags --libs gpusim) -o "$TMP/app" 2>"$TMP/cc.err"; s=$?
ok $s "cc app.c \$(pkg-config --cflags --libs gpusim) links"
[ $s -ne 0 ] && sed 's/^/# /' "$TMP/cc.err"
"$TMP/app" >"$TMP/app.out"; ok $? "the program runs and sees the error names"
"$TMP/prefix/bin/gpusim" version >"$TMP/v.out" 2>&1; ok $? "installed gpusim runs"
contains "$TMP/v.out" "gpusim" "installed gpusim prints its version"
finish
