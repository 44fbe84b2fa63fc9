/* bench/support/machine.c: see machine.h. */
#include "machine.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sim/base/json.h"
#include "sync/topo.h"

void machine_probe(struct machine *m)
{
    snprintf(m->cpu_model, sizeof m->cpu_model, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                const char *v = strchr(line, ':');
                if (v) {
                    v++;
                    while (*v == ' ' || *v == '\t')
                        v++;
                    snprintf(m->cpu_model, sizeof m->cpu_model, "%s", v);
                    m->cpu_model[strcspn(m->cpu_model, "\n")] = '\0';
                }
                break;
            }
        }
        fclose(f);
    }
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(m->kernel, sizeof m->kernel, "%s %s %s %s", u.sysname, u.release, u.version, u.machine);
    else
        snprintf(m->kernel, sizeof m->kernel, "unknown");
    struct topo t;
    topo_init(&t);
    m->cores = topo_physical_cores(&t);
    m->pus = topo_pus(&t);
    topo_fini(&t);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    m->online = n > 0 ? (unsigned)n : 1u;
}

void machine_print_markdown(const struct machine *m)
{
    printf("- CPU: %s\n- physical cores: %u, PUs: %u, online CPUs: %u\n- kernel: %s\n", m->cpu_model, m->cores,
           m->pus, m->online, m->kernel);
}

void machine_write_json(const struct machine *m, struct json_writer *w)
{
    jw_obj_begin(w, "machine");
    jw_str(w, "cpu_model", m->cpu_model);
    jw_u64(w, "physical_cores", m->cores);
    jw_u64(w, "pus", m->pus);
    jw_u64(w, "online_cpus", m->online);
    jw_str(w, "kernel", m->kernel);
    jw_obj_end(w);
}
