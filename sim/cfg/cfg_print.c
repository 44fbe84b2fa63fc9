/* sim/cfg/cfg_print.c: configuration output: `gpusim config --list` (every key
 * with type, default, range and doc), `gpusim config --show` (resolved
 * values with their origins, itself a valid config file) and the effective
 * config as a JSON object for the statistics file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cfg/cfg_internal.h"
#include "sim/base/json.h"

static const char *type_name(enum cfg_type t)
{
    switch (t) {
    case CFG_BOOL: return "bool";
    case CFG_INT: return "int";
    case CFG_UINT: return "uint";
    case CFG_SIZE: return "size";
    case CFG_FREQ: return "freq";
    case CFG_TIME: return "time";
    case CFG_DOUBLE: return "double";
    case CFG_ENUM: return "enum";
    case CFG_STRING: return "string";
    }
    sim_panic("bad cfg_type %d", (int)t);
}

/* Columns of one row of `config --list`. */
struct key_row {
    char name[CFG_NAME_MAX];
    char def[96];
    char range[256];
};

static void key_row(const struct cfg_key_ref *r, struct key_row *row)
{
    cfg_full_name(r, row->name, sizeof row->name);
    if (!r->key->def) {
        snprintf(row->def, sizeof row->def, "(required)");
    } else {
        union cfg_val v;
        char why[CFG_WHY_MAX];
        if (!cfg_val_parse(r->key, r->key->def, &v, why, sizeof why))
            sim_panic("default '%s' of config key '%s' %s", r->key->def, row->name, why);
        char *t = cfg_val_format(r->key, &v);
        snprintf(row->def, sizeof row->def, "%s", t);
        free(t);
        cfg_val_free(r->key, &v);
    }
    if (r->key->type == CFG_ENUM)
        cfg_join_choices(r->key, "|", row->range, sizeof row->range);
    else if (r->key->type == CFG_BOOL)
        snprintf(row->range, sizeof row->range, "true|false");
    else if (cfg_has_range(r->key))
        cfg_format_range(r->key, row->range, sizeof row->range);
    else
        snprintf(row->range, sizeof row->range, "-");
}

void cfg_print_keys(FILE *out)
{
    int n = (int)cfg_total_keys();
    int wn = 3, wt = 4, wd = 7, wr = 5; /* header widths: KEY TYPE DEFAULT RANGE */
    for (int i = 0; i < n; i++) {
        struct cfg_key_ref r = cfg_key_at(i);
        struct key_row row;
        key_row(&r, &row);
        wn = MAX(wn, (int)strlen(row.name));
        wt = MAX(wt, (int)strlen(type_name(r.key->type)));
        wd = MAX(wd, (int)strlen(row.def));
        wr = MAX(wr, (int)strlen(row.range));
    }
    fprintf(out, "  %-*s  %-*s  %-*s  %-*s  %s\n", wn, "KEY", wt, "TYPE", wd, "DEFAULT", wr,
            "RANGE", "DESCRIPTION");
    const struct cfg_section *cur = NULL;
    for (int i = 0; i < n; i++) {
        struct cfg_key_ref r = cfg_key_at(i);
        struct key_row row;
        if (!cur || strcmp(r.sec->name, cur->name) != 0) { /* parts share one heading */
            cur = r.sec;
            fprintf(out, "\n[%s] %s\n", cur->name, cur->doc ? cur->doc : "");
        }
        key_row(&r, &row);
        fprintf(out, "  %-*s  %-*s  %-*s  %-*s  %s\n", wn, row.name, wt, type_name(r.key->type),
                wd, row.def, wr, row.range, r.key->doc);
    }
}

/* The output is itself a valid config file: headings are comments, and a
 * required key that was never set is written commented out. */
void cfg_print_resolved(const struct cfg *c, FILE *out)
{
    int n = (int)cfg_total_keys();
    int w = 0;
    for (int i = 0; i < n; i++) {
        struct cfg_key_ref r = cfg_key_at(i);
        char full[CFG_NAME_MAX];
        cfg_full_name(&r, full, sizeof full);
        int len = (int)(strlen(full) + 3 + strlen(c->text[i] ? c->text[i] : "(not set)"));
        w = MAX(w, len);
    }
    const struct cfg_section *cur = NULL;
    for (int i = 0; i < n; i++) {
        struct cfg_key_ref r = cfg_key_at(i);
        char full[CFG_NAME_MAX];
        cfg_full_name(&r, full, sizeof full);
        if (!cur || strcmp(r.sec->name, cur->name) != 0) { /* parts share one heading */
            fprintf(out, "%s# [%s] %s\n", cur ? "\n" : "", r.sec->name,
                    r.sec->doc ? r.sec->doc : "");
            cur = r.sec;
        }
        if (c->text[i]) {
            int len = (int)(strlen(full) + 3 + strlen(c->text[i]));
            fprintf(out, "%s = %s%*s   # %s\n", full, c->text[i], w - len, "", c->origin[i]);
        } else {
            fprintf(out, "# %s = (not set)%*s # required\n", full,
                    w - (int)(strlen(full) + 12), "");
        }
    }
}

void cfg_write_json(const struct cfg *c, struct json_writer *w, const char *key)
{
    int n = (int)cfg_total_keys();
    jw_obj_begin(w, key);
    for (int i = 0; i < n; i++) {
        struct cfg_key_ref r = cfg_key_at(i);
        char full[CFG_NAME_MAX];
        cfg_full_name(&r, full, sizeof full);
        if (c->text[i])
            jw_str(w, full, c->text[i]);
        else
            jw_null(w, full); /* required key never set (cfg_finish reported it) */
    }
    jw_obj_end(w);
}
