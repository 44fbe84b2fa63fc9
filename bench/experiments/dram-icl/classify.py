#!/usr/bin/env python3
"""Classify workloads for the dram-icl experiment (issue 17, seed 003 ch. 5).

Rules (seed 003, section 5.2, as in spec dram-intercore-locality.md):
  memory-sensitive: IPC with dram.model = perfect over the FR-FCFS IPC > 1.20;
  HIL (high inter-core locality): memory-sensitive and more than 10 % of the
      L2 slice-cycles have at least one MSHR entry holding merged requests
      (l2.mshr_cycles_merged over idle + single + merged, summed over slices);
  LIL: memory-sensitive, not HIL;
  insensitive: the rest.
Usage: classify.py OUT [--json FILE]   (Markdown table to stdout)
"""
import json
import os
import sys

MEM_SPEEDUP_MIN = 1.20
MERGED_SHARE_MIN = 0.10


def load_jobs(out):
    sweep = json.load(open(os.path.join(out, "sweep.json")))
    res = {}
    for j in sweep["jobs"]:
        p = os.path.join(out, "jobs", j["id"] + ".json")
        if not os.path.exists(p):
            continue
        d = json.load(open(p))
        if not d.get("complete", True) or d.get("run", {}).get("verdict", "verified") != "verified":
            continue
        res[(j["workload"], j["variant"])] = d
    return res


def stat(job, key):
    tot = job["stats"]["total"] if "stats" in job else job["total"]
    v = tot.get(key, 0)
    return v["total"] if isinstance(v, dict) and "total" in v else v


def merged_share(job):
    m = stat(job, "l2.mshr_cycles_merged")
    a = m + stat(job, "l2.mshr_cycles_single") + stat(job, "l2.mshr_cycles_idle")
    return m / a if a else 0.0


def classify(res):
    out = {}
    for w in sorted({w for (w, _) in res}):
        b, p = res.get((w, "frfcfs")), res.get((w, "dram_perfect"))
        if not b or not p:
            continue
        sp = p["timing"]["ipc"] / b["timing"]["ipc"]
        ms = merged_share(b)
        cls = "insensitive" if sp <= MEM_SPEEDUP_MIN else ("HIL" if ms > MERGED_SHARE_MIN else "LIL")
        out[w] = {"class": cls, "perfect_speedup": sp, "merged_share": ms, "ipc": b["timing"]["ipc"],
                  "cycles": b["timing"]["cycles"]}
    return out


def main():
    out = sys.argv[1]
    cl = classify(load_jobs(out))
    if "--json" in sys.argv:
        json.dump(cl, open(sys.argv[sys.argv.index("--json") + 1], "w"), indent=1, sort_keys=True)
    print("| workload | IPC (FR-FCFS) | perfect-DRAM speed-up | merged-MSHR cycle share | class |")
    print("|:--|--:|--:|--:|:--|")
    for w, c in cl.items():
        print(f"| {w} | {c['ipc']:.2f} | {c['perfect_speedup']:.3f} | {100 * c['merged_share']:.1f} % | {c['class']} |")
    n = {k: sum(1 for c in cl.values() if c["class"] == k) for k in ("HIL", "LIL", "insensitive")}
    print()
    print(f"{len(cl)} workloads: {n['HIL']} HIL, {n['LIL']} LIL, {n['insensitive']} insensitive "
          f"(memory-sensitive: perfect-DRAM speed-up > {MEM_SPEEDUP_MIN:.2f}; HIL: merged share > "
          f"{100 * MERGED_SHARE_MIN:.0f} %).")


if __name__ == "__main__":
    main()
