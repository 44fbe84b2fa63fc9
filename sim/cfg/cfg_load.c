/* sim/cfg/cfg_load.c: reading configuration input: `key = value` files with `#`
 * comments, `include = other.cfg` (relative to the including file, else a
 * preset name; nesting limit and cycle detection), command-line overrides
 * "key=value", and preset lookup. Each accepted value records its origin
 * ("file:line" or the override origin); a key set twice in one file, an
 * unknown key, a bad value or a bad line is added to the struct diag with
 * file, line and key, and loading carries on.
 *
 * Not done: no `[section]` headers, no quoting or escapes, no environment
 * expansion. Everything lives in struct cfg or on the stack.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/cfg/cfg_internal.h"

#define CFG_MAX_INCLUDE_DEPTH 16

/* ------------------------------------------------------------ small helpers */

static char *xasprintf(const char *fmt, ...) PRINTF_LIKE(1, 2);
static char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        sim_panic("vsnprintf failed in config");
    char *p = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* Trim ASCII whitespace in place at both ends; returns the new start. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

static bool file_readable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

static bool dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ------------------------------------------------------------ assignments */

/* Where a line came from: file and line, or an override origin with line 0. */
struct loc {
    const char *file; /* path as opened, or the origin string ("-o") */
    int line;         /* 1-based; 0 for overrides */
};

static char *loc_string(const struct loc *l)
{
    return l->line > 0 ? xasprintf("%s:%d", l->file, l->line) : xstrdup(l->file);
}

/* Per-file state of one file being read. */
struct file_state {
    int *first_line; /* per global key index: line where this file set it, 0 = not yet */
};

/* Apply one `key = value`. Reports problems and leaves the old value when the
 * new one is bad. */
static void assign(struct cfg *c, const char *key, const char *value, const struct loc *l,
                   struct file_state *fs, struct diag *d)
{
    struct cfg_key_ref r;
    if (!cfg_find_key(key, &r)) {
        const char *now = cfg_renamed_to(key);
        if (now) {
            diag_add(d, l->file, l->line, 0, "unknown key '%s' (renamed to '%s')", key, now);
            return;
        }
        char hint[CFG_NAME_MAX * 4];
        cfg_suggest_key(key, hint, sizeof hint);
        diag_add(d, l->file, l->line, 0, "unknown key '%s'%s", key, hint);
        return;
    }
    if (fs) {
        if (fs->first_line[r.index]) {
            /* Last one still wins below; the duplicate itself is the error. */
            diag_add(d, l->file, l->line, 0, "key '%s': set twice, first at line %d", key,
                     fs->first_line[r.index]);
        } else {
            fs->first_line[r.index] = l->line;
        }
    }
    if (!value[0]) {
        diag_add(d, l->file, l->line, 0, "key '%s': empty value", key);
        return;
    }
    union cfg_val v;
    char why[CFG_WHY_MAX];
    if (!cfg_val_parse(r.key, value, &v, why, sizeof why)) {
        diag_add(d, l->file, l->line, 0, "key '%s': value '%s' %s", key, value, why);
        return;
    }
    if (!cfg_val_check_range(r.key, &v, why, sizeof why)) {
        diag_add(d, l->file, l->line, 0, "key '%s': value '%s' %s", key, value, why);
        cfg_val_free(r.key, &v);
        return;
    }
    free(c->text[r.index]);
    free(c->origin[r.index]);
    c->text[r.index] = cfg_val_format(r.key, &v);
    c->origin[r.index] = loc_string(l);
    cfg_val_store(r.key, cfg_field_of(c, &r), &v, true);
}

/* ------------------------------------------------------------ files */

/* The chain of files being read, innermost first; lives on the C stack. */
struct frame {
    const char *real;          /* realpath() of the file, for cycle detection */
    const char *path;          /* path as opened, for messages */
    const struct frame *parent;
};

static void load_file(struct cfg *c, const char *path, const struct frame *parent,
                      const struct loc *site, struct diag *d);

/* "a.cfg -> b.cfg -> a.cfg" for a cycle that closes at `again`. */
static void report_cycle(const struct frame *top, const char *again, const struct loc *site,
                         struct diag *d)
{
    const char *chain[CFG_MAX_INCLUDE_DEPTH + 2];
    int n = 0;
    for (const struct frame *f = top; f && n < (int)ARRAY_LEN(chain); f = f->parent)
        chain[n++] = f->path;
    char buf[2048];
    size_t pos = 0;
    buf[0] = '\0';
    for (int i = n - 1; i >= 0 && pos < sizeof buf; i--)
        pos += (size_t)snprintf(buf + pos, sizeof buf - pos, "%s -> ", chain[i]);
    if (pos < sizeof buf)
        snprintf(buf + pos, sizeof buf - pos, "%s", again);
    diag_add(d, site->file, site->line, 0, "include cycle: %s", buf);
}

