#!/usr/bin/python3
"""Writes docs/evidence.md, our reference results against the papers' published numbers, from the committed
results/reference/*/paper_comparison.csv (collect writes them from each config's tables.published) and the
checked explanations in docs/evidence_notes.csv, and the summary of it between the evidence markers of
docs/papers.md. Nothing in either is typed by hand but those explanations.

Usage: scripts/evidence.py          rewrite docs/evidence.md and docs/papers.md's block
       scripts/evidence.py --check  exit 1 when either differs from what the references give
       scripts/evidence.py --run-commands BINARY
                                    run every command an explanation quotes (`sparsesvm ...` with BINARY,
                                    `scripts/...` with Debian's python3) from the repository's root, a run's
                                    output in a scratch folder; exit 1 when one fails
"""
import csv
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "docs" / "evidence.md"
SUMMARY_PAGE = ROOT / "docs" / "papers.md"  # the page with the summary block
BEGIN = "<!-- evidence summary: written by scripts/evidence.py -->"
END = "<!-- end of evidence summary -->"
NOTES = ROOT / "docs" / "evidence_notes.csv"
VERDICTS = ["within_1se", "within_2se", "off", "no_result", "not_run"]


def read_csv(path):
    with open(path, newline="") as stream:
        return list(csv.DictReader(stream))


def cell_key(reference, row):
    return (reference, row["table"], row["row"], row["column"])


def cell(text):
    """Text for a Markdown table cell: a '|' of the text (the FSV norms' ||.||) would end the cell."""
    return text.replace("|", "\\|")


def number(text, digits=4):
    if text in ("", None):
        return ""
    value = float(text)
    if value == 0 or not math.isfinite(value):
        return text
    return f"{value:.{digits}g}"


def explanations():
    """(reference, table, row, column) -> the sentence someone checked; '*' in table, row or column stands
    for any (a row of one column, a column of a table or of every table, a whole table or reference)."""
    notes = {}
    if NOTES.exists():
        for row in read_csv(NOTES):
            notes[(row["reference"], row["table"], row["row"], row["column"])] = row["explanation"]
    return notes


def explanation_of(notes, key):
    reference, table, row, column = key
    for candidate in (key, (reference, table, row, "*"), (reference, table, "*", column), (reference, "*", "*", column),
                      (reference, table, "*", "*"), (reference, "*", "*", "*")):
        if candidate in notes:
            return notes[candidate]
    return ""


def not_run_reason(note):
    """Why a published cell was not run, as the evidence page says it: cells an override or the config's
    tables.published_left_out leave out are grouped; another note (data not offline) is kept as written."""
    if note.startswith("not run: this run has no method labelled") or not note.startswith("not run:"):
        return "not run: the reference run's overrides leave the method out (see its overrides.txt)"
    if note.startswith("not run: tables.published_left_out"):
        return "not run: tables.published_left_out leaves the data set out (the reference run's overrides.txt or its config)"
    return note


