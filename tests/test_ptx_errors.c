/* tests/test_ptx_errors.c: malformed and unsupported PTX.
 *
 * Every bad input must give errors of the form "file:line:col: ..." that
 * name the offending token, never a crash or a hang: specific mistakes
 * (unknown/unsupported instruction, undefined label/register/function,
 * wrong operand count or kind, bad modifiers and literals), recovery
 * (several errors in one file), the error cap, every committed .ptx
 * truncated at ~50 points, 2000 random byte mutations (fixed seed), and
 * bad register sidecars. Run under ASan/UBSan in the sanitizer builds.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/ptx/ptx.h"
#include "tap.h"

#ifndef GPUSIM_SOURCE_DIR
#define GPUSIM_SOURCE_DIR "."
#endif
#define PTX_DIR GPUSIM_SOURCE_DIR "/tests/ptx"

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n" /* 3 lines */
#define KHEAD HDR ".entry k(.param .u64 p)\n{\n .reg .pred %p<4>;\n .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n"
/* KHEAD is 8 lines: the first body statement is on line 9 */

/* Parse text; return the joined messages (caller frees) and the status. */
static char *errors_of(const char *text, int *rc)
{
    struct diag d;
    diag_init(&d);
    struct ptx_module *m = NULL;
    *rc = ptx_parse(text, strlen(text), "bad.ptx", &m, &d);
    char *s = diag_join(&d);
    ptx_module_free(m);
    diag_fini(&d);
    return s;
}

/* One bad snippet: must fail and report `want` (location + text). */
static void expect_error(const char *body, const char *want, const char *what)
{
    size_t n = strlen(KHEAD) + strlen(body) + 32;
    char *text = malloc(n);
    snprintf(text, n, "%s%s ret;\n}\n", KHEAD, body);
    int rc;
    char *msg = errors_of(text, &rc);
    TAP_OK(rc == PTX_ERR_PARSE, "%s: rejected", what);
    TAP_CONTAINS(msg, want, "%s: message", what);
    free(msg);
    free(text);
}

