/* sim/gpu/eng_json.c: see eng_json.h. */
#include "sim/gpu/eng_json.h"

/* The "per_thread" array: one object per host thread, the same fields for
 * `gpusim run` and `gpusim synth` (docs/engine.md, "Reports"). */
void eng_json_threads(struct json_writer *w, const struct eng_thread_report *tr, unsigned n)
{
    jw_arr_begin(w, "per_thread");
    for (unsigned t = 0; t < n; t++, tr++) {
        jw_obj_begin(w, NULL);
        jw_u64(w, "partitions", tr->n_partitions);
        jw_i64(w, "cpu", tr->cpu);
        jw_u64(w, "messages_sent", tr->msgs_sent);
        jw_u64(w, "messages_cross_thread", tr->msgs_xthread);
        jw_u64(w, "messages_overflow", tr->msgs_overflow);
        jw_u64(w, "quanta", tr->quanta);
        jw_u64(w, "barrier_sleeps", tr->barrier_sleeps);
        jw_u64(w, "spin_aborts", tr->spin_aborts);
        jw_double(w, "busy_seconds", tr->busy_s);
        jw_double(w, "barrier_seconds", tr->wait_s);
        jw_u64(w, "steals", tr->steals);
        jw_u64(w, "ahead_runs", tr->ahead_runs);
        jw_double(w, "ahead_seconds", tr->ahead_s);
        jw_double(w, "ahead_wait_seconds", tr->ahead_wait_s);
        jw_double(w, "parked_seconds", tr->parked_s);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

void eng_json_write(struct json_writer *w, const struct eng_adapt_report *a, const struct eng_profile *p)
{
    jw_obj_begin(w, "adaptive");
    jw_double(w, "active_threads_mean", a->quanta ? (double)a->thread_quanta / (double)a->quanta : 0.0);
    jw_u64(w, "active_threads_end", a->active_end);
    jw_u64(w, "repartitions", a->repartitions);
    jw_u64(w, "windows", a->windows);
    jw_u64(w, "moves", a->moves);
    jw_u64(w, "descheduled_windows", a->desched_windows);
    jw_obj_end(w);
    jw_obj_begin(w, "profile");
    jw_u64(w, "quanta", p->quanta);
    jw_u64(w, "sampled_quanta", p->samples);
    jw_u64(w, "messages", p->msgs);
    jw_u64(w, "messages_cross_thread", p->msgs_xthread);
    jw_double(w, "serial_seconds", p->serial_s);
    jw_double(w, "sampled_work_seconds", p->work_s);
    jw_double(w, "sampled_busiest_partition_seconds", p->max_part_s);
    jw_arr_begin(w, "sampled_busiest_thread_seconds");
    for (unsigned i = 0; i < p->n_proj; i++) {
        jw_obj_begin(w, NULL);
        jw_u64(w, "threads", p->proj_threads[i]);
        jw_double(w, "seconds", p->proj_makespan_s[i]);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}
