/* sim/cfg/config.c: the declared configuration as one list of keys, and the
 * life of a struct cfg.
 *
 * What it does: walks the section tables listed in sim/cfg/registry.c (the
 * only declaration of keys) as one list with a global key index, finds a key
 * by full name, and creates a struct cfg with every key at its default
 * (cfg_init), frees it (cfg_fini) and answers lookups of a key's value text
 * and origin. The other jobs are next to it (sim/cfg/cfg_internal.h): values
 * with units in sim/cfg/cfg_value.c, files, includes and overrides in
 * sim/cfg/cfg_load.c, checks and hints in sim/cfg/cfg_check.c, output in
 * sim/cfg/cfg_print.c.
 *
 * Operation mix: a few hundred keys, a few files, once per run. Lookups are
 * linear scans over the tables; nothing here is on the simulation hot path.
 * There is no file-scope mutable state: everything lives in struct cfg or on
 * the stack, so independent struct cfg instances never interact.
 */
#include "sim/cfg/config.h"

#include <stdlib.h>
#include <string.h>

#include "sim/cfg/cfg_internal.h"
#include "sim/cfg/sim_cfg.h"

size_t cfg_total_keys(void)
{
    size_t n = 0;
    for (unsigned s = 0; s < cfg_n_sections; s++)
        n += cfg_sections[s]->n_keys;
    return n;
}

/* The key with global index `index`; an index out of range is a bug. */
struct cfg_key_ref cfg_key_at(int index)
{
    int base = 0;
    for (unsigned s = 0; s < cfg_n_sections; s++) {
        const struct cfg_section *sec = cfg_sections[s];
        if (index >= base && index < base + (int)sec->n_keys)
            return (struct cfg_key_ref){sec, &sec->keys[index - base], index};
        base += (int)sec->n_keys;
    }
    sim_panic("config key index %d out of range", index);
}

/* Full names are "<section>.<key>"; a key name may itself contain dots
 * ("sched.two_level.n_active" is key "two_level.n_active" of "sched"). */
bool cfg_find_key(const char *full, struct cfg_key_ref *out)
{
    int base = 0;
    for (unsigned s = 0; s < cfg_n_sections; s++) {
        const struct cfg_section *sec = cfg_sections[s];
        size_t ln = strlen(sec->name);
        if (strncmp(full, sec->name, ln) == 0 && full[ln] == '.') {
            for (size_t k = 0; k < sec->n_keys; k++) {
                if (strcmp(full + ln + 1, sec->keys[k].name) == 0) {
                    out->sec = sec;
                    out->key = &sec->keys[k];
                    out->index = base + (int)k;
                    return true;
                }
            }
        }
        base += (int)sec->n_keys;
    }
    return false;
}

void cfg_full_name(const struct cfg_key_ref *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s.%s", r->sec->name, r->key->name);
}

void *cfg_field_of(struct cfg *c, const struct cfg_key_ref *r)
{
    return (char *)c->values + r->sec->offset + r->key->offset;
}

void cfg_init(struct cfg *c)
{
    cfg_validate_tables();
    size_t n = cfg_total_keys();
    memset(c, 0, sizeof *c);
    c->values = xcalloc(1, sizeof *c->values);
    c->origin = xcalloc(n, sizeof *c->origin);
    c->text = xcalloc(n, sizeof *c->text);
    for (int i = 0; i < (int)n; i++) {
        struct cfg_key_ref r = cfg_key_at(i);
        if (!r.key->def)
            continue; /* required: origin and text stay NULL until set */
        union cfg_val v;
        char why[CFG_WHY_MAX];
        if (!cfg_val_parse(r.key, r.key->def, &v, why, sizeof why) ||
            !cfg_val_check_range(r.key, &v, why, sizeof why))
            sim_panic("default '%s' of config key '%s.%s' %s", r.key->def, r.sec->name,
                      r.key->name, why);
        c->text[i] = cfg_val_format(r.key, &v);
        c->origin[i] = xstrdup("default");
        cfg_val_store(r.key, cfg_field_of(c, &r), &v, true);
    }
}

void cfg_fini(struct cfg *c)
{
    if (!c->values)
        return;
    int n = (int)cfg_total_keys();
    for (int i = 0; i < n; i++) {
        struct cfg_key_ref r = cfg_key_at(i);
        if (r.key->type == CFG_STRING)
            free(*(char **)cfg_field_of(c, &r));
        free(c->origin[i]);
        free(c->text[i]);
    }
    free(c->values);
    free(c->origin);
    free(c->text);
    free(c->source);
    memset(c, 0, sizeof *c);
}

int cfg_key_index(const char *full_name)
{
    struct cfg_key_ref r;
    return full_name && cfg_find_key(full_name, &r) ? r.index : -1;
}

const char *cfg_value_text(const struct cfg *c, const char *full_name)
{
    int i = cfg_key_index(full_name);
    return i < 0 ? NULL : c->text[i];
}

const char *cfg_value_origin(const struct cfg *c, const char *full_name)
{
    int i = cfg_key_index(full_name);
    return i < 0 ? NULL : c->origin[i];
}