static void test_specific(void)
{
    expect_error(" foo.bar %r1;\n", "bad.ptx:9:2: unknown instruction 'foo.bar'", "unknown instruction");
    expect_error(" tex.2d.v4.f32.f32 {%r1,%r2,%r3,%r4}, [t, {%r5, %r6}];\n",
                 "bad.ptx:9:2: unsupported instruction 'tex.2d.v4.f32.f32'", "unsupported instruction");
    expect_error(" @%p1 bra NOWHERE;\n", "bad.ptx:9:11: undefined label 'NOWHERE'", "undefined label");
    expect_error(" add.s32 %r1, %r99, 1;\n", "bad.ptx:9:15: undefined register '%r99'", "undefined register");
    expect_error(" add.s32 %r1, %q1, 1;\n", "bad.ptx:9:15: undefined register '%q1'", "undeclared register name");
    expect_error(" add.s32 %r1, %r2;\n", "bad.ptx:9:2: wrong number of operands for 'add.s32': expected 3, found 2",
                 "too few operands");
    expect_error(" mov.u32 %r1, %r2, %r3;\n", "bad.ptx:9:2: wrong number of operands for 'mov.u32': expected 2, found 3",
                 "too many operands");
    expect_error(" add.s32 %p1, %r2, 1;\n", "bad.ptx:9:10: operand '%p1' of 'add.s32' must not be a predicate",
                 "predicate where a value is expected");
    expect_error(" selp.b32 %r1, %r2, %r3, %r4;\n", "bad.ptx:9:26: operand '%r4' of 'selp.b32' must be a predicate",
                 "value where a predicate is expected");
    expect_error(" add.foo.s32 %r1, %r2, 1;\n", "bad.ptx:9:5: invalid modifier '.foo' for 'add'", "bad modifier");
    expect_error(" add %r1, %r2, 1;\n", "bad.ptx:9:2: 'add' needs 1 type modifier", "missing type");
    expect_error(" setp.s32 %p1, %r2, 1;\n", "bad.ptx:9:2: 'setp.s32' needs a comparison", "setp without comparison");
    expect_error(" mov.f32 %r1, 0f3F80;\n", "bad.ptx:9:15: malformed float literal '0f3F80'", "short 0f literal");
    expect_error(" mov.u32 %r1, 1.5;\n", "bad.ptx:9:15: floating-point literal '1.5' for a non-float operand",
                 "float literal for int");
    expect_error(" mov.u32 %r1, 99999999999999999999999;\n", "bad.ptx:9:15: out-of-range integer literal",
                 "integer overflow");
    expect_error(" ld.global.u32 %r1, [%rd1+];\n", "bad.ptx:9:27: expected an integer offset in address, found ']'",
                 "bad address");
    expect_error(" ld.global.u32 %r1, [%rd1;\n", "bad.ptx:9:26: expected ']' to close address, found ';'",
                 "unclosed address");
    expect_error(" ld.global.u32 %r1, [p];\n", "bad.ptx:9:22: 'p' is a .param variable, but 'ld.global.u32' accesses .global",
                 "space mismatch");
    expect_error(" ld.global.v2.u32 {%r1, %r2, %r3, %r4}, [%rd1];\n",
                 "bad.ptx:9:19: vector operand has 4 elements, 'ld.global.v2.u32' needs 2", "vector size mismatch");
    expect_error(" add.s32 %r1, %r2, 1\n add.s32 %r3, %r2, 1;\n", "bad.ptx:10:2: expected ';' after 'add.s32' operands, found 'add.s32'",
                 "missing semicolon");
    expect_error(" call.uni nofunc, ();\n", "bad.ptx:9:11: call to undefined function 'nofunc'", "undefined function");
    expect_error(" .reg .b32 %r<8>;\n", "bad.ptx:9:12: redefinition of '%r'", "duplicate register declaration");
    expect_error("L1:\nL1:\n", "bad.ptx:10:1: duplicate label 'L1'", "duplicate label");
    expect_error(" @%r1 bra L;\nL:\n", "bad.ptx:9:3: guard '%r1' is not a predicate register", "non-predicate guard");
    expect_error(" .foo 1;\n", "bad.ptx:9:2: unexpected directive '.foo' in function body", "unknown body directive");
    expect_error(" ld.global.u32 %r1, [%rd1] /* unterminated", "unterminated comment", "unterminated comment");
    expect_error(" # bad\n", "bad.ptx:9:2: unexpected character '#'", "stray character");

    int rc;
    char *msg = errors_of(".version 6.0\n.target sm_80\n.address_size 64\n", &rc);
    TAP_OK(rc == PTX_ERR_PARSE, "old .version rejected");
    TAP_CONTAINS(msg, "bad.ptx:1:10: unsupported PTX version 6.0", "old .version message");
    free(msg);
    msg = errors_of(".version 8.0\n.target sm_35\n.address_size 64\n", &rc);
    TAP_CONTAINS(msg, "bad.ptx:2:9: unsupported target 'sm_35'", "old target message");
    free(msg);
    msg = errors_of(".version 8.0\n.target sm_80\n.address_size 32\n", &rc);
    TAP_CONTAINS(msg, "bad.ptx:3:15: unsupported .address_size 32", "32-bit addressing message");
    free(msg);
    msg = errors_of(HDR ".entry k()\n{\n ret;\n", &rc);
    TAP_CONTAINS(msg, "unexpected end of file in body of 'k'", "missing closing brace");
    free(msg);
    msg = errors_of(HDR ".global .u32 x[] ;\n", &rc);
    TAP_CONTAINS(msg, "bad.ptx:4:14: array 'x' without size", "open array outside .extern .shared");
    free(msg);
    msg = errors_of(HDR ".global .u32 x[2] = {1, 2, 3};\n", &rc);
    TAP_CONTAINS(msg, "bad.ptx:4:14: too many initialisers for 'x'", "initialiser overflow");
    free(msg);
    msg = errors_of(HDR ".func f(.param .u32 a) { ret; }\n.entry k() { call f, (); ret; }\n", &rc);
    TAP_CONTAINS(msg, "bad.ptx:5:19: call to 'f' with 0 return and 0 arguments, but it has 0 and 1",
                 "call argument count");
    free(msg);
    /* regressions for two fuzzer finds: redeclaring a defined function
     * (params used by its body must survive; names must not dangle) */
    msg = errors_of(HDR ".func f(.param .u32 a) { .reg .b32 %r1; ld.param.u32 %r1, [a]; ret; }\n.func f();\n", &rc);
    TAP_CONTAINS(msg, "bad.ptx:5:7: declaration of 'f' conflicts with its definition", "conflicting redeclaration");
    free(msg);
    msg = errors_of(HDR ".func f(.param .u32 a) { .reg .b32 %r1; ld.param.u32 %r1, [a]; ret; }\n"
                        ".func f(.param .u32 a);\n.func g(.param .u32 a) { ret; }\n", &rc);
    TAP_OK(rc == PTX_OK && strcmp(msg, "") == 0, "matching redeclaration after the definition is fine");
    free(msg);
    msg = errors_of(HDR ".extern .func vprintf(.param .u64 a);\n.entry k() { .param .u64 x; call vprintf, (x); ret; }\n", &rc);
    TAP_CONTAINS(msg, "unsupported call to external function 'vprintf'", "call to body-less function");
    free(msg);
}

