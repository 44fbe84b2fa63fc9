#!/usr/bin/env python3
"""Classify workloads from the baseline sweep (bench/experiments/baseline).

Rules (issue 11):
  cache-sensitive  (seed 000, ch. 4, class C1): L1D accesses (loads, stores,
                   atomics: line-sized transactions) per 1000 instructions > 10
                   in the LRR run. Instructions are thread instructions, the
                   unit of GPGPU-Sim's instruction count (gpu_sim_insn), on
                   which the seed measured; per warp instruction almost every
                   workload would pass the threshold.
  memory-sensitive (seed 003): IPC with dram.model=perfect over IPC with the
                   preset's DRAM > 1.20.
Also printed: the IPC of every variant normalised to GTO (the preset).
Usage: classify.py OUT  (writes Markdown to stdout)
"""
import json
import os
import sys

APKI_MIN = 10.0
MEM_SPEEDUP_MIN = 1.20


def stat(job, key):
    tot = job["stats"]["total"] if "stats" in job else job["total"]  # full or slimmed job JSON
    v = tot.get(key, 0)
    return v["total"] if isinstance(v, dict) else v


def main():
    out = sys.argv[1]
    sweep = json.load(open(os.path.join(out, "sweep.json")))
    res = {}
    for j in sweep["jobs"]:
        p = os.path.join(out, "jobs", j["id"] + ".json")
        if not os.path.exists(p):
            continue
        d = json.load(open(p))
        if not d.get("complete", True):
            continue
        res[(j["workload"], j["variant"])] = d
    wls = sorted({w for (w, _) in res})
    variants = ["lrr", "two_level", "l1d_48k", "l1d_perfect", "dram_perfect"]
    print("| workload | L1D APKI (LRR) | cache-sensitive | perfect-DRAM speed-up | memory-sensitive | "
          + " | ".join(v + " IPC / gto" for v in variants) + " |")
    print("|:--|--:|:-:|--:|:-:|" + "--:|" * len(variants))
    classes = {}
    for w in wls:
        g = res.get((w, "gto"))
        lrr = res.get((w, "lrr"))
        if not g or not lrr:
            print(f"| {w} | missing |  |  |  |" + " |" * len(variants))
            continue
        acc = stat(lrr, "l1d.loads") + stat(lrr, "l1d.stores") + stat(lrr, "l1d.atomics")
        apki = 1000.0 * acc / lrr["timing"]["thread_insts"]
        cs = apki > APKI_MIN
        dp = res.get((w, "dram_perfect"))
        msp = dp["timing"]["ipc"] / g["timing"]["ipc"] if dp else float("nan")
        ms = msp > MEM_SPEEDUP_MIN
        classes[w] = (cs, ms)
        cells = []
        for v in variants:
            r = res.get((w, v))
            cells.append(f"{r['timing']['ipc'] / g['timing']['ipc']:.3f}" if r else "missing")
        print(f"| {w} | {apki:.1f} | {'yes' if cs else 'no'} | {msp:.3f} | {'yes' if ms else 'no'} | "
              + " | ".join(cells) + " |")
    print()
    n_cs = sum(1 for c in classes.values() if c[0])
    n_ms = sum(1 for c in classes.values() if c[1])
    print(f"{len(classes)} workloads classified: {n_cs} cache-sensitive (APKI > {APKI_MIN:g}), "
          f"{n_ms} memory-sensitive (perfect-DRAM speed-up > {MEM_SPEEDUP_MIN:.2f}).")
    print()
    print("Flags for workloads/<name>/host.c (`gpusim list` tags):")
    print()
    for w, (cs, ms) in sorted(classes.items()):
        f = [x for x, on in (("WL_CACHE_SENS", cs), ("WL_MEM_SENS", ms)) if on]
        print(f"    {w}: {' | '.join(f) if f else '-'}")


if __name__ == "__main__":
    main()
