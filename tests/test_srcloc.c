/* tests/test_srcloc.c: CUDA source positions from PTX line information.
 *
 * nvcc -lineinfo emits `.loc file line column` before the instructions of
 * each source line and `.file index "path"` at the end of the module. The
 * front-end records per instruction the file and line of the last .loc
 * (sim/ptx/parser.c), and execution faults, the functional watchdog and the
 * warp dumps add "kernel.cu:42" after the PTX line (sim/func/exec.c).
 * Checked here: the recorded positions (plain, inlined_at, line 0, a .file
 * with directory and name, a .loc before its .file), the fault message in
 * functional and timing mode, the watchdog message, a module without .loc
 * (message as before), an undeclared file index (accepted, "<file N>"),
 * malformed directives (PTX errors at their line and column), and every
 * truncation of the test kernels (no crash).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpusim.h"
#include "sim/ptx/ptx.h"
#include "tap.h"

#define HDR ".version 7.0\n.target sm_70\n.address_size 64\n" /* 3 lines */

/* An out-of-bounds load at PTX line 14 (.loc 1 42 9 before it); the .file
 * at the end, as nvcc writes it. */
static const char *oob_ptx = HDR
    ".visible .entry k(.param .u64 out)\n" /* 4 */
    "{\n"                                  /* 5 */
    " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " .loc 1 40 3\n"                       /* 7 */
    " ld.param.u64 %rd1, [out];\n"         /* 8 */
    " mov.u32 %r1, %tid.x;\n"              /* 9 */
    " .loc 1 41 5\n"
    " mul.wide.u32 %rd2, %r1, 4096;\n"     /* 11 */
    " .loc 1 42 9\n"                       /* 12 */
    " add.s64 %rd3, %rd1, %rd2;\n"         /* 13 */
    " ld.global.u32 %r2, [%rd3];\n"        /* 14 */
    " .loc 1 43 1\n"
    " ret;\n"
    "}\n"
    "\t.file\t1 \"/home/someone/project/src/kernel.cu\"\n";

/* The same kernel without line information. */
static const char *oob_plain_ptx = HDR
    ".visible .entry k(.param .u64 out)\n"
    "{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " mul.wide.u32 %rd2, %r1, 4096;\n"
    " add.s64 %rd3, %rd1, %rd2;\n"
    " ld.global.u32 %r2, [%rd3];\n"         /* 11 */
    " ret;\n"
    "}\n";

/* A spin-wait nobody ends, at spin.cu:7 (functional watchdog). */
static const char *spin_ptx = HDR
    ".visible .entry k(.param .u64 flag)\n"
    "{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .pred %p<2>;\n"
    " .loc 2 5 1\n"
    " ld.param.u64 %rd1, [flag];\n"
    "WAIT:\n"
    " .loc 2 7 3\n"
    " ld.volatile.global.u32 %r1, [%rd1];\n"
    " setp.eq.u32 %p1, %r1, 0;\n"
    " @%p1 bra WAIT;\n"
    " ret;\n"
    "}\n"
    ".file 2 \"spin.cu\", 1700000000, 812\n";

static struct ptx_module *parse(const char *text, char **msg)
{
    struct diag d;
    diag_init(&d);
    struct ptx_module *m = NULL;
    ptx_parse(text, strlen(text), "src.ptx", &m, &d);
    if (msg)
        *msg = diag_join(&d);
    else
        diag_print(&d, stdout);
    diag_fini(&d);
    return m;
}

static const char *file_of(const struct ptx_module *m, const struct ptx_insn *in)
{
    return in->src_file ? m->src_files[in->src_file - 1].path : "";
}