static void test_recovery(void)
{
    int rc;
    char *msg = errors_of(KHEAD " foo %r1;\n add.s32 %r1, %r2;\n mov.u32 %r1, %r9999;\n mov.u32 %r2, 1;\n @%p1 bra X;\n ret;\n}\n",
                          &rc);
    TAP_OK(rc == PTX_ERR_PARSE, "file with several errors rejected");
    TAP_CONTAINS(msg, "bad.ptx:9:", "first error reported");
    TAP_CONTAINS(msg, "bad.ptx:10:", "second error reported after recovery");
    TAP_CONTAINS(msg, "bad.ptx:11:", "third error reported after recovery");
    TAP_CONTAINS(msg, "bad.ptx:13:", "undefined label reported at end of function");
    free(msg);

    /* the error cap: 1000 bad lines stop at PTX_MAX_ERRORS (+1 note) */
    size_t cap = 64 * 1024, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text, cap, "%s", KHEAD);
    for (int i = 0; i < 1000; i++)
        len += (size_t)snprintf(text + len, cap - len, " bogus%d;\n", i);
    snprintf(text + len, cap - len, " ret;\n}\n");
    struct diag d;
    diag_init(&d);
    struct ptx_module *m;
    rc = ptx_parse(text, strlen(text), "bad.ptx", &m, &d);
    TAP_OK(rc == PTX_ERR_PARSE && diag_count(&d) == PTX_MAX_ERRORS + 1, "error cap: %zu messages",
           diag_count(&d));
    TAP_CONTAINS(d.msgs[d.n - 1], "too many errors", "cap note");
    diag_fini(&d);
    free(text);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    *len = fread(buf, 1, (size_t)n, f);
    fclose(f);
    return buf;
}

/* Parse a byte buffer; the result must be consistent either way. */
static bool parse_ok_or_errors(const char *buf, size_t len)
{
    struct diag d;
    diag_init(&d);
    struct ptx_module *m = NULL;
    int rc = ptx_parse(buf, len, "cut.ptx", &m, &d);
    bool ok = (rc == PTX_OK && m && diag_count(&d) == 0) || (rc == PTX_ERR_PARSE && !m && diag_count(&d) > 0);
    /* every message carries a location */
    for (size_t i = 0; i < d.n && ok; i++)
        ok = strncmp(d.msgs[i], "cut.ptx:", 8) == 0;
    ptx_module_free(m);
    diag_fini(&d);
    return ok;
}

/* xorshift64*: fixed-seed generator for reproducible mutations. */
static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

