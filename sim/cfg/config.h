/* sim/cfg/config.h: declared, strictly validated configuration.
 *
 * Every key is declared exactly once, in the unit that owns it, as a row of
 * a `struct cfg_key` table: {name, type, offset into the unit's config
 * struct, range, default, doc}. A unit's table plus the offset of its struct
 * inside `struct sim_cfg` (sim/cfg/sim_cfg.h) form a `struct cfg_section`; the
 * list of sections is in sim/cfg/registry.c. Full key names are
 * "<section>.<key>", e.g. "sync.quantum", "clock.core". A section may be
 * declared in parts: adjacent registry entries with the same name, each with
 * its own struct, key table and check, print and behave as one section. This
 * lets the unit that owns a value declare it under the section the spec names
 * (icnt.flit is declared by the interconnect, icnt.min_latency by gpu_cfg.c).
 *
 * A renamed key is listed once, in cfg_renamed_keys[] (sim/cfg/registry.c):
 * its old name is refused like any unknown key, with the hint
 * "(renamed to 'new.name')" instead of a "did you mean" guess.
 *
 * Input: `key = value` lines, `#` comments (to end of line), blank lines,
 * `include = other.cfg` (relative to the including file, or a preset name),
 * and command-line overrides "key=value" applied after all files.
 * Values carry units:
 *   size   16K, 16KB, 16KiB, 2M, 128 (bytes; K/M/G are powers of 1024)
 *   freq   700MHz, 1.4GHz, 924 (a bare number is MHz); stored in Hz
 *   time   10ns, 11432ps, 1.5us (a bare number is ps); stored in ps
 *   int/uint  decimal or 0x hex, optional K/M/G (powers of 1024) suffix
 *   bool   true/false, yes/no, on/off, 1/0
 *   enum   one of the declared choices; stored as the choice's index (int)
 *   double decimal with optional exponent
 *   string rest of the line, trimmed; stored as an owned char*
 *
 * Errors never stop at the first one: each is added to a struct diag as
 * "file:line: key 'x.y': <what is wrong> (<rule or hint>)" and the caller
 * reports all of them (the CLI exits 2). An unknown key gets a "did you
 * mean 'x.z'?" hint. Cross-field rules run in cfg_finish via each section's
 * check function.
 *
 * Not on the hot path: units copy what they need out of struct sim_cfg at
 * init.
 */
#ifndef GPUSIM_SIM_CFG_CONFIG_H
#define GPUSIM_SIM_CFG_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/diag.h"

struct json_writer;
struct sim_cfg;

enum cfg_type {
    CFG_BOOL,   /* bool */
    CFG_INT,    /* int64_t */
    CFG_UINT,   /* uint64_t */
    CFG_SIZE,   /* uint64_t, bytes */
    CFG_FREQ,   /* uint64_t, Hz */
    CFG_TIME,   /* uint64_t, ps */
    CFG_DOUBLE, /* double */
    CFG_ENUM,   /* int: index into choices */
    CFG_STRING, /* char * owned by struct cfg */
};

struct cfg_key {
    const char *name;            /* key name inside its section, e.g. "n_sm" */
    enum cfg_type type;
    size_t offset;               /* offsetof(<section struct>, field) */
    double min, max;             /* inclusive range in stored units (Hz, ps, bytes...); ignored
                                    for bool/enum/string; min > max means no range check */
    const char *def;             /* default, written as in a config file; NULL = required key */
    const char *const *choices;  /* CFG_ENUM only: NULL-terminated choice names */
    const char *doc;             /* one-line description */
};

/* Passed to a section's cross-field check. */
struct cfg_checker {
    const struct cfg *cfg;  /* the config being finished */
    struct diag *diag;      /* where errors go */
};

/* Report a violated cross-field rule. The message is prefixed with the
 * origin (file:line or "-o" or "default") of `key` (full name). */
void cfg_check_fail(struct cfg_checker *ck, const char *key, const char *fmt, ...)
    PRINTF_LIKE(3, 4);

struct cfg_section {
    const char *name;            /* "sync", "clock", ...; adjacent parts may share it */
    const char *doc;             /* one-line description of the section */
    size_t offset;               /* offsetof(struct sim_cfg, <member>) */
    const struct cfg_key *keys;
    size_t n_keys;
    /* Optional cross-field rules; sec points at this section's struct. */
    void (*check)(const void *sec, const struct sim_cfg *all, struct cfg_checker *ck);
};