/* `include = name`: a path relative to the including file's directory (or to
 * the working directory for an override), else a preset name. */
static void do_include(struct cfg *c, const char *name, const char *including,
                       const struct frame *parent, const struct loc *site, struct diag *d)
{
    if (c->include_depth >= CFG_MAX_INCLUDE_DEPTH) {
        diag_add(d, site->file, site->line, 0,
                 "include '%s': includes nested deeper than %d levels", name,
                 CFG_MAX_INCLUDE_DEPTH);
        return;
    }
    char *path = NULL;
    if (name[0] == '/' || !including) {
        path = xstrdup(name);
    } else {
        const char *slash = strrchr(including, '/');
        if (slash)
            path = xasprintf("%.*s/%s", (int)(slash - including), including, name);
        else
            path = xstrdup(name);
    }
    if (!file_readable(path) && !strchr(name, '/')) {
        /* Not next to the including file: try it as a preset name. */
        char preset[PATH_MAX];
        char *base = xstrdup(name);
        if (ends_with(base, ".cfg"))
            base[strlen(base) - 4] = '\0';
        if (base[0] && cfg_find_preset(base, preset, sizeof preset) && file_readable(preset)) {
            free(path);
            path = xstrdup(preset);
        }
        free(base);
    }
    if (!file_readable(path) && access(path, F_OK) != 0) {
        diag_add(d, site->file, site->line, 0,
                 "include '%s': file not found (looked for '%s' and for a preset of that name)",
                 name, path);
        free(path);
        return;
    }
    c->include_depth++;
    load_file(c, path, parent, site, d);
    c->include_depth--;
    free(path);
}

/* One line of a file, comment already removed and trimmed. */
static void handle_line(struct cfg *c, char *s, const struct loc *l, const struct frame *self,
                        struct file_state *fs, struct diag *d)
{
    char *eq = strchr(s, '=');
    if (!eq) {
        if (s[0] == '[')
            diag_add(d, l->file, l->line, 0,
                     "malformed line '%s' (no [section] headers: write 'section.key = value')", s);
        else
            diag_add(d, l->file, l->line, 0, "malformed line '%s' (expected 'key = value')", s);
        return;
    }
    *eq = '\0';
    char *key = trim(s);
    char *value = trim(eq + 1);
    if (!key[0]) {
        diag_add(d, l->file, l->line, 0, "malformed line: no key before '=' (value '%s')", value);
        return;
    }
    if (strcmp(key, "include") == 0) {
        if (!value[0])
            diag_add(d, l->file, l->line, 0, "include: empty file name");
        else
            do_include(c, value, self->path, self, l, d);
        return;
    }
    assign(c, key, value, l, fs, d);
}

/* Read one file. `site` is where it was named (include line or NULL for the
 * top level); open errors are reported there. */