static void test_truncation_and_mutation(void)
{
    DIR *dir = opendir(PTX_DIR);
    if (!dir) {
        tap_bail("cannot open %s", PTX_DIR);
        return;
    }
    char names[32][256];
    unsigned nf = 0;
    struct dirent *e;
    while ((e = readdir(dir)) && nf < 32) {
        size_t l = strlen(e->d_name);
        if (l > 4 && strcmp(e->d_name + l - 4, ".ptx") == 0)
            snprintf(names[nf++], sizeof names[0], "%s", e->d_name);
    }
    closedir(dir);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    unsigned mutants = 0;
    for (unsigned f = 0; f < nf; f++) {
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", PTX_DIR, names[f]) >= (int)sizeof path)
            continue;
        size_t len;
        char *text = read_all(path, &len);
        if (!text) {
            TAP_OK(0, "read %s", names[f]);
            continue;
        }
        bool all = true;
        for (unsigned k = 0; k <= 50; k++) {
            size_t cut = len * k / 50;
            char *pre = malloc(cut + 1); /* exact-size copy so ASan sees overreads */
            memcpy(pre, text, cut);
            all = parse_ok_or_errors(pre, cut) && all;
            free(pre);
        }
        TAP_OK(all, "%s: 51 truncated prefixes give clean parses or located errors", names[f]);
        /* mutations: spread 2000 variants over the files */
        unsigned per = 2000 / nf + (f < 2000 % nf);
        bool mall = true;
        char *mut = malloc(len + 8);
        for (unsigned v = 0; v < per; v++) {
            memcpy(mut, text, len);
            size_t mlen = len;
            unsigned edits = 1 + (unsigned)(rng_next(&seed) % 4);
            for (unsigned x = 0; x < edits && mlen > 0; x++) {
                size_t pos = rng_next(&seed) % mlen;
                uint64_t r = rng_next(&seed);
                static const char interesting[] = ";{}[]()<>,.|!@-+:%$_0x\n\"/*";
                switch (r % 4) {
                case 0: mut[pos] = (char)(r >> 8); break;                                  /* random byte */
                case 1: mut[pos] = interesting[(r >> 8) % (sizeof interesting - 1)]; break; /* punctuation */
                case 2: memmove(mut + pos, mut + pos + 1, mlen - pos - 1); mlen--; break;   /* delete */
                default: mut[pos] = (char)('0' + (r >> 8) % 10); break;                     /* digit */
                }
            }
            char *exact = malloc(mlen ? mlen : 1);
            memcpy(exact, mut, mlen);
            mall = parse_ok_or_errors(exact, mlen) && mall;
            free(exact);
            mutants++;
        }
        free(mut);
        TAP_OK(mall, "%s: %u mutated variants handled", names[f], per);
        free(text);
    }
    TAP_EQ_U64(mutants, 2000, "2000 mutated variants in total");
}

static void test_sidecar_and_io(void)
{
    struct diag d;
    diag_init(&d);
    struct ptx_module *m = NULL;
    const char *src = HDR ".entry k() { ret; }\n";
    TAP_OK(ptx_parse(src, strlen(src), "k.ptx", &m, &d) == PTX_OK, "tiny kernel parses");
    const char *good = "# comment\n\nk 17  # trailing comment\n";
    TAP_OK(ptx_apply_sidecar(m, good, strlen(good), "k.ptx.regs", &d) == PTX_OK && m->funcs[0].regs_ptxas == 17 &&
               m->funcs[0].regs_per_thread == 17,
           "sidecar sets regs_ptxas and regs_per_thread");
    const char *bad = "k 12\nnope 3\nk twelve\n";
    TAP_OK(ptx_apply_sidecar(m, bad, strlen(bad), "k.ptx.regs", &d) == PTX_ERR_PARSE, "bad sidecar rejected");
    char *msg = diag_join(&d);
    TAP_CONTAINS(msg, "k.ptx.regs:2:1: unknown function 'nope' in register sidecar", "unknown function in sidecar");
    TAP_CONTAINS(msg, "k.ptx.regs:3:3: expected '<function> <registers>'", "malformed sidecar line");
    free(msg);
    ptx_module_free(m);
    diag_clear(&d);
    TAP_OK(ptx_load_file("/nonexistent/x.ptx", &m, &d) == PTX_ERR_IO && m == NULL, "missing file -> PTX_ERR_IO");
    msg = diag_join(&d);
    TAP_CONTAINS(msg, "/nonexistent/x.ptx: cannot read PTX file", "I/O error message names the file");
    free(msg);
    diag_clear(&d);
    TAP_OK(ptx_parse(NULL, 0, NULL, &m, &d) == PTX_ERR_PARSE, "empty input is an error (no .version)");
    diag_fini(&d);
}

/* Regression (found by the CI fuzz smoke): a short .target token that is not
 * sm_NN was compared against "compute_" over 8 bytes, reading past the end of
 * an unterminated buffer. The text is copied into an exact-size allocation so
 * sanitizer builds catch any over-read. */
static void test_short_target_token(void)
{
    static const char text[] = ".version 8.0\n.target comp";
    size_t n = sizeof text - 1;
    char *buf = malloc(n);
    memcpy(buf, text, n);
    struct diag d;
    diag_init(&d);
    struct ptx_module *m = NULL;
    int rc = ptx_parse(buf, n, "t.ptx", &m, &d);
    char *msg = diag_join(&d);
    TAP_OK(rc != PTX_OK && m == NULL, "a short unknown .target token is an error, not a crash");
    TAP_CONTAINS(msg, "t.ptx:2:", "the error points at line 2");
    free(msg);
    diag_fini(&d);
    free(buf);
}

int main(void)
{
    tap_no_plan();
    test_short_target_token();
    test_specific();
    test_recovery();
    test_truncation_and_mutation();
    test_sidecar_and_io();
    return tap_exit();
}