/* A key that was renamed: `old_name` is refused with "renamed to 'new_name'"
 * (both full names; new_name must be declared, old_name must not). */
struct cfg_renamed_key {
    const char *old_name;
    const char *new_name;
};

/* A loaded configuration: values plus, for each key, where it was set. */
struct cfg {
    struct sim_cfg *values;      /* resolved values (owned) */
    char **origin;               /* per global key index: "default", "file:line" or "-o" */
    char **text;                 /* per global key index: the value as written (normalised) */
    char *source;                /* preset name or path given to cfg_load, or NULL */
    int include_depth;           /* current include nesting (limit 16) */
};

/* Initialise with every key at its default. Never fails. */
void cfg_init(struct cfg *c);
void cfg_fini(struct cfg *c);

/* Load a preset name (looked up by cfg_find_preset) or a file path. Errors are
 * appended to d; returns the number of errors added (0 = success). */
int cfg_load(struct cfg *c, const char *preset_or_path, struct diag *d);

/* Apply one override "key=value" (origin is used in messages, e.g. "-o"). */
int cfg_set(struct cfg *c, const char *key_eq_value, const char *origin, struct diag *d);

/* Check required keys and run every section's cross-field check. */
int cfg_finish(struct cfg *c, struct diag *d);

/* Resolve a preset name to a path: "$GPUSIM_CONFIG_DIR/<name>.cfg", then the
 * source tree's configs/, then the installed share/gpusim/configs/. A name
 * containing '/' or ending in ".cfg" is returned as a path unchanged.
 * Returns false when not found (out is then empty). */
bool cfg_find_preset(const char *name, char *out, size_t out_len);

/* Names of the presets found in the first existing config directory, sorted;
 * NULL-terminated array, caller frees with cfg_free_list. */
char **cfg_list_presets(void);
void cfg_free_list(char **list);

/* `gpusim config --list`: every key with type, default, range and doc. */
void cfg_print_keys(FILE *out);
/* `gpusim config --show`: resolved "key = value  # origin", grouped by section. */
void cfg_print_resolved(const struct cfg *c, FILE *out);
/* The effective config as a JSON object member named `key` ({"sync.quantum": "11432ps", ...}:
 * values as normalised text with units, so they can be fed back as a config). */
void cfg_write_json(const struct cfg *c, struct json_writer *w, const char *key);

/* Lookup by full name (for tests and tools): index, or -1. */
int cfg_key_index(const char *full_name);
const char *cfg_value_text(const struct cfg *c, const char *full_name);
/* Where the key's value came from: "default", "file:line" or the override
 * origin (e.g. "-o"); NULL for an unknown key or a required key never set. */
const char *cfg_value_origin(const struct cfg *c, const char *full_name);

/* Parse `text` as a value of key k, with k's units and range, into *field (an
 * object of k's type: bool, int64_t, uint64_t, double, int or char *). A
 * CFG_STRING result is a malloc'd copy the caller frees; the old pointer in
 * *field is not freed. On error returns false, leaves *field unchanged and
 * writes what is wrong to why, e.g. "is not a frequency (examples: 700MHz,
 * 1.4GHz)" or "is out of range (allowed 100MHz .. 10GHz)". For tools that take
 * unit-bearing values outside a config file, and for tests of every type. */
bool cfg_parse_value(const struct cfg_key *k, const char *text, void *field, char *why,
                     size_t why_len);
/* The normalised text of *field (16K, 1.4GHz, 11432ps, true, choice name). */
void cfg_format_value(const struct cfg_key *k, const void *field, char *buf, size_t len);

/* Helpers for units. */
static inline uint64_t cfg_freq_to_period_ps(uint64_t hz) { return (1000000000000ull + hz / 2) / hz; }

/* One cross-field rule inside a validator shaped
 *   int f(const T *c, ..., void (*report)(void *ctx, const char *key, const char *msg), void *ctx)
 *   { int n = 0; ...CFG_RULE(...)...; return n; }
 * When ok is false: count it in n and, if report is set, pass it the key and
 * the formatted message (at most 255 characters). Needs <stdio.h>. */
#define CFG_RULE(ok, key, ...)                                                                     \
    do {                                                                                           \
        if (!(ok)) {                                                                               \
            n++;                                                                                   \
            if (report) {                                                                          \
                char msg_[256];                                                                    \
                snprintf(msg_, sizeof msg_, __VA_ARGS__);                                          \
                report(ctx, key, msg_);                                                            \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#endif /* GPUSIM_SIM_CFG_CONFIG_H */