static void test_positions(void)
{
    struct ptx_module *m = parse(oob_ptx, NULL);
    TAP_OK(m != NULL, "PTX with .loc and a trailing .file parses");
    if (!m)
        return;
    const struct ptx_func *fn = &m->funcs[0];
    TAP_EQ_U64(m->n_src_files, 1, "one source file");
    TAP_STREQ(m->src_files[0].path, "/home/someone/project/src/kernel.cu", "path as in .file");
    TAP_STREQ(m->src_files[0].base, "kernel.cu", "base name for messages");
    TAP_EQ_U64(m->src_files[0].index, 1, "file index");
    TAP_EQ_U64(m->src_files[0].line, 18, "PTX line of the .file directive");
    static const uint32_t want[] = {40, 40, 41, 42, 42, 43};
    TAP_EQ_U64(fn->n_insns, 6, "six instructions");
    for (uint32_t i = 0; i < fn->n_insns && i < 6; i++)
        TAP_OK(fn->insns[i].src_line == want[i] && strcmp(file_of(m, &fn->insns[i]), m->src_files[0].path) == 0,
               "instruction %u (PTX line %u) is at kernel.cu:%u (got %u)", i, fn->insns[i].line, want[i],
               fn->insns[i].src_line);
    ptx_module_free(m);

    m = parse(oob_plain_ptx, NULL);
    TAP_OK(m && m->n_src_files == 0 && m->funcs[0].insns[4].src_file == 0 && m->funcs[0].insns[4].src_line == 0,
           "without .loc: no source positions");
    ptx_module_free(m);

    /* inlined_at tail, line 0 (no position), .file with directory + name,
     * a function whose first instructions come before any .loc. */
    const char *text = HDR
        ".visible .entry a()\n{\n .reg .b32 %r<4>;\n"
        " mov.u32 %r1, 1;\n"
        " .loc 3 17 2, function_name $L__info_string0, inlined_at 2 90 4\n"
        " mov.u32 %r2, 2;\n"
        " .loc 2 0 0\n"
        " mov.u32 %r3, 3;\n"
        " .loc 2 91 1\n"
        " ret;\n}\n"
        ".visible .entry b()\n{\n ret;\n}\n"
        ".file 2 \"/w/main.cu\"\n"
        ".file 3 \"/usr/include\" \"helper.h\"\n";
    m = parse(text, NULL);
    TAP_OK(m != NULL, "inlined_at, line 0 and a DWARF-5 style .file parse");
    if (!m)
        return;
    const struct ptx_insn *in = m->funcs[0].insns;
    TAP_OK(in[0].src_file == 0, "an instruction before the first .loc has no position");
    TAP_OK(in[1].src_line == 17 && strcmp(file_of(m, &in[1]), "/usr/include/helper.h") == 0,
           ".loc with inlined_at: the inlined callee's position (%s:%u)", file_of(m, &in[1]), in[1].src_line);
    TAP_OK(in[2].src_file == 0 && in[2].src_line == 0, ".loc line 0: no position");
    TAP_OK(in[3].src_line == 91 && strcmp(file_of(m, &in[3]), "/w/main.cu") == 0, "later .loc applies (%s:%u)",
           file_of(m, &in[3]), in[3].src_line);
    TAP_OK(m->funcs[1].insns[0].src_file == 0, "the next function starts without a position");
    TAP_EQ_U64(m->n_src_files, 2, "two files in the table");
    TAP_STREQ(m->src_files[1].base, "main.cu", "base of /w/main.cu");
    ptx_module_free(m);

    m = parse(HDR ".visible .entry a()\n{\n .loc 5 3 1\n ret;\n}\n.file 5 \"C:\\\\src\\\\win.cu\"\n", NULL);
    TAP_OK(m && strcmp(m->src_files[0].path, "C:\\\\src\\\\win.cu") == 0 && strcmp(m->src_files[0].base, "win.cu") == 0,
           "a Windows path (escaped backslashes) gives the base name win.cu (%s)", m ? m->src_files[0].base : "");
    ptx_module_free(m);
}

/* Launch k(out) with 32 threads on a 64-byte buffer: thread 1 loads out + 4096. */
static int run_oob(const char *mode, const char *text, char *msg, size_t n)
{
    const char *ov[] = {mode, NULL};
    gs_ctx *c = gs_ctx_create("gtx480", ov);
    if (!c) {
        snprintf(msg, n, "%s", gs_last_error(NULL));
        return -100;
    }
    gs_module *m;
    gs_function *f;
    int rc = gs_module_load_data_ex(c, text, NULL, "oob.ptx", &m);
    if (!rc)
        rc = gs_module_get_function(m, "k", &f);
    uint64_t d = 0;
    if (!rc)
        rc = gs_mem_alloc(c, &d, 64);
    void *args[] = {&d};
    if (!rc)
        rc = gs_launch_kernel(f, 1, 1, 1, 32, 1, 1, 0, args);
    snprintf(msg, n, "%s", gs_last_error(c));
    gs_ctx_destroy(c);
    return rc;
}

