# Sourced by the benchmarks that time `sparsesvm fit` with /usr/bin/time -f "cpu %U %S %M" into one log
# beside the fit's own report (run_crossover.sh, run_wide_rule.sh). `summarize_fit LOG NAME LABEL` prints
# one line: name, label, CPU seconds (user + sys), peak resident MB, status ("no answer" without one),
# objective, simplex iterations.
summarize_fit() {
  awk -v name="$2" -v label="$3" '
    $1 == "status" { status = $2 }
    $1 == "objective" { objective = $2 }
    $1 == "iterations" { iterations = $4 }
    $1 == "cpu" { cpu = $2 + $3; mb = $4 / 1024 }
    END { printf "%-20s %-8s %7.2f s %5.0f MB  %-10s %-20s %s\n", name, label, cpu, mb,
          (status == "" ? "no answer" : status), objective, iterations }' "$1"
}
