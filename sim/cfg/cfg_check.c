/* sim/cfg/cfg_check.c: configuration checks: sanity of the key tables and the
 * renamed-keys table (a mistake there is a simulator bug: panic), the
 * renamed-key lookup and "did you mean" hints for unknown keys, and, in
 * cfg_finish, required keys plus every section's cross-field rules
 * (reported through cfg_check_fail with the key's origin).
 *
 * Every user error is appended to a struct diag; checking carries on so one
 * run reports all of them. No file-scope mutable state.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim/cfg/cfg_internal.h"
#include "sim/cfg/sim_cfg.h"

/* Registry entry s continues the section of entry s - 1: a section may be
 * declared in parts, adjacent entries with the same name (sim/cfg/config.h). */
static bool same_section_as_previous(unsigned s)
{
    return s > 0 && strcmp(cfg_sections[s - 1]->name, cfg_sections[s]->name) == 0;
}

/* The current name of a renamed key (sim/cfg/registry.c), or NULL. */
const char *cfg_renamed_to(const char *old_name)
{
    for (unsigned i = 0; i < cfg_n_renamed_keys; i++)
        if (strcmp(cfg_renamed_keys[i].old_name, old_name) == 0)
            return cfg_renamed_keys[i].new_name;
    return NULL;
}

/* Small enough relative to the length to be a likely typo. */
bool cfg_close_enough(size_t dist, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t longer = la > lb ? la : lb;
    return dist <= 3 && dist * 3 <= longer;
}

/* " (did you mean 'x'?)", " (did you mean 'x' or 'y'?)" or "" for an unknown
 * full name. Compares the whole name, and also the part after the first '.'
 * against every key's own name, which catches a key put in the wrong section
 * ("gpu.min_latency" -> "icnt.min_latency") and a missing section ("n_sm"). */
void cfg_suggest_key(const char *name, char *out, size_t len)
{
    enum { MAX_HINTS = 3 };
    const char *dot = strchr(name, '.');
    const char *tail = dot ? dot + 1 : name;
    size_t best = SIZE_MAX;
    int hints[MAX_HINTS];
    int n_hints = 0;
    int n = (int)cfg_total_keys();
    for (int i = 0; i < n; i++) {
        struct cfg_key_ref r = cfg_key_at(i);
        char full[CFG_NAME_MAX];
        cfg_full_name(&r, full, sizeof full);
        size_t d1 = diag_edit_distance(name, full);
        size_t d2 = diag_edit_distance(tail, r.key->name);
        size_t d = SIZE_MAX;
        if (cfg_close_enough(d1, name, full))
            d = d1;
        if (cfg_close_enough(d2, tail, r.key->name) && d2 < d)
            d = d2;
        if (d == SIZE_MAX || d > best)
            continue;
        if (d < best) {
            best = d;
            n_hints = 0;
        }
        if (n_hints < MAX_HINTS)
            hints[n_hints++] = i;
    }
    out[0] = '\0';
    if (n_hints == 0)
        return;
    size_t pos = (size_t)snprintf(out, len, " (did you mean ");
    for (int h = 0; h < n_hints && pos < len; h++) {
        struct cfg_key_ref r = cfg_key_at(hints[h]);
        char full[CFG_NAME_MAX];
        cfg_full_name(&r, full, sizeof full);
        const char *sep = h == 0 ? "" : h + 1 == n_hints ? " or " : ", ";
        pos += (size_t)snprintf(out + pos, len - pos, "%s'%s'", sep, full);
    }
    if (pos < len)
        snprintf(out + pos, len - pos, "?)");
}