static void test_fault_messages(void)
{
    char msg[1024];
    static const char *const modes[] = {"sim.mode=functional", "sim.mode=timing"};
    for (int i = 0; i < 2; i++) {
        TAP_EQ_I64(run_oob(modes[i], oob_ptx, msg, sizeof msg), GS_ERR_EXEC, "%s: out-of-bounds load faults", modes[i]);
        TAP_CONTAINS(msg, "(line 14, kernel.cu:42)", "%s: the fault names the PTX line and kernel.cu:42", modes[i]);
        TAP_OK(strstr(msg, "/home/someone") == NULL, "%s: only the file's base name is shown", modes[i]);
        TAP_EQ_I64(run_oob(modes[i], oob_plain_ptx, msg, sizeof msg), GS_ERR_EXEC, "%s: same fault without .loc",
                   modes[i]);
        TAP_CONTAINS(msg, "(line 11): ", "%s: message as before (PTX line only)", modes[i]);
        TAP_OK(strstr(msg, ".cu") == NULL, "%s: and no source file", modes[i]);
    }
    /* A .loc whose index no .file declares: accepted, shown as "<file N>". */
    char *undecl = strdup(oob_ptx);
    char *tail = strstr(undecl, "\t.file");
    *tail = 0;
    TAP_EQ_I64(run_oob("sim.mode=functional", undecl, msg, sizeof msg), GS_ERR_EXEC, "no .file: still loads and runs");
    TAP_CONTAINS(msg, "(line 14, <file 1>:42)", "undeclared file index shown as <file 1>");
    free(undecl);
}

static void test_watchdog_message(void)
{
    const char *ov[] = {"sim.func_watchdog=500", NULL};
    gs_ctx *c = gs_ctx_create(NULL, ov);
    gs_module *m;
    gs_function *f = NULL;
    TAP_OK(c && gs_module_load_data(c, spin_ptx, &m) == 0 && gs_module_get_function(m, "k", &f) == 0,
           "spin kernel with .loc loads");
    if (!f) {
        gs_ctx_destroy(c);
        return;
    }
    uint64_t d;
    gs_mem_alloc(c, &d, 4);
    gs_memset_d8(c, d, 0, 4);
    void *args[] = {&d};
    TAP_EQ_I64(gs_launch_kernel(f, 1, 1, 1, 32, 1, 1, 0, args), GS_ERR_WATCHDOG, "spin without end: watchdog");
    TAP_CONTAINS(gs_last_error(c), " (spin.cu:7)", "the watchdog's warp list names spin.cu:7");
    gs_ctx_destroy(c);
}

/* Warp 1 waits at barrier 1 (dl.cu:3), warp 0 at barrier 0 (dl.cu:4). */
static const char *deadlock_ptx = HDR
    ".visible .entry k()\n{\n .reg .b32 %r<4>; .reg .pred %p<2>;\n"
    " .loc 4 2 1\n mov.u32 %r1, %tid.x;\n setp.lt.u32 %p1, %r1, 32;\n @%p1 bra SKIP;\n"
    " .loc 4 3 5\n bar.sync 1;\n"
    "SKIP:\n .loc 4 4 5\n bar.sync 0;\n .loc 4 5 1\n ret;\n}\n"
    ".file 4 \"dl.cu\"\n";

/* The timing model's deadlock dump (stderr) describes each warp with its
 * source position (func_sm_describe_warp). */
static void test_timing_dump(void)
{
    const char *ov[] = {"sim.mode=timing", NULL};
    gs_ctx *c = gs_ctx_create("gtx480", ov);
    gs_module *m;
    gs_function *f = NULL;
    if (!c || gs_module_load_data(c, deadlock_ptx, &m) || gs_module_get_function(m, "k", &f)) {
        TAP_OK(0, "deadlock kernel loads: %s", c ? gs_last_error(c) : gs_last_error(NULL));
        gs_ctx_destroy(c);
        return;
    }
    char path[] = "/tmp/gpusim_srcloc_XXXXXX";
    int fd = mkstemp(path);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    int rc = gs_launch_kernel(f, 1, 1, 1, 64, 1, 1, 0, NULL);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char dump[8192] = "";
    ssize_t got = pread(fd, dump, sizeof dump - 1, 0);
    dump[got > 0 ? got : 0] = 0;
    close(fd);
    remove(path);
    TAP_EQ_I64(rc, GS_ERR_EXEC, "timing mode: barrier deadlock");
    /* A warp at a barrier shows the PC after it (pc 4: bar.sync 0 at PTX
     * line 15, dl.cu:4; pc 5: ret at line 17, dl.cu:5). */
    TAP_CONTAINS(dump, "warp 1: at barrier, pc 4 line 15 (dl.cu:4), SIMT", "the warp dump names dl.cu:4 for warp 1");
    TAP_CONTAINS(dump, "warp 0: at barrier, pc 5 line 17 (dl.cu:5), SIMT", "and dl.cu:5 for warp 0");
    gs_ctx_destroy(c);
}

