"""Summary of bench/admm_path.yaml's run: each ADMM method on its lambda path (<method>) against the same
method with every lambda fitted alone (<method>-alone), split by split.
Usage: admm_path_summary.py RESULTS_CSV
"""
import csv
import statistics
import sys
from collections import defaultdict


def main(path):
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))
    by_key = {(r["dataset"], r["rep"], r["method"]): r for r in rows}
    methods = sorted({r["method"] for r in rows if r["method"].startswith("ADMM") and not r["method"].endswith("-alone")})
    print("method     splits  task s (path / alone)  ratio  same lambda  F path / alone at the same lambda"
          "          accuracy (path / alone)  statuses path | alone")
    for method in methods:
        seconds = defaultdict(float)
        ratios, accuracy, statuses, same = [], defaultdict(list), defaultdict(lambda: defaultdict(int)), 0
        splits = 0
        for (dataset, rep, label), row in by_key.items():
            if label != method or (dataset, rep, method + "-alone") not in by_key:
                continue
            alone = by_key[(dataset, rep, method + "-alone")]
            splits += 1
            for name, r in (("path", row), ("alone", alone)):
                seconds[name] += float(r["task_time_s"])
                accuracy[name].append(float(r["accuracy"]))
                statuses[name][r["status"]] += 1
            if row["lambda"] == alone["lambda"]:
                same += 1
                ratios.append(float(row["objective"]) / float(alone["objective"]))
        ratio_text = (f"median {statistics.median(ratios):.4f}, min {min(ratios):.4f}, max {max(ratios):.4f}"
                      if ratios else "-")
        status_text = " | ".join(", ".join(f"{k} {v}" for k, v in sorted(statuses[n].items())) for n in ("path", "alone"))
        print(f"{method:<10} {splits:>6}  {seconds['path']:8.2f} / {seconds['alone']:8.2f}  "
              f"{seconds['path'] / seconds['alone']:5.2f}  {same:>4} of {splits:<3}  {ratio_text:<40}  "
              f"{statistics.mean(accuracy['path']):.4f} / {statistics.mean(accuracy['alone']):.4f}  {status_text}")
    references = sorted({r["method"] for r in rows if not r["method"].startswith("ADMM")})
    for method in references:
        total = sum(float(r["task_time_s"]) for r in rows if r["method"] == method)
        print(f"{method}: task seconds {total:.2f} in all")


if __name__ == "__main__":
    main(sys.argv[1])
