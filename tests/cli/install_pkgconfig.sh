#!/usr/bin/env bash
# cmake --install produces libgpusim.a, gpusim, gpusim.h and gpusim.pc, and
# `cc app.c $(pkg-config --cflags --libs [--static] gpusim)` builds a
# working program. The program runs a kernel in functional and timing mode,
# so the link pulls in the objects that use hwloc and jemalloc; with
# --static it is also linked once against the archives of hwloc and jemalloc
# (a directory holding only them comes first on the search path), which
# needs their private libraries (-ludev for hwloc) from the .pc files.
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
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* out[i] = i * 3 for 64 threads. */
static const char ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry triple(.param .u64 out)\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n cvta.to.global.u64 %rd1, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n mul.lo.u32 %r2, %r1, 3;\n"
    " mul.wide.u32 %rd2, %r1, 4;\n add.s64 %rd3, %rd1, %rd2;\n"
    " st.global.u32 [%rd3], %r2;\n ret;\n}\n";

static int run(const char *mode)
{
    const char *ov[] = {mode, NULL};
    gs_ctx *c = gs_ctx_create("gtx480", ov);
    if (!c) {
        fprintf(stderr, "%s: %s\n", mode, gs_last_error(NULL));
        return 1;
    }
    gs_module *m;
    gs_function *f;
    uint64_t d;
    uint32_t out[64];
    int rc = gs_module_load_data(c, ptx, &m);
    if (!rc)
        rc = gs_module_get_function(m, "triple", &f);
    if (!rc)
        rc = gs_mem_alloc(c, &d, sizeof out);
    void *args[] = {&d};
    if (!rc)
        rc = gs_launch_kernel(f, 1, 1, 1, 64, 1, 1, 0, args);
    if (!rc)
        rc = gs_memcpy_dtoh(c, out, d, sizeof out);
    for (unsigned i = 0; !rc && i < 64; i++)
        if (out[i] != i * 3)
            rc = 1;
    if (rc)
        fprintf(stderr, "%s: %d %s\n", mode, rc, gs_last_error(c));
    gs_ctx_destroy(c);
    return rc != 0;
}

int main(void)
{
    printf("%s\n", gs_version());
    if (strcmp(gs_error_name(GS_ERR_PTX), "GS_ERR_PTX") != 0)
        return 1;
    return run("sim.mode=functional") || run("sim.mode=timing");
}
C
export PKG_CONFIG_PATH="$(dirname "$pc")${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
# link <description> <output> <flags...>: cc app.c with the flags, then run it.
link() {
  local desc=$1 out=$2; shift 2
  cc "$TMP/app.c" "$@" -o "$TMP/$out" 2>"$TMP/$out.cc.err"; local s=$?
  ok $s "$desc links"
  [ $s -ne 0 ] && sed 's/^/# /' "$TMP/$out.cc.err" | head -20
  "$TMP/$out" >"$TMP/$out.out" 2>"$TMP/$out.err"; s=$?
  ok $s "$desc: the program runs kernels in both modes and sees the error names"
  [ $s -ne 0 ] && sed 's/^/# /' "$TMP/$out.err" | head -20
}
link "cc app.c \$(pkg-config --cflags --libs gpusim)" app $(pkg-config --cflags --libs gpusim)
pkg-config --libs --static gpusim >"$TMP/static.flags" 2>&1; ok $? "pkg-config --libs --static gpusim succeeds"
link "cc app.c \$(pkg-config --cflags --libs --static gpusim)" app_static \
  $(pkg-config --cflags --libs --static gpusim)
# The archives of the dependencies, where the system has them (Debian's
# libhwloc-dev and libjemalloc-dev do).
mkdir -p "$TMP/archives"
have_archives=1
for a in libhwloc.a libjemalloc.a; do
  p=$(cc -print-file-name="$a")
  if [ "$p" = "$a" ] || [ ! -e "$p" ]; then have_archives=0; else ln -s "$p" "$TMP/archives/$a"; fi
done
if [ "$have_archives" -eq 1 ]; then
  link "--static flags with the hwloc and jemalloc archives" app_archives \
    -L"$TMP/archives" $(pkg-config --cflags --libs --static gpusim)
  readelf -d "$TMP/app_archives" >"$TMP/needed" 2>&1
  ! grep -Eq 'libhwloc|libjemalloc' "$TMP/needed"; ok $? "that program does not load libhwloc or libjemalloc at run time"
else
  T_N=$((T_N + 1))
  echo "ok $T_N # SKIP no libhwloc.a / libjemalloc.a on this system"
fi
"$TMP/prefix/bin/gpusim" version >"$TMP/v.out" 2>&1; ok $? "installed gpusim runs"
contains "$TMP/v.out" "gpusim" "installed gpusim prints its version"
finish
