#!/usr/bin/env python3
"""Tables of the dram-icl experiment (issue 17) from run.sh's output.
Usage: report.py OUT  (Markdown to stdout)

IPC is thread instructions per core cycle (the run's timing.ipc); the mean
per class is the harmonic mean of IPC normalised to FR-FCFS, as seed 003
reports it. Memory latency is the average global-load latency in the LD/ST
unit (timing.avg_global_load_latency, core cycles)."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from classify import load_jobs, stat  # noqa: E402

POL = ["mshr_m", "mshr_s", "mshr_sa"]
NAMES = {"frfcfs": "FR-FCFS", "mshr_m": "MSHR-M", "mshr_s": "MSHR-S", "mshr_sa": "MSHR-S+A"}


def hmean(xs):
    xs = [x for x in xs if x > 0]
    return len(xs) / sum(1.0 / x for x in xs) if xs else float("nan")


def main():
    out = sys.argv[1]
    cl = json.load(open(os.path.join(out, "classes.json")))
    res = load_jobs(os.path.join(out, "policies"))
    classes = ["HIL", "LIL", "insensitive"]
    print("## IPC normalised to FR-FCFS, harmonic mean per class\n")
    print("| class | workloads | " + " | ".join(NAMES[p] for p in POL) + " |")
    print("|:--|--:|" + "--:|" * len(POL))
    allr = {p: [] for p in POL}
    for c in classes + ["all"]:
        ws = [w for w in cl if (c == "all" or cl[w]["class"] == c) and (w, "frfcfs") in res]
        cells = []
        for p in POL:
            r = [res[(w, p)]["timing"]["ipc"] / res[(w, "frfcfs")]["timing"]["ipc"] for w in ws if (w, p) in res]
            cells.append(f"{hmean(r):.3f}" if r else "-")
        print(f"| {c} | {len(ws)} | " + " | ".join(cells) + " |")
    print("\n## Per workload\n")
    print("IPC ratio to FR-FCFS; memory latency = average global-load latency (core cycles), FR-FCFS and "
          "MSHR-S+A; reorders = reads MSHR-S+A scheduled ahead of FR-FCFS's choice; dummies = MIB dummy "
          "messages sent (MSHR-S+A).\n")
    print("| workload | class | merged share | IPC FR-FCFS | " + " | ".join(NAMES[p] for p in POL)
          + " | mem. latency FR-FCFS / S+A | row hit % FR-FCFS / S+A | reorders | dummies (late) |")
    print("|:--|:--|--:|--:|" + "--:|" * len(POL) + "--:|--:|--:|--:|")
    worst = (1e9, "")
    for w in sorted(cl, key=lambda x: (classes.index(cl[x]["class"]), x)):
        b = res.get((w, "frfcfs"))
        if not b:
            continue
        cells = []
        for p in POL:
            r = res.get((w, p))
            if r:
                x = r["timing"]["ipc"] / b["timing"]["ipc"]
                worst = min(worst, (x, f"{w} {NAMES[p]}"))
                cells.append(f"{x:.3f}")
            else:
                cells.append("-")
        sa = res.get((w, "mshr_sa"))
        lat = f"{b['timing']['avg_global_load_latency']:.0f} / {sa['timing']['avg_global_load_latency']:.0f}" if sa else "-"
        rh = (f"{100 * b['timing']['dram_row_hit_rate']:.1f} / {100 * sa['timing']['dram_row_hit_rate']:.1f}"
              if sa else "-")
        ro = f"{stat(sa, 'dram.reorders'):,}" if sa else "-"
        du = f"{stat(sa, 'mempart.icl_dummies'):,} ({stat(sa, 'dram.icl_late_dummies'):,})" if sa else "-"
        print(f"| {w} | {cl[w]['class']} | {100 * cl[w]['merged_share']:.1f} % | {b['timing']['ipc']:.2f} | "
              + " | ".join(cells) + f" | {lat} | {rh} | {ro} | {du} |")
    print(f"\nLargest slowdown: {worst[1]} at {worst[0]:.3f}.\n")
    sp = os.path.join(out, "sensitivity")
    if os.path.exists(os.path.join(sp, "sweep.json")):
        sres = load_jobs(sp)
        hil = sorted(w for w in cl if cl[w]["class"] == "HIL")
        print("## Sensitivity on the HIL set (harmonic mean of IPC normalised to FR-FCFS at the same point)\n")
        print("| point | " + " | ".join(NAMES[p] for p in ("mshr_m", "mshr_sa")) + " | FR-FCFS IPC vs the preset's |")
        print("|:--|--:|--:|--:|")
        for tag, label in (("_l0", "L2->DRAM latency 0"), ("", "L2->DRAM latency 20 (preset)"),
                           ("_l50", "L2->DRAM latency 50"), ("_l100", "L2->DRAM latency 100"),
                           ("_q16", "read queue 16"), ("_q32", "read queue 32"), ("", "read queue 64 (preset)"),
                           ("_q128", "read queue 128")):
            cells = []
            for p in ("mshr_m", "mshr_sa"):
                r = [sres[(w, p + tag)]["timing"]["ipc"] / sres[(w, "frfcfs" + tag)]["timing"]["ipc"]
                     for w in hil if (w, p + tag) in sres and (w, "frfcfs" + tag) in sres]
                cells.append(f"{hmean(r):.3f}" if r else "-")
            r = [sres[(w, "frfcfs" + tag)]["timing"]["ipc"] / sres[(w, "frfcfs")]["timing"]["ipc"]
                 for w in hil if (w, "frfcfs" + tag) in sres and (w, "frfcfs") in sres]
            print(f"| {label} | " + " | ".join(cells) + f" | {hmean(r):.3f} |")


if __name__ == "__main__":
    main()