/* A module whose function body is `body`; must fail with `want`. */
static void expect_error(const char *body, const char *tail, const char *want, const char *what)
{
    char text[1024];
    snprintf(text, sizeof text, "%s.visible .entry k()\n{\n%s ret;\n}\n%s", HDR, body, tail);
    char *msg = NULL;
    struct ptx_module *m = parse(text, &msg);
    TAP_OK(m == NULL, "%s: rejected", what);
    TAP_CONTAINS(msg, want, "%s: message", what);
    ptx_module_free(m);
    free(msg);
}

static void test_malformed(void)
{
    /* The body starts on line 6. */
    expect_error(" .loc 1\n", "", "src.ptx:6:2: .loc: missing line", ".loc without a line");
    expect_error(" .loc\n", "", "src.ptx:6:2: .loc: missing file index", ".loc without operands");
    expect_error(" .loc 0 5 1\n", "", "src.ptx:6:7: .loc: file index 0 is out of range (1 to 65535)",
                 ".loc file index 0");
    expect_error(" .loc 70000 5 1\n", "", "src.ptx:6:7: .loc: file index 70000 is out of range",
                 ".loc file index too large");
    expect_error(" .loc 1 x 1\n", "", "src.ptx:6:9: .loc: expected line, found 'x'", ".loc with a name for a line");
    expect_error(" .loc 1 5 2 junk\n", "", "src.ptx:6:13: .loc: unexpected 'junk'", ".loc with trailing junk");
    /* A tail after the function starts on line 8. */
    expect_error("", ".file 1\n", "src.ptx:8:1: .file: expected a quoted file name", ".file without a name");
    expect_error("", ".file \"a.cu\"\n", "src.ptx:8:7: .file: expected file index, found '\"a.cu\"'",
                 ".file without an index");
    expect_error("", ".file 1 \"a.cu\"\n.file 1 \"b.cu\"\n",
                 "src.ptx:9:1: .file 1 is \"b.cu\" here but \"a.cu\" at line 8",
                 ".file index declared twice with different names");
    char *msg = NULL;
    struct ptx_module *m = parse(HDR ".file 1 \"a.cu\"\n.file 1 \"a.cu\"\n.visible .entry k()\n{\n .loc 1 2 3\n ret;\n}\n",
                                 &msg);
    TAP_OK(m != NULL && m->n_src_files == 1, "the same .file twice is accepted: %s", msg ? msg : "");
    ptx_module_free(m);
    free(msg);
}

/* Every prefix of the line-information kernels, and the kernels with each
 * byte of their .loc/.file lines replaced: a parse either succeeds or
 * reports errors, and never crashes (the sanitizer builds check memory). */
static void test_truncated(void)
{
    const char *const texts[] = {oob_ptx, spin_ptx};
    unsigned bad = 0, tried = 0;
    for (unsigned t = 0; t < 2; t++) {
        size_t len = strlen(texts[t]);
        char *buf = malloc(len + 1);
        for (size_t cut = 0; cut <= len; cut++) {
            for (int variant = 0; variant < 2; variant++) {
                memcpy(buf, texts[t], len + 1);
                if (variant == 0) {
                    buf[cut] = 0;
                } else {
                    /* inside a .loc/.file line only: replace one byte */
                    const char *ls = buf + cut;
                    while (ls > buf && ls[-1] != '\n')
                        ls--;
                    if (cut == len || (strncmp(ls, " .loc", 5) && strncmp(ls, "\t.file", 6) && strncmp(ls, ".file", 5)))
                        continue;
                    buf[cut] = "0\" ,x.-"[cut % 6];
                }
                struct diag d;
                diag_init(&d);
                struct ptx_module *m = NULL;
                int rc = ptx_parse(buf, strlen(buf), "cut.ptx", &m, &d);
                tried++;
                if ((rc == PTX_OK) != (m != NULL) || (rc != PTX_OK && diag_count(&d) == 0))
                    bad++;
                ptx_module_free(m);
                diag_fini(&d);
            }
        }
        free(buf);
    }
    TAP_EQ_U64(bad, 0, "%u truncated or altered texts: each parses or reports an error", tried);
}

int main(void)
{
    static const struct tap_test tests[] = {
        {"recorded positions", test_positions},
        {"fault messages", test_fault_messages},
        {"watchdog message", test_watchdog_message},
        {"timing-mode warp dump", test_timing_dump},
        {"malformed .loc and .file", test_malformed},
        {"truncated and altered line information", test_truncated},
    };
    return tap_run(tests, sizeof tests / sizeof *tests);
}