static void load_file(struct cfg *c, const char *path, const struct frame *parent,
                      const struct loc *site, struct diag *d)
{
    struct loc top = {path, 0};
    const struct loc *where = site ? site : &top;
    char *real = realpath(path, NULL);
    if (real) {
        for (const struct frame *f = parent; f; f = f->parent) {
            if (strcmp(f->real, real) == 0) {
                report_cycle(parent, path, where, d);
                free(real);
                return;
            }
        }
    }
    FILE *fp = fopen(path, "r");
    if (!fp) {
        if (site)
            diag_add(d, site->file, site->line, 0, "include '%s': cannot open: %s", path,
                     strerror(errno));
        else
            diag_add(d, path, 0, 0, "cannot open config file: %s", strerror(errno));
        free(real);
        return;
    }
    struct frame self = {real ? real : path, path, parent};
    struct file_state fs = {xcalloc(cfg_total_keys(), sizeof(int))};
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int lineno = 0;
    errno = 0;
    while ((got = getline(&line, &cap, fp)) >= 0) {
        struct loc l = {path, ++lineno};
        if ((size_t)got != strlen(line)) {
            diag_add(d, path, lineno, 0, "line contains a NUL byte (not a text file?)");
            continue;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *s = trim(line);
        if (s[0])
            handle_line(c, s, &l, &self, &fs, d);
        errno = 0;
    }
    if (ferror(fp))
        diag_add(d, path, lineno > 0 ? lineno + 1 : 0, 0, "read error: %s",
                 strerror(errno ? errno : EIO));
    free(line);
    free(fs.first_line);
    fclose(fp);
    free(real);
}

/* ------------------------------------------------------------ presets */

/* Candidate preset directories, in lookup order; returns how many. */
static int preset_dirs(const char *dirs[3])
{
    int n = 0;
    const char *env = getenv("GPUSIM_CONFIG_DIR");
    if (env && env[0])
        dirs[n++] = env;
#ifdef GPUSIM_SOURCE_DIR
    dirs[n++] = GPUSIM_SOURCE_DIR "/configs";
#endif
#ifdef GPUSIM_INSTALL_DATADIR
    dirs[n++] = GPUSIM_INSTALL_DATADIR "/configs";
#endif
    return n;
}

bool cfg_find_preset(const char *name, char *out, size_t out_len)
{
    if (out_len)
        out[0] = '\0';
    if (!name || !name[0] || !out_len)
        return false;
    if (strchr(name, '/') || ends_with(name, ".cfg")) {
        /* A path: returned unchanged; opening it reports a missing file. */
        if (strlen(name) >= out_len)
            return false;
        memcpy(out, name, strlen(name) + 1);
        return true;
    }
    const char *dirs[3];
    int n = preset_dirs(dirs);
    for (int i = 0; i < n; i++) {
        int w = snprintf(out, out_len, "%s/%s.cfg", dirs[i], name);
        if (w > 0 && (size_t)w < out_len && file_readable(out))
            return true;
    }
    out[0] = '\0';
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **cfg_list_presets(void)
{
    const char *dirs[3];
    int nd = preset_dirs(dirs);
    size_t n = 0, cap = 8;
    char **list = xcalloc(cap, sizeof *list);
    for (int i = 0; i < nd; i++) {
        if (!dir_exists(dirs[i]))
            continue;
        DIR *dp = opendir(dirs[i]);
        if (!dp)
            continue;
        struct dirent *e;
        while ((e = readdir(dp)) != NULL) {
            size_t len = strlen(e->d_name);
            if (e->d_name[0] == '.' || len <= 4 || !ends_with(e->d_name, ".cfg"))
                continue;
            if (n + 1 >= cap) {
                cap *= 2;
                char **nl = realloc(list, cap * sizeof *nl);
                if (!nl)
                    sim_panic("out of memory listing presets");
                list = nl;
            }
            list[n] = xmalloc(len - 3);
            memcpy(list[n], e->d_name, len - 4);
            list[n][len - 4] = '\0';
            n++;
        }
        closedir(dp);
        break; /* only the first directory that exists */
    }
    qsort(list, n, sizeof *list, cmp_str);
    list[n] = NULL;
    return list;
}

void cfg_free_list(char **list)
{
    if (!list)
        return;
    for (char **p = list; *p; p++)
        free(*p);
    free(list);
}

/* ------------------------------------------------------------ entry points */

int cfg_load(struct cfg *c, const char *preset_or_path, struct diag *d)
{
    size_t before = diag_count(d);
    char path[PATH_MAX];
    free(c->source);
    c->source = xstrdup(preset_or_path ? preset_or_path : "");
    if (!preset_or_path || !cfg_find_preset(preset_or_path, path, sizeof path)) {
        char **names = cfg_list_presets();
        char avail[1024] = "";
        size_t pos = 0;
        const char *hint = NULL;
        for (char **p = names; *p && pos < sizeof avail; p++) {
            pos += (size_t)snprintf(avail + pos, sizeof avail - pos, "%s%s",
                                    p == names ? "" : ", ", *p);
            if (preset_or_path &&
                cfg_close_enough(diag_edit_distance(preset_or_path, *p), preset_or_path, *p))
                hint = *p;
        }
        diag_add(d, NULL, 0, 0,
                 "unknown preset '%s'%s%s%s (available: %s; a file path must contain '/' or "
                 "end in .cfg)",
                 preset_or_path ? preset_or_path : "(null)", hint ? " (did you mean '" : "",
                 hint ? hint : "", hint ? "'?)" : "", avail[0] ? avail : "none");
        cfg_free_list(names);
        return (int)(diag_count(d) - before);
    }
    c->include_depth = 0;
    load_file(c, path, NULL, NULL, d);
    return (int)(diag_count(d) - before);
}

int cfg_set(struct cfg *c, const char *key_eq_value, const char *origin, struct diag *d)
{
    size_t before = diag_count(d);
    struct loc l = {origin ? origin : "-o", 0};
    char *buf = xstrdup(key_eq_value ? key_eq_value : "");
    char *eq = strchr(buf, '=');
    if (!eq) {
        diag_add(d, l.file, 0, 0, "malformed override '%s' (expected key=value)", buf);
    } else {
        *eq = '\0';
        char *key = trim(buf);
        char *value = trim(eq + 1); /* no comment stripping: '#' is literal here */
        if (!key[0])
            diag_add(d, l.file, 0, 0, "malformed override '%s=%s': no key before '='", key,
                     value);
        else if (strcmp(key, "include") == 0 && value[0])
            do_include(c, value, NULL, NULL, &l, d);
        else
            assign(c, key, value, &l, NULL, d);
    }
    free(buf);
    return (int)(diag_count(d) - before);
}