/* Panic on table mistakes: they are simulator bugs, not user errors. */
void cfg_validate_tables(void)
{
    for (unsigned s = 0; s < cfg_n_sections; s++) {
        const struct cfg_section *sec = cfg_sections[s];
        if (!sec->name || !sec->name[0] || strchr(sec->name, '.'))
            sim_panic("config section %u has a bad name", s);
        /* Parts of one section are adjacent (same_section_as_previous). */
        for (unsigned t = 0; t + 1 < s; t++)
            if (strcmp(cfg_sections[t]->name, sec->name) == 0 && !same_section_as_previous(s))
                sim_panic("config section '%s' is registered twice, not in adjacent parts",
                          sec->name);
        for (size_t k = 0; k < sec->n_keys; k++) {
            const struct cfg_key *key = &sec->keys[k];
            if (!key->name || !key->name[0] || !key->doc)
                sim_panic("config key %zu of section '%s' lacks a name or doc", k, sec->name);
            if (strlen(sec->name) + 1 + strlen(key->name) >= CFG_NAME_MAX)
                sim_panic("config key '%s.%s' is longer than %d", sec->name, key->name,
                          CFG_NAME_MAX - 1);
            if (key->type == CFG_ENUM && (!key->choices || !key->choices[0]))
                sim_panic("config key '%s.%s' is an enum without choices", sec->name, key->name);
            /* Unique across every part of the section. */
            for (unsigned t = 0; t <= s; t++) {
                const struct cfg_section *o = cfg_sections[t];
                if (strcmp(o->name, sec->name) != 0)
                    continue;
                size_t end = t == s ? k : o->n_keys;
                for (size_t j = 0; j < end; j++)
                    if (strcmp(o->keys[j].name, key->name) == 0)
                        sim_panic("config key '%s.%s' is declared twice", sec->name, key->name);
            }
        }
    }
    /* The renamed-keys table: an old name is no longer declared (else it would
     * never be refused), its new name is, and each old name appears once. */
    for (unsigned i = 0; i < cfg_n_renamed_keys; i++) {
        const struct cfg_renamed_key *rk = &cfg_renamed_keys[i];
        struct cfg_key_ref r;
        if (!rk->old_name || !rk->new_name || cfg_find_key(rk->old_name, &r) ||
            !cfg_find_key(rk->new_name, &r))
            sim_panic("renamed config key %u ('%s' -> '%s') is inconsistent with the tables", i,
                      rk->old_name ? rk->old_name : "(null)",
                      rk->new_name ? rk->new_name : "(null)");
        for (unsigned j = 0; j < i; j++)
            if (strcmp(cfg_renamed_keys[j].old_name, rk->old_name) == 0)
                sim_panic("renamed config key '%s' is listed twice", rk->old_name);
    }
}

void cfg_check_fail(struct cfg_checker *ck, const char *key, const char *fmt, ...)
{
    int i = cfg_key_index(key);
    if (i < 0)
        sim_panic("cfg_check_fail: unknown key '%s'", key);
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *origin = ck->cfg->origin[i] ? ck->cfg->origin[i] : "unset";
    const char *text = ck->cfg->text[i] ? ck->cfg->text[i] : "(unset)";
    diag_add(ck->diag, origin, 0, 0, "key '%s' = %s: %s", key, text, msg);
}

int cfg_finish(struct cfg *c, struct diag *d)
{
    size_t before = diag_count(d);
    struct cfg_checker ck = {c, d};
    int base = 0;
    for (unsigned s = 0; s < cfg_n_sections; s++) {
        const struct cfg_section *sec = cfg_sections[s];
        bool complete = true;
        for (size_t k = 0; k < sec->n_keys; k++) {
            if (c->origin[base + (int)k])
                continue;
            complete = false;
            diag_add(d, c->source, 0, 0,
                     "required key '%s.%s' is not set (add '%s.%s = ...' to the config or "
                     "use -o %s.%s=...): %s",
                     sec->name, sec->keys[k].name, sec->name, sec->keys[k].name, sec->name,
                     sec->keys[k].name, sec->keys[k].doc);
        }
        /* A section with unset required keys would check zeros: skip its rules. */
        if (sec->check && complete)
            sec->check((const char *)c->values + sec->offset, c->values, &ck);
        base += (int)sec->n_keys;
    }
    return (int)(diag_count(d) - before);
}
