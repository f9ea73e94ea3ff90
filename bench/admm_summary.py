"""The goals of ADMM's benchmark (bench/run_admm.sh) from its rows: per-row table, then each goal with
its number; with --markdown docs/benchmarks.md's table instead. Usage: admm_summary.py [--markdown] bench/admm_results.csv"""
import csv
import statistics
import sys

NONCONVEX = ("ADMM-LSP", "ADMM-SCAD", "ADMM-MCP", "ADMM-Capped")


def is_uci(row):
    return row["data"].endswith("(raw)") or row["data"].endswith("(std)")


def main(path):
    rows = list(csv.DictReader(open(path)))
    print(f"{'data':<38} {'method':<20} {'status':<16} {'iters':>6} {'ADMM_s':>8} {'ref':<16} {'ref_s':>8} "
          f"{'F/F_ref-1':>10} {'time ratio':>10}")
    for r in rows:
        print(f"{r['data'][:38]:<38} {r['method']:<20} {r['status']:<16} {r['iterations']:>6} {float(r['seconds']):>8.3f} "
              f"{r['reference']:<16} {float(r['reference_seconds']):>8.3f} {float(r['objective_excess']):>10.2e} "
              f"{float(r['time_ratio']):>10.2f}")
    print()
    l1 = [r for r in rows if r["method"] == "ADMM-L1"]
    within = sum(float(r["objective_excess"]) <= 1e-4 for r in l1)
    l1_iterations = [int(r["iterations"]) for r in l1]
    print(f"ADMM-L1: {within} of {len(l1)} fits within 1e-4 of the LP optimum (goal: all); iterations median "
          f"{statistics.median(l1_iterations):g} (goal <= 200), max {max(l1_iterations)} (goal <= 1000); "
          f"statuses {sorted(set(r['status'] for r in l1))}")
    nonconvex = [r for r in rows if r["method"] in NONCONVEX]
    iterations = [int(r["iterations"]) for r in nonconvex]
    close = sum(float(r["objective_excess"]) <= 0.01 for r in nonconvex)
    converged = sum(r["status"] == "converged" for r in nonconvex)
    print(f"ADMM LSP/SCAD/MCP/capped: iterations median {statistics.median(iterations):g} (goal <= 100); F within 1% "
          f"of DCA's or below in {close} of {len(nonconvex)} fits = {100 * close / len(nonconvex):.0f}% (goal >= 90%); "
          f"{converged} converged, {sum(r['status'] == 'feasible' for r in nonconvex)} at the iteration limit")
    for method in NONCONVEX:
        mine = [r for r in nonconvex if r["method"] == method]
        below = sum(float(r["objective_excess"]) < -0.01 for r in mine)
        print(f"  {method}: median {statistics.median(int(r['iterations']) for r in mine):g} sweeps, "
              f"{sum(float(r['objective_excess']) <= 0.01 for r in mine)} of {len(mine)} within 1% or below "
              f"({below} more than 1% below DCA)")
    uci = [r for r in nonconvex + l1 if is_uci(r)]
    ratios = [float(r["time_ratio"]) for r in uci]
    print(f"time on the UCI sets (reference: DCA's or the LP's time): ADMM/reference median {statistics.median(ratios):.2f}, "
          f"within 2x in {sum(x <= 2 for x in ratios)} of {len(ratios)} fits (goal: within 2x)")
    published = [r for r in rows if r["method"] == "ADMM-SCAD-published"]
    if published:
        excess = [float(r["objective_excess"]) for r in published]
        print(f"ADMM-SCAD-published (rho fixed as published, 1000 sweeps): F/F_DCA - 1 from {min(excess):.2g} to "
              f"{max(excess):.2g}, statuses {sorted(set(r['status'] for r in published))}")


def cell(row):
    """sweeps (* at the limit), F against the reference in percent (nonconvex), time ratio."""
    sweeps = row["iterations"] + ("*" if row["status"] == "feasible" else "")
    excess = float(row["objective_excess"])
    middle = "" if row["method"] == "ADMM-L1" else f", {100 * excess:+.1f}%"
    return f"{sweeps}{middle}, {float(row['time_ratio']):.2g}x"


def markdown(path):
    rows = list(csv.DictReader(open(path)))
    methods = ("ADMM-L1",) + NONCONVEX
    print("| data (n x d) | l1 vs LP | LSP vs DCA | SCAD | MCP | capped-l1 |")
    print("|---|---|---|---|---|---|")
    for data in dict.fromkeys(r["data"] for r in rows):
        mine = {r["method"]: r for r in rows if r["data"] == data}
        first = next(iter(mine.values()))
        cells = [cell(mine[m]) if m in mine else "not run" for m in methods]
        print(f"| {data} ({first['n']} x {first['d']}) | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if sys.argv[1] == "--markdown":
        markdown(sys.argv[2])
    else:
        main(sys.argv[1])