def section(reference, rows, notes, manifest):
    counts = Counter(row["verdict"] for row in rows)
    lines = [f"## {reference}", ""]
    commit = manifest.get("git_commit", "?")
    config = manifest.get("config_file", "?")
    lines.append(f"`{config}`, reference run at commit `{commit}` (`results/reference/{reference}/`). "
                 + ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v]) + f" of {len(rows)} published cells.")
    lines.append("")
    compared = [row for row in rows if row["verdict"] != "not_run"]
    if compared:
        lines.append("| table | row | column | paper | ours | n (failed) | z | verdict | Holm |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        for row in compared:
            # The paper's standard error only where the paper prints a spread; else it is our estimate.
            printed = row.get("paper_se_source", "paper") == "paper" and row["paper_spread_kind"] != "none"
            paper = number(row["paper"]) + (f" ± {number(row['paper_se'], 2)}" if printed and row["paper_se"] else "")
            ours = number(row["ours"]) + (f" ± {number(row['ours_se'], 2)}" if row["ours_se"] else "")
            if row.get("beats_baseline") == "no":
                ours += f" (not above the majority class, {number(row['baseline'])})"
            failed = f" ({row['failed']})" if row["failed"] not in ("", "0") else ""
            lines.append(f"| {cell(row['table'])} | {cell(row['row'])} | {cell(row['column'])} | {paper} | {ours} | "
                         f"{row['n']}{failed} | {number(row['z'], 3)} | {row['verdict']} | {row.get('holm_verdict', '')} |")
        lines.append("")
        rules = sorted({row.get("se_rule", "") for row in compared} - {""})
        lines.append("(± the standard errors of the two means, the paper's only where it prints a spread; z = (ours - "
                     "paper) / their root sum of squares, where a paper without a spread gets our estimate"
                     + (f"; standard errors by {', '.join(rules)}" if rules else
                        "; this reference predates the se_rule, Holm and baseline columns") + ". "
                     "Holm: off where the Holm-adjusted p over the table's cells is below 0.05.)")
        lines.append("")
    explained = []
    for row in rows:
        if row["verdict"] in ("off", "no_result"):
            sentence = explanation_of(notes, cell_key(reference, row))
            label = f"{row['table']}, {row['row']}, {row['column']}"
            explained.append(f"- {label}: {row['verdict']}. " + (sentence if sentence else "**Not explained yet.**"))
    if explained:
        lines.append("Cells off by more than two standard errors or without a result:")
        lines.append("")
        lines.extend(explained)
        lines.append("")
    not_run = [row for row in rows if row["verdict"] == "not_run"]
    if not_run:
        reasons = Counter(not_run_reason(row["note"]) for row in not_run)
        lines.append("Not run here:")
        lines.append("")
        for reason, count in reasons.items():
            lines.append(f"- {count} cells, {reason[len('not run: '):]}")
        lines.append("")
    return lines


def manifest_fields(path):
    fields = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if ":" in line and not line.startswith(" "):
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    return fields


def summary(comparisons, notes):
    """docs/papers.md's block: per reference, how many published cells fall where, and how many of those off
    are explained."""
    lines = [BEGIN, "", "| reference | paper cells | within 1 SE | within 2 SE | off (explained) | no result | not run |",
             "|---|---|---|---|---|---|---|"]
    for reference, rows in comparisons:
        counts = Counter(row["verdict"] for row in rows)
        explained = sum(1 for row in rows if row["verdict"] in ("off", "no_result")
                        and explanation_of(notes, cell_key(reference, row)))
        lines.append(f"| [{reference}](evidence.md#{reference}) | {len(rows)} | {counts['within_1se']} | "
                     f"{counts['within_2se']} | {counts['off']} ({explained}) | {counts['no_result']} | {counts['not_run']} |")
    lines.extend(["", END])
    return "\n".join(lines)


def page_with(block):
    text = SUMMARY_PAGE.read_text()
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{SUMMARY_PAGE}: the evidence markers are missing ({BEGIN} ... {END})")
    before, _, rest = text.partition(BEGIN)
    _, _, after = rest.partition(END)
    return before + block + after


def comparisons():
    return [(path.parent.name, read_csv(path)) for path in sorted((ROOT / "results" / "reference").glob("*/paper_comparison.csv"))]


def render():
    notes = explanations()
    lines = ["# Evidence against the papers", "",
             "Generated by `scripts/evidence.py` from `results/reference/*/paper_comparison.csv`; do not edit by hand.",
             "Each published cell of a reproduced table (the CSVs beside the configs, `tables.published`) against "
             "the committed reference run: our mean and standard error over its replications or folds, the "
             "paper's standard error (printed, from its standard deviation over its replications, or, where it "
             "prints none, estimated by ours for its number of replications), and a verdict. Explanations of "
             "the cells that are off come from `docs/evidence_notes.csv`.", ""]
    for reference, rows in comparisons():
        manifest = manifest_fields(ROOT / "results" / "reference" / reference / "manifest.yaml")
        lines.extend(section(reference, rows, notes, manifest))
    return "\n".join(lines).rstrip() + "\n"


def quoted_commands():
    """The commands the explanations quote in backticks: `sparsesvm ...` or `scripts/...`."""
    commands = []
    for row in read_csv(NOTES):
        for quoted in re.findall(r"`([^`]+)`", row["explanation"]):
            if quoted.startswith(("sparsesvm ", "scripts/")):
                commands.append(quoted)
    return commands


def run_commands(binary):
    commands = quoted_commands()
    if not commands:
        print(f"{NOTES}: no explanation quotes a command", file=sys.stderr)
        return 1
    failed = 0
    for command in commands:
        words = shlex.split(command)
        with tempfile.TemporaryDirectory() as scratch:
            if words[0] == "sparsesvm":
                words[0] = binary
                if words[1] == "run" and "--out" not in words:
                    words += ["--out", os.path.join(scratch, "run"), "-q", "--no-figures"]
            else:
                words = ["/usr/bin/python3", *words]
            result = subprocess.run(words, cwd=ROOT, env={**os.environ, "SPARSESVM": binary}, capture_output=True,
                                    text=True)
        print(f"{'ok    ' if result.returncode == 0 else 'FAILED'} {command}")
        if result.returncode != 0:
            failed += 1
            print(result.stdout + result.stderr, file=sys.stderr)
    print(f"{len(commands) - failed} of {len(commands)} commands quoted in {NOTES.name} ran")
    return 1 if failed else 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--run-commands":
        return run_commands(sys.argv[2])
    text = render()
    page = page_with(summary(comparisons(), explanations()))
    if sys.argv[1:] == ["--check"]:
        stale = [str(path) for path, content in ((OUTPUT, text), (SUMMARY_PAGE, page))
                 if not path.exists() or path.read_text() != content]
        if stale:
            print(f"{', '.join(stale)}: differ from what results/reference/*/paper_comparison.csv give; "
                  "run scripts/evidence.py and commit", file=sys.stderr)
            return 1
        print("docs/evidence.md and docs/papers.md's evidence summary match the references")
        return 0
    if sys.argv[1:]:
        print(__doc__, file=sys.stderr)
        return 1
    OUTPUT.parent.mkdir(exist_ok=True)
    OUTPUT.write_text(text)
    SUMMARY_PAGE.write_text(page)
    print(f"wrote {OUTPUT} and the evidence summary in {SUMMARY_PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
