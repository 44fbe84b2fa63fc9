/* sim/cfg/cfg_internal.h: declarations shared by the files of the configuration
 * module, private to them (the public API is sim/cfg/config.h).
 *
 * The module is split by job:
 *   sim/cfg/config.c     the key tables walked as one list (global key index,
 *                    lookup by full name) and the life of a struct cfg
 *                    (cfg_init, cfg_fini, lookups of value text and origin);
 *   sim/cfg/cfg_value.c  values: parsing with units, range checks, normalised text;
 *   sim/cfg/cfg_load.c   files, includes, overrides, origins, presets (cfg_load,
 *                    cfg_set, cfg_find_preset, cfg_list_presets);
 *   sim/cfg/cfg_check.c  table sanity, renamed keys, "did you mean" hints, required
 *                    keys and the sections' cross-field checks (cfg_finish);
 *   sim/cfg/cfg_print.c  `config --list`, `config --show` and the JSON of the
 *                    effective config.
 */
#ifndef GPUSIM_SIM_CFG_CFG_INTERNAL_H
#define GPUSIM_SIM_CFG_CFG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/cfg/config.h"

#define CFG_NAME_MAX 128       /* longest full key name "<section>.<key>", with NUL */
#define CFG_WHY_MAX 512        /* longest "what is wrong with this value" text */

/* ---- key tables (sim/cfg/config.c) */

/* One key resolved against the registry. */
struct cfg_key_ref {
    const struct cfg_section *sec;
    const struct cfg_key *key;
    int index; /* global index: sections in registry order, keys in table order */
};

size_t cfg_total_keys(void);
/* The key with global index `index`; an index out of range is a bug. */
struct cfg_key_ref cfg_key_at(int index);
/* Full names are "<section>.<key>"; a key name may itself contain dots
 * ("sched.two_level.n_active" is key "two_level.n_active" of "sched"). */
bool cfg_find_key(const char *full, struct cfg_key_ref *out);
void cfg_full_name(const struct cfg_key_ref *r, char *buf, size_t len);
/* The field of key r inside c->values. */
void *cfg_field_of(struct cfg *c, const struct cfg_key_ref *r);

/* ---- values (sim/cfg/cfg_value.c) */

/* A parsed value before it is stored; which member is live follows the type. */
union cfg_val {
    bool b;     /* CFG_BOOL */
    int64_t i;  /* CFG_INT */
    uint64_t u; /* CFG_UINT, CFG_SIZE (bytes), CFG_FREQ (Hz), CFG_TIME (ps) */
    double d;   /* CFG_DOUBLE */
    int e;      /* CFG_ENUM: choice index */
    char *s;    /* CFG_STRING: owned by whoever holds the union */
};

/* Types whose range fields are meaningful. */
bool cfg_has_range(const struct cfg_key *k);
/* Parse text for key k into *v. On failure writes "<what is wrong>" to why.
 * Range is not checked here (see cfg_val_check_range). */
bool cfg_val_parse(const struct cfg_key *k, const char *text, union cfg_val *v, char *why,
                   size_t why_len);
bool cfg_val_check_range(const struct cfg_key *k, const union cfg_val *v, char *why,
                         size_t why_len);
/* Normalised text of v (heap string). */
char *cfg_val_format(const struct cfg_key *k, const union cfg_val *v);
void cfg_val_free(const struct cfg_key *k, union cfg_val *v);
/* Write v into a field of k's type; takes ownership of a string and frees
 * the field's old string only when free_old is set. */
void cfg_val_store(const struct cfg_key *k, void *field, union cfg_val *v, bool free_old);
/* The key's range as "lo .. hi" in its own units, e.g. "100MHz .. 10GHz". */
void cfg_format_range(const struct cfg_key *k, char *buf, size_t len);
/* "a, b, c" for an enum's choices. */
void cfg_join_choices(const struct cfg_key *k, const char *sep, char *buf, size_t len);

/* ---- checks and hints (sim/cfg/cfg_check.c) */

/* Panic on table mistakes: they are simulator bugs, not user errors. */
void cfg_validate_tables(void);
/* The current name of a renamed key (sim/cfg/registry.c), or NULL. */
const char *cfg_renamed_to(const char *old_name);
/* Small enough relative to the length to be a likely typo. */
bool cfg_close_enough(size_t dist, const char *a, const char *b);
/* " (did you mean 'x'?)", " (did you mean 'x' or 'y'?)" or "" for an unknown
 * full name. */
void cfg_suggest_key(const char *name, char *out, size_t len);

#endif /* GPUSIM_SIM_CFG_CFG_INTERNAL_H */
