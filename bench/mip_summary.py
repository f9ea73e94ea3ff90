"""Summarizes bench/mip_results.csv (bench/run_mip.sh), bench/psi_results.csv (bench/run_psi.sh, whose
"binary" column is the search) or bench/capped_global_results.csv (bench/run_capped_global.sh, whose rows
name a data set and lambda instead of n and a psi case): per binary, method and instance shape, how many
fits proved a 1e-4 gap within the limit, the median time to that proof (fits that did not prove it count
as the limit), the median nodes, and the largest gap left. A fit is proven where its "proven" column is 1
or, without that column, where its status is optimal. Run with /usr/bin/python3 (no pandas needed)."""
import collections
import csv
import statistics
import sys

PSI_FEATURES = {"1": "2", "2": "4", "3": "8", "4": "14"}


def main(path, limit):
    rows = list(csv.DictReader(open(path)))
    capped = bool(rows) and "dataset" in rows[0]
    keys = ("method", "dataset", "lambda") if capped else ("method", "n", "case")
    groups = collections.OrderedDict()
    for row in rows:
        groups.setdefault(tuple(row[k] for k in keys), collections.defaultdict(list))[row["binary"]].append(row)
    binaries = sorted({b for fits in groups.values() for b in fits}, key=lambda b: (b != "before", b))
    header = ["method", "data set", "lambda"] if capped else ["method", "n", "features"]
    for b in binaries:
        header += [f"{b}: proven", f"{b}: median s", f"{b}: median nodes", f"{b}: largest gap"]
    if capped:
        print(f"capped-l1 global MILPs, limit {limit} s per fit; proven = the MILP over the certificate's box "
              "closed at relative gap 1e-4")
    else:
        print(f"psi MIPs, C = 1, limit {limit} s per fit; proven = status optimal at relative gap 1e-4")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for key, fits in groups.items():
        cells = list(key) if capped else [key[0], key[1], PSI_FEATURES.get(key[2], f"case {key[2]}")]
        for b in binaries:
            group = fits.get(b, [])
            if not group:
                cells += ["-"] * 4
                continue
            proven = [is_proven(r) for r in group]
            times = [float(r["seconds"]) if p else float(limit) for r, p in zip(group, proven)]
            gaps = [float(r["relative_gap"]) for r in group if r["relative_gap"] not in ("", "nan")]
            cells += [f"{sum(proven)}/{len(group)}",
                      f"{statistics.median(times):.1f}",
                      f"{statistics.median(int(float(r['nodes'])) for r in group):.0f}",
                      f"{max(gaps):.3f}" if gaps else "-"]
        print("| " + " | ".join(cells) + " |")


def is_proven(row):
    return row["proven"] == "1" if "proven" in row else row["status"] == "optimal"


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "?")
