"""Summarizes bench/mip_results.csv (bench/run_mip.sh) or bench/psi_results.csv (bench/run_psi.sh, whose
"binary" column is the search): per binary, method and size, how many fits proved
a 1e-4 gap within the limit, the median time to that proof (fits that did not prove it count as the
limit), the median nodes, and the largest gap left. Run with /usr/bin/python3 (no pandas needed)."""
import collections
import csv
import statistics
import sys


def main(path, limit):
    groups = collections.OrderedDict()
    for row in csv.DictReader(open(path)):
        key = (row["method"], int(row["n"]), int(row["case"]))
        groups.setdefault(key, collections.defaultdict(list))[row["binary"]].append(row)
    binaries = sorted({b for fits in groups.values() for b in fits}, key=lambda b: (b != "before", b))
    header = ["method", "n", "features"]
    for b in binaries:
        header += [f"{b}: proven", f"{b}: median s", f"{b}: median nodes", f"{b}: largest gap"]
    print(f"psi MIPs, C = 1, limit {limit} s per fit; proven = status optimal at relative gap 1e-4")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for (method, n, case), fits in groups.items():
        cells = [method, str(n), {1: "2", 2: "4", 3: "8", 4: "14"}.get(case, f"case {case}")]
        for b in binaries:
            rows = fits.get(b, [])
            if not rows:
                cells += ["-"] * 4
                continue
            proven = [r for r in rows if r["status"] == "optimal"]
            times = [float(r["seconds"]) if r["status"] == "optimal" else float(limit) for r in rows]
            gaps = [float(r["relative_gap"]) for r in rows if r["relative_gap"] not in ("", "nan")]
            cells += [f"{len(proven)}/{len(rows)}",
                      f"{statistics.median(times):.1f}" if times else "-",
                      f"{statistics.median(int(float(r['nodes'])) for r in rows):.0f}" if rows else "-",
                      f"{max(gaps):.3f}" if gaps else "-"]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "?")
