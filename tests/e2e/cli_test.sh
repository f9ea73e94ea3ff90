#!/usr/bin/env bash
# End-to-end checks of the sparsesvm command: describe-data on every exported real set and every
# generator, and clear one-line errors with a non-zero exit on bad input.
# Usage: cli_test.sh PATH/TO/sparsesvm REPO_ROOT
set -uo pipefail
bin=$1
root=$2
failures=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect_ok() {  # expect_ok DESCRIPTION PATTERN COMMAND...
  local description=$1 pattern=$2
  shift 2
  output=$("$@" 2>&1)
  local status=$?
  if ((status != 0)); then
    echo "FAIL: $description: exit $status -- $output"; failures=$((failures + 1)); return
  fi
  grep -q -- "$pattern" <<<"$output" || { echo "FAIL: $description: no '$pattern' in output"; failures=$((failures + 1)); }
}

expect_error() {  # expect_error DESCRIPTION PATTERN COMMAND...
  local description=$1 pattern=$2
  shift 2
  output=$("$@" 2>&1)
  local status=$?
  if ((status == 0)); then echo "FAIL: $description: exit 0"; failures=$((failures + 1)); return; fi
  grep -q -- "$pattern" <<<"$output" || { echo "FAIL: $description: no '$pattern' in: $output"; failures=$((failures + 1)); }
}

expect_ok "version" "clp 1." "$bin" --version
expect_ok "help lists describe-data" "describe-data" "$bin" --help
expect_ok "help names the exit codes, status's 4 too" "4 \`status\`: tasks are missing or failed" "$bin" --help
expect_ok "sonar" "examples  208 (+1: 111, -1: 97)" "$bin" describe-data "$root/datasets/sonar.csv"
expect_ok "ionosphere" "examples  351 (+1: 225, -1: 126)" "$bin" describe-data "$root/datasets/ionosphere.csv"
expect_ok "pima" "examples  768 (+1: 268, -1: 500)" "$bin" describe-data "$root/datasets/pima.csv"
expect_ok "wdbc" "examples  569 (+1: 212, -1: 357)" "$bin" describe-data "$root/datasets/wdbc.csv"
expect_ok "heart_scale" "examples  270 (+1: 120, -1: 150)" "$bin" describe-data "$root/datasets/heart_scale.libsvm"
for spec in dca_gaussians:noise_dims=100 psi_unit_disk:flip_count=2 psi_quadratic:case=4 rw_relevant:d_rel=5; do
  expect_ok "generator $spec" "generator ${spec%%:*}" "$bin" describe-data --generator "$spec"
done

# Every method fits every exported real set (standardized, as the experiments do).
# Convex methods end optimal (a duality gap), the DCA and SLA methods converged (a majorant gap).
for set in sonar ionosphere pima wdbc; do
  for method in SVM OneNormSVM RLP SVM-inf SVM-1 SVM-2; do
    expect_ok "fit $method on $set" "status      optimal" "$bin" fit -m "$method" -t standardize "$root/datasets/$set.csv"
  done
  for method in ZeroNormSVM CapOneNormSVM RLSVM2 RLSVM1 RLSVM0 RLSVMC1 FSV; do
    expect_ok "fit $method on $set" "status      converged" "$bin" fit -m "$method" -t standardize "$root/datasets/$set.csv"
  done
done
expect_ok "fit prints a convex fit's certificate" "certificate duality_gap" "$bin" fit -m SVM-1 "$root/datasets/sonar.csv"
expect_ok "fit prints a certificate without a bound as none, not nan" "^certificate duality_gap none$" \
  "$bin" fit -m SVM-inf "$root/datasets/wdbc.csv" --lambda 0.5 --simplex_iteration_limit 5
expect_ok "fit prints a DCA fit's certificate" "certificate majorant_gap" "$bin" fit -m RLSVM0 "$root/datasets/sonar.csv"
printf '1,1e300,1\n3,4,-1\n5,6,1\n2,-1e300,-1\n' >"$tmp/extreme.csv"
expect_error "an LP Clp's numerics fail on names the data's range" \
  "clp: status 4 (secondary 8); the LP's nonzero coefficients range in magnitude from 1 to 1e+300: rescale the data" \
  "$bin" fit -m OneNormSVM "$tmp/extreme.csv"
expect_ok "fit says a solved_inaccurate fit's certificate does not certify it" \
  "^certificate duality_gap 1 (not certified: the message says which check failed)$" \
  "$bin" fit "$root/datasets/wdbc.csv" -m SVM-C --C 1e7 --qp_solver dual_cd
expect_ok "describe prints the parameter table" "surrogate_stop" "$bin" describe RLSVM0
expect_ok "fit takes a solver option" "status      converged" "$bin" fit -m FSV --start_radius 0 -t standardize "$root/datasets/sonar.csv"
expect_error "describe refuses an unknown method" "unknown method 'RLSVM9'" "$bin" describe RLSVM9
expect_error "fit refuses a parameter the method does not take" "method OneNormSVM: unknown parameter 'mu'" \
  "$bin" fit -m OneNormSVM --mu 0.5 "$root/datasets/sonar.csv"
expect_error "a repeated loader option is refused" "'label_column' is given twice" \
  "$bin" describe-data "$root/datasets/sonar.csv" -o label_column=-1 -o label_column=0
expect_error "a malformed shard is refused" "expected I/N with whole numbers" \
  "$bin" run "$root/configs/quickstart.yaml" --shard 1/4x --dry-run
expect_ok "--sweep makes labelled variants of the methods taking the parameter" \
  "methods: SVM, OneNormSVM, ZeroNormSVM_a2, ZeroNormSVM_a4, RLSVM1, RLSVM0_a2, RLSVM0_a4" \
  "$bin" run "$root/configs/quickstart.yaml" --sweep a=2,4 --dry-run --out "$tmp/sweep_a"
expect_ok "--sweep takes decimal values" "RLSVM1_mu0.5, RLSVM1_mu1, RLSVM0_mu0.5, RLSVM0_mu1" \
  "$bin" run "$root/configs/quickstart.yaml" --sweep mu=0.5,1 --dry-run --out "$tmp/sweep_mu"
expect_error "a key swept twice is refused" "a is swept twice" \
  "$bin" run "$root/configs/quickstart.yaml" --sweep a=2 --sweep a=4 --dry-run --out "$tmp/sweep_twice"
expect_error "a shard count past 10^5 is refused" "0 <= I < N <= 100000" \
  "$bin" run "$root/configs/quickstart.yaml" --shard 0/18446744073709551615 --dry-run
expect_error "a malformed sweep is refused" "expected NAME=V1,V2" \
  "$bin" run "$root/configs/quickstart.yaml" --sweep a --dry-run
expect_error "a sweep value out of range names the sweep" "sweep.a\[1\]: method ZeroNormSVM: " \
  "$bin" run "$root/configs/quickstart.yaml" --sweep a=2,-1 --dry-run
"$bin" run "$root/configs/quickstart.yaml" --no-such-flag >/dev/null 2>&1
status=$?
((status == 1)) || { echo "FAIL: an unknown flag exits $status, not 1"; failures=$((failures + 1)); }
expect_error "--weights onto a device is refused" "/dev/full: exists and is not a regular file" \
  "$bin" fit -m OneNormSVM "$root/datasets/sonar.csv" --weights /dev/full
touch "$tmp/target.csv" && ln -s "$tmp/target.csv" "$tmp/link.csv"
"$bin" fit -m OneNormSVM "$root/datasets/sonar.csv" --out "$tmp/link.csv" >/dev/null
[[ -L "$tmp/link.csv" && -s "$tmp/target.csv" ]] || { echo "FAIL: --out onto a symlink replaced the link"; failures=$((failures + 1)); }
expect_ok "fit writes a result row" "converged" "$bin" fit -m RLSVM0 --lambda 0.5 -t standardize \
  "$root/datasets/sonar.csv" --out "$tmp/row.csv" --weights "$tmp/weights.csv"
head -1 "$tmp/row.csv" | grep -q "^method,dataset,lambda,mu,a,tolerance,objective_tolerance,max_iterations,lp_form,simplex_iteration_limit,surrogate_stop,stationarity_tolerance,qp_solver,status,objective,certificate,certificate_kind,iterations,inner_iterations,nnz,train_accuracy,time_s,stop_reason" \
  || { echo "FAIL: result row header: $(head -1 "$tmp/row.csv")"; failures=$((failures + 1)); }
grep -q "^RLSVM0,sonar,0.5,1,4,0.001,1e-09,200,by_size,0,false,1e-04,by_shape,converged,[0-9.e+-]*,[0-9.e+-]*,majorant_gap," "$tmp/row.csv" || { echo "FAIL: result row: $(tail -1 "$tmp/row.csv")"; failures=$((failures + 1)); }
[[ $(wc -l <"$tmp/weights.csv") -eq 62 ]] || { echo "FAIL: weights file has $(wc -l <"$tmp/weights.csv") lines, want 62"; failures=$((failures + 1)); }
# A bare file name (no directory part) in the working directory.
(cd "$tmp" && "$bin" fit -m OneNormSVM "$root/datasets/sonar.csv" --out bare.csv >/dev/null 2>&1) &&
  [[ -s "$tmp/bare.csv" ]] || { echo "FAIL: fit --out with a bare file name"; failures=$((failures + 1)); }
# A misspelled flag or method gets the closest known one.
expect_error "misspelled flag" "unknown flag --lamda: did you mean --lambda?" "$bin" fit "$root/datasets/sonar.csv" -m SVM --lamda 1
expect_error "misspelled run flag" "did you mean --dry-run?" "$bin" run --dryrun "$root/configs/quickstart.yaml"
expect_error "misspelled method" "unknown method 'RLSVMO' (did you mean 'RLSVM0'?" "$bin" fit "$root/datasets/sonar.csv" -m RLSVMO

expect_error "negative --max-features" "Value -1 not in range 0 to 1000000" "$bin" describe-data "$root/datasets/sonar.csv" --max-features -1
expect_ok "integer parameters say INT in fit --help" "--max_iterations INT" "$bin" fit --help
# A MIP stopped before any bound was proven says so (it printed "inf above the bound").
expect_ok "a limit with no bound" "simplex-iteration limit (5) with no bound proven" \
  "$bin" fit "$root/datasets/german.csv" -m RLSVMC1-global --lambda 1 --lp_iteration_limit 5
# Choices and switches are named, never numeric codes: --help lists them, fit takes the names (and the
# old numbers), and a value that is neither is refused naming the choices.
help=$("$bin" fit --help)
for option in "--lp_form CHOICE" "--qp_solver CHOICE" "--factorization CHOICE" "--surrogate_stop BOOL" \
  "--adapt_rho BOOL" "--equilibrate BOOL" "--prox_public_code BOOL" "--rho2_per_n BOOL"; do
  grep -q -- "$option" <<<"$help" || { echo "FAIL: fit --help lacks '$option'"; failures=$((failures + 1)); }
done
if grep -E -- "--[a-z_0-9]+ INT .*(^|[ (])[0-2]: " <<<"$help"; then
  echo "FAIL: fit --help still describes a numeric code"; failures=$((failures + 1))
fi
expect_ok "fit takes a choice's name" "lp_form=generation" "$bin" fit -m OneNormSVM "$root/datasets/sonar.csv" --lp_form generation
expect_ok "fit takes a switch's true" "surrogate_stop=true" "$bin" fit -m FSV "$root/datasets/sonar.csv" --surrogate_stop true
expect_error "lp_form crossover is refused for an l_inf LP before any fold is fitted" \
  "error: method SVM-inf: lp_form crossover solves l1 LPs only, and SVM-inf.s has an l_inf norm; use lp_form full or generation" \
  "$bin" fit -m SVM-inf "$root/datasets/sonar.csv" --lp_form crossover --grid lambda=0.1,1 --cv 3
expect_error "a choice's number out of range" "lp_form must be one of by_size, full, generation, crossover (or 0-3), found '2.5'" \
  "$bin" fit -m OneNormSVM "$root/datasets/sonar.csv" --lp_form 2.5

# In a config too: a choice by name or number plans the same tasks (task ids hash the value, not its
# spelling), and a bad value is refused naming the key and the choices.
printf 'name: choice\nseed: 1\ndatasets:\n  - {name: g, generator: dca_gaussians, params: {n: 30}}\nmethods:\n  - {name: OneNormSVM, lp_form: 2}\nprotocol:\n  outer: {type: holdout, repetitions: 2}\n  inner: {type: none}\n' >"$tmp/choice.yaml"
"$bin" run "$tmp/choice.yaml" -q --out "$tmp/choice" || { echo "FAIL: run with lp_form: 2"; failures=$((failures + 1)); }
sed -i 's/lp_form: 2}/lp_form: generation}/' "$tmp/choice.yaml"
expect_ok "lp_form by name reuses the tasks of lp_form 2" "0 tasks run, 2 already done" "$bin" run "$tmp/choice.yaml" --out "$tmp/choice"
grep -q "lp_form=generation" "$tmp/choice/results.csv" || { echo "FAIL: rows do not name the choice"; failures=$((failures + 1)); }
sed -i 's/lp_form: generation}/lp_form: 2.5}/' "$tmp/choice.yaml"
expect_error "lp_form: 2.5 in a config" "methods\[0\].lp_form: lp_form must be one of by_size, full, generation" \
  "$bin" run "$tmp/choice.yaml" --dry-run --out "$tmp/choice2"

# slurm_array.sh --dry-run (no Slurm needed): says it submitted nothing; takes sbatch's --mem=2G spelling.
expect_ok "slurm_array.sh --dry-run" "dry run: would submit an array" env SPARSESVM="$bin" bash "$root/scripts/slurm_array.sh" \
  "$root/configs/quickstart.yaml" --dry-run --mem=2G --out "$tmp/slurm_dry"
grep -q -- "--mem=2G" <<<"$output" || { echo "FAIL: slurm_array.sh --mem=2G not passed to sbatch"; failures=$((failures + 1)); }

# --append: a loop of fits over methods with different columns builds one table; every row keeps its own
# values under its own columns, the parameter qp_solver and the statistic qp_solver apart.
for method in OneNormSVM SVM ZeroNormSVM; do
  "$bin" fit -m "$method" "$root/datasets/sonar.csv" --out "$tmp/table.csv" --append >/dev/null
done
/usr/bin/python3 - "$tmp/table.csv" <<'PY' || failures=$((failures + 1))
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
header, body = rows[0], rows[1:]
problems = []
if [r[0] for r in body] != ["OneNormSVM", "SVM", "ZeroNormSVM"]: problems.append(f"methods {[r[0] for r in body]}")
if any(len(r) != len(header) for r in body): problems.append("ragged rows")
solver = [k for k, name in enumerate(header) if name == "qp_solver"]
if len(solver) != 2 or body[1][solver[0]] != "by_shape" or body[1][solver[1]] == "by_shape": problems.append(f"qp_solver columns {solver}")
if body[2][header.index("a")] != "4" or body[0][header.index("a")] != "": problems.append("ZeroNormSVM's a")
if problems: print("FAIL: fit --out --append:", "; ".join(problems))
sys.exit(1 if problems else 0)
PY
printf 'a,b\n1\n' >"$tmp/not_a_table.csv"
expect_error "--append refuses a file that is not a result table" "not_a_table.csv: not a table of result rows" \
  "$bin" fit -m SVM "$root/datasets/sonar.csv" --out "$tmp/not_a_table.csv" --append
grep -q "^a,b$" "$tmp/not_a_table.csv" || { echo "FAIL: --append changed a file it refused"; failures=$((failures + 1)); }
# fit --test: on the training file itself it repeats the training accuracy; on a held-out half its
# accuracy equals the one computed in Python from --weights on the raw file; other features are refused.
expect_ok "fit --test on the training file" "test acc" "$bin" fit -m OneNormSVM -t standardize "$root/datasets/sonar.csv" \
  --test "$root/datasets/sonar.csv"
train_acc=$(grep "^train acc" <<<"$output" | awk '{print $3}')
test_acc=$(grep "^test acc" <<<"$output" | awk '{print $3}')
[[ -n "$train_acc" && "$train_acc" == "$test_acc" ]] || { echo "FAIL: fit --test on the training file: $train_acc vs $test_acc"; failures=$((failures + 1)); }
{ head -1 "$root/datasets/sonar.csv"; sed -n '2~2p' "$root/datasets/sonar.csv"; } >"$tmp/sonar_train.csv"
{ head -1 "$root/datasets/sonar.csv"; sed -n '3~2p' "$root/datasets/sonar.csv"; } >"$tmp/sonar_test.csv"
"$bin" fit -m OneNormSVM --lambda 0.5 "$tmp/sonar_train.csv" --test "$tmp/sonar_test.csv" --weights "$tmp/sonar_w.csv" \
  --out "$tmp/sonar_row.csv" >/dev/null
/usr/bin/python3 - "$tmp" <<'PY' || failures=$((failures + 1))
import csv, sys
tmp = sys.argv[1]
weights = {row["feature"]: float(row["weight"]) for row in csv.DictReader(open(f"{tmp}/sonar_w.csv"))}
rows = list(csv.DictReader(open(f"{tmp}/sonar_test.csv")))
label = list(rows[0])[-1]
positive = sorted({r[label] for r in rows})  # the loader's default: the labels in sorted order, the second +1
right = 0
for r in rows:
    f = weights["(bias)"] + sum(w * float(r[name]) for name, w in weights.items() if name != "(bias)")
    right += (f >= 0) == (r[label] == positive[1])
expected = right / len(rows)
row = next(csv.DictReader(open(f"{tmp}/sonar_row.csv")))
if abs(float(row["test_accuracy"]) - expected) > 1e-12 or row["test_n"] != str(len(rows)):
    print(f"FAIL: fit --test accuracy {row['test_accuracy']} (n {row['test_n']}), recomputed {expected} (n {len(rows)})")
    sys.exit(1)
PY
# fit --grid --cv: the CV table, the chosen value fitted and written (cv_accuracy is the chosen line's mean);
# a grid the method cannot take is refused naming it.
expect_ok "fit --grid --cv" "<- chosen" "$bin" fit -m OneNormSVM -t standardize "$root/datasets/sonar.csv" \
  --grid lambda=0.01,0.1,1 --cv 5 --out "$tmp/cv_fit.csv"
chosen_line=$(grep -- "<- chosen" <<<"$output")
/usr/bin/python3 - "$tmp/cv_fit.csv" "$chosen_line" <<'PY' || failures=$((failures + 1))
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
lam, mean = sys.argv[2].split()[:2]
if float(row["lambda"]) != float(lam) or f"{float(row['cv_accuracy']):.4f}" != mean or row["status"] != "optimal":
    print(f"FAIL: fit --grid --cv wrote lambda {row['lambda']}, cv {row['cv_accuracy']}; the table chose {lam} at {mean}")
    sys.exit(1)
PY
# --scoring: the selection optimizes another metric, the rows name it (cv_metric, cv_score) and score the
# test file under it too.
expect_ok "fit --grid --scoring" "scored by balanced_accuracy" "$bin" fit -m OneNormSVM -t standardize \
  "$root/datasets/pima_rare3.csv" --grid lambda=0.01,0.1,1 --cv 3 --stratified --scoring balanced_accuracy \
  --test "$root/datasets/pima.csv" --out "$tmp/cv_scoring.csv"
chosen_line=$(grep -- "<- chosen" <<<"$output")
/usr/bin/python3 - "$tmp/cv_scoring.csv" "$chosen_line" <<'PY' || failures=$((failures + 1))
import csv, sys
row = next(csv.DictReader(open(sys.argv[1])))
lam, mean = sys.argv[2].split()[:2]
if (row["cv_metric"] != "balanced_accuracy" or float(row["lambda"]) != float(lam) or f"{float(row['cv_score']):.4f}" != mean
        or "cv_accuracy" in row or not 0 <= float(row["test_balanced_accuracy"]) <= 1):
    print(f"FAIL: fit --scoring wrote {row}; the table chose {lam} at {mean}")
    sys.exit(1)
PY
expect_error "--scoring with an unknown metric" "unknown metric 'balanced_acuracy' (did you mean 'balanced_accuracy'?" \
  "$bin" fit -m OneNormSVM "$root/datasets/sonar.csv" --grid lambda=0.1,1 --scoring balanced_acuracy
expect_ok "fit --grid over two parameters with tuning sets" "mu" "$bin" fit -m RLSVM0 "$root/datasets/sonar.csv" \
  --grid lambda=0.1,1 --grid mu=0.5,1 --tuning-sets 3
expect_error "--grid with a misspelled parameter" "did you mean 'lambda'" "$bin" fit -m OneNormSVM \
  "$root/datasets/sonar.csv" --grid lamda=0.1,1
expect_error "--grid with one value" "nothing to choose" "$bin" fit -m OneNormSVM "$root/datasets/sonar.csv" --grid lambda=1
expect_error "--grid and the same fixed parameter" "fixes it too" "$bin" fit -m OneNormSVM "$root/datasets/sonar.csv" \
  --grid lambda=0.1,1 --lambda 1
expect_error "--grid with a value out of range" "lambda" "$bin" fit -m OneNormSVM "$root/datasets/sonar.csv" --grid lambda=0.1,-1
expect_error "--cv without --grid" "requires --grid" "$bin" fit -m OneNormSVM "$root/datasets/sonar.csv" --cv 5
cut -d, -f2- "$root/datasets/sonar.csv" >"$tmp/sonar_fewer.csv"
expect_error "fit --test refuses other features" "sonar_fewer.csv: 59 features, but the training data has 60" \
  "$bin" fit -m OneNormSVM "$root/datasets/sonar.csv" --test "$tmp/sonar_fewer.csv"
# Model files: predict repeats fit's training and test accuracy (the transform and the loader options
# travel in the file: with positive=-1 the classes are swapped, so ignoring the option would change the
# counts); predict's decisions equal a Python recomputation from --weights; other features and broken
# model files are refused, naming the difference or the key.
"$bin" fit -m RLSVM0 --lambda 0.5 -t standardize -o positive=-1 "$tmp/sonar_train.csv" --test "$tmp/sonar_test.csv" \
  --model-out "$tmp/model.yaml" >"$tmp/fit.txt" 2>&1
fit_test=$(grep "^test acc" "$tmp/fit.txt" | sed 's/^test acc *\([0-9.]*\) on [^(]*/\1 /')
fit_train=$(grep "^train acc" "$tmp/fit.txt" | awk '{print $3}')
expect_ok "predict on the held-out half" "accuracy" "$bin" predict --model "$tmp/model.yaml" "$tmp/sonar_test.csv"
predict_test=$(grep "^accuracy" <<<"$output" | sed 's/^accuracy *//')
[[ -n "$fit_test" && "$fit_test" == "$predict_test" ]] || { echo "FAIL: predict '$predict_test' against fit --test '$fit_test'"; failures=$((failures + 1)); }
"$bin" predict --model "$tmp/model.yaml" "$tmp/sonar_train.csv" >"$tmp/predict_train.txt" 2>&1
grep -q "^accuracy    $fit_train " "$tmp/predict_train.txt" || { echo "FAIL: predict on the training half is not fit's $fit_train"; failures=$((failures + 1)); }
# The model line names choices as fit's method line does (it printed lp_form=0, surrogate_stop=0).
fit_parameters=$(sed -n 's/^method      RLSVM0 (\(.*\))$/\1/p' "$tmp/fit.txt")
grep -qF "RLSVM0 ($fit_parameters)" "$tmp/predict_train.txt" && grep -q "lp_form=by_size" "$tmp/predict_train.txt" ||
  { echo "FAIL: predict's model line does not repeat fit's parameters '$fit_parameters'"; failures=$((failures + 1)); }
"$bin" fit -m OneNormSVM --lambda 0.5 "$tmp/sonar_train.csv" --weights "$tmp/raw_w.csv" --model-out "$tmp/raw.yaml" >/dev/null
"$bin" predict --model "$tmp/raw.yaml" "$tmp/sonar_test.csv" --out "$tmp/predictions.csv" >/dev/null
/usr/bin/python3 - "$tmp" <<'PY' || failures=$((failures + 1))
import csv, sys
tmp = sys.argv[1]
weights = {row["feature"]: float(row["weight"]) for row in csv.DictReader(open(f"{tmp}/raw_w.csv"))}
rows = list(csv.DictReader(open(f"{tmp}/sonar_test.csv")))
predicted = list(csv.DictReader(open(f"{tmp}/predictions.csv")))
worst = max(abs(float(p["decision"]) - weights["(bias)"] - sum(w * float(r[k]) for k, w in weights.items() if k != "(bias)"))
            for r, p in zip(rows, predicted))
if len(predicted) != len(rows) or worst > 1e-12:
    print(f"FAIL: predict --out: {len(predicted)} rows for {len(rows)}, largest decision difference {worst}")
    sys.exit(1)
PY
expect_error "predict: one feature fewer than the model suggests --no-labels" \
  "sonar_fewer.csv: 59 features, one fewer than the model's 60; a file without a class column is read with --no-labels" \
  "$bin" predict --model "$tmp/raw.yaml" "$tmp/sonar_fewer.csv"
cut -d, -f3- "$root/datasets/sonar.csv" >"$tmp/sonar_58.csv"
expect_error "predict refuses other features" "sonar_58.csv: 58 features, but the training data has 60" \
  "$bin" predict --model "$tmp/raw.yaml" "$tmp/sonar_58.csv"
# New data: one example, one class, or no class column at all (--no-labels: predictions, no accuracy); the
# decisions are those of the labelled file's rows.
head -1 "$root/datasets/sonar.csv" >"$tmp/one_example.csv"
sed -n 2p "$root/datasets/sonar.csv" >>"$tmp/one_example.csv"
expect_ok "predict on one example of one class" "1 examples; true +1 0, false +1 0, true -1 1, false -1 0" \
  "$bin" predict --model "$tmp/raw.yaml" "$tmp/one_example.csv"
expect_ok "fit --test on one example of one class" "test acc" "$bin" fit -m OneNormSVM "$tmp/sonar_train.csv" \
  --test "$tmp/one_example.csv"
cut -d, -f1-60 "$tmp/sonar_test.csv" >"$tmp/sonar_test_unlabelled.csv"
expect_ok "predict --no-labels" "no class column: no accuracy" "$bin" predict --model "$tmp/raw.yaml" \
  "$tmp/sonar_test_unlabelled.csv" --no-labels --out "$tmp/unlabelled_predictions.csv"
cmp -s <(cut -d, -f1-3 "$tmp/predictions.csv") <(cut -d, -f1-3 "$tmp/unlabelled_predictions.csv") \
  || { echo "FAIL: --no-labels decisions differ from the labelled file's"; failures=$((failures + 1)); }
grep -q ",$" "$tmp/unlabelled_predictions.csv" || { echo "FAIL: --no-labels wrote labels"; failures=$((failures + 1)); }
expect_error "predict: a file without a class column names --no-labels" "with --no-labels" \
  "$bin" predict --model "$tmp/raw.yaml" "$tmp/sonar_test_unlabelled.csv" -o label_column=0
sed 's/^bias: .*/bias: .nan/' "$tmp/raw.yaml" >"$tmp/nan_bias.yaml"
expect_error "predict refuses a NaN bias" "'bias' holds nan, not a finite number" \
  "$bin" predict --model "$tmp/nan_bias.yaml" "$tmp/sonar_test.csv"
grep -v "^weights" "$tmp/raw.yaml" >"$tmp/no_weights.yaml"
expect_error "predict names a missing key" "no_weights.yaml: model file has no 'weights'" \
  "$bin" predict --model "$tmp/no_weights.yaml" "$tmp/sonar_test.csv"
printf 'sparsesvm_model: 1\ncommit: a\nmethod: SVM\nparameters: {[1]: 2}\n' >"$tmp/list_key.yaml"
expect_error "predict refuses a malformed model file" "list_key.yaml: malformed model file" \
  "$bin" predict --model "$tmp/list_key.yaml" "$tmp/sonar_test.csv"
expect_error "predict without a model file" "absent.yaml: no such model file" \
  "$bin" predict --model "$tmp/absent.yaml" "$tmp/sonar_test.csv"
expect_error "unknown method" "unknown method 'SVM3'" "$bin" fit -m SVM3 "$root/datasets/sonar.csv"
expect_error "bad lambda" "lambda must lie in (0, 1)" "$bin" fit -m FSV --lambda 2 "$root/datasets/sonar.csv"

printf '1,2,1\n3,4\n' >"$tmp/bad.csv"
expect_error "truncated line" "bad.csv:2: expected 3 fields, found 2" "$bin" describe-data "$tmp/bad.csv"
expect_error "missing file" "cannot open file" "$bin" describe-data "$tmp/none.csv"
expect_error "unknown generator" "unknown generator 'nope'" "$bin" describe-data --generator nope
expect_error "unknown loader option" "unknown delimited loader option 'bogus'" \
  "$bin" describe-data "$root/datasets/sonar.csv" -o bogus=1
expect_error "file and generator together" "not both" "$bin" describe-data "$root/datasets/sonar.csv" -g dca_gaussians
expect_error "no subcommand" "subcommand" "$bin"


# The memory budget (issue 37): a forced dense route above it exits 1 naming the option that fits; a bad
# SPARSESVM_MEMORY_BUDGET exits 1 at once; run records status memory_budget and a rerun with room
# recomputes those tasks.
expect_error "memory budget: forced interior point" "qp_solver: dual_cd" \
  "$bin" --memory-budget 1K fit -m SVM -g rw_relevant:n=200,d=50 --lambda 1 --qp_solver interior_point
expect_error "memory budget: malformed variable" "SPARSESVM_MEMORY_BUDGET: expected a positive size" \
  env SPARSESVM_MEMORY_BUDGET=4GB "$bin" fit -m OneNormSVM -g rw_relevant:n=50,d=20
cat >"$tmp/budget.yaml" <<'YAML'
name: budget
seed: 1
datasets:
  - {name: g, generator: rw_relevant, params: {n: 60, d: 20}}
methods:
  - {name: SVM, qp_solver: interior_point}
grid: {lambda: [1]}
protocol:
  outer: {type: holdout, test_fraction: 0.3, repetitions: 2}
  inner: {type: none}
YAML
# A run whose every row is refused writes its tables and exits 1 (a script or a Slurm array sees it); so
# does collect of it.
# The run finished: it says so once, not as a run that stopped.
expect_error "memory budget: a run with no model exits 1" "no row has a model: all 2 are input_error or memory_budget" \
  "$bin" --memory-budget 1K run "$tmp/budget.yaml" -q --no-figures --out "$tmp/budget"
[[ $(grep -c "no row has a model" <<<"$output") -eq 1 && $output != *stopped* ]] ||
  { echo "FAIL: memory budget: the no-model message twice, or as a stop: $output"; failures=$((failures + 1)); }
[[ -f $tmp/budget/table_accuracy.csv ]] || { echo "FAIL: memory budget: the refused run wrote no tables"; failures=$((failures + 1)); }
grep -q "no row has a model" "$tmp/budget/run.log" || { echo "FAIL: memory budget: run.log lacks the no-model line"; failures=$((failures + 1)); }
# Refused tasks are work left: status lists their shard (what --resubmit-missing submits).
output=$("$bin" status "$tmp/budget" --shards 1)
grep -q "^shards of 1 with tasks to run (missing, damaged, or refused for the memory budget): 0$" <<<"$output" ||
  { echo "FAIL: memory budget: status does not list the refused tasks' shard: $output"; failures=$((failures + 1)); }
expect_error "memory budget: collect of a run with no model exits 1" "the first: g / SVM rep 0: data set rw_relevant: the interior point" \
  "$bin" collect "$tmp/budget" --no-figures
refused=$(grep -c memory_budget "$tmp"/budget/tasks/*.csv 2>/dev/null | awk -F: '{s += $2} END {print s + 0}')
((refused == 2)) || { echo "FAIL: memory budget: run recorded $refused memory_budget rows, expected 2"; failures=$((failures + 1)); }
grep -q "^memory_budget_bytes: 1024$" "$tmp/budget/manifest.yaml" ||
  { echo "FAIL: memory budget: the manifest does not record it"; failures=$((failures + 1)); }
# Some rows refused: exit 0, and a warning (shown under -q) counts them and quotes the first.
sed -e 's/^name: budget/name: budget_mixed/' -e 's/^  - {name: g, .*/&\n  - {name: wide, generator: rw_relevant, params: {n: 60, d: 200}}/' \
  "$tmp/budget.yaml" >"$tmp/budget_mixed.yaml"
expect_ok "memory budget: a run with some rows refused warns" "2 of 4 rows have no model because of their data or config" \
  "$bin" --memory-budget 100K run "$tmp/budget_mixed.yaml" -q --no-figures --out "$tmp/budget_mixed"
# One shard is not collected: run itself counts its refused rows and quotes the first.
expect_ok "memory budget: a shard with refused rows warns" "1 of the 2 tasks run have no model because of their data or config" \
  "$bin" --memory-budget 100K run "$tmp/budget_mixed.yaml" -q -j 2 --shard 0/2 --out "$tmp/budget_shard"
grep -q "the first: wide / SVM rep 0: data set rw_relevant: the interior point" <<<"$output" ||
  { echo "FAIL: memory budget: the shard's warning does not quote the first refused row: $output"; failures=$((failures + 1)); }
expect_ok "memory budget: a rerun with room recomputes" "2 tasks run, 0 already done" "$bin" run "$tmp/budget.yaml" --out "$tmp/budget"

# Class weights (issue 40): applied and shown, refused where they cancel, bad values named.
expect_ok "fit --class-weight balanced" "class_weight balanced: +1 examples 1.433, -1 examples 0.768" \
  "$bin" fit "$root/datasets/pima.csv" -m SVM --class-weight balanced
expect_ok "fit --class-weight positive=3" "class_weight positive=3,negative=1" \
  "$bin" fit "$root/datasets/pima.csv" -m OneNormSVM --class-weight positive=3
expect_error "fit -m FSV --class-weight" "FSV averages its loss over each class" \
  "$bin" fit "$root/datasets/pima.csv" -m FSV --class-weight balanced
expect_error "fit --class-weight pos=2" "'pos=2' is not a class weight" \
  "$bin" fit "$root/datasets/pima.csv" -m SVM --class-weight pos=2
expect_error "fit --class-weight positive=1e300 (a MIP would abort)" "above the 1e+15 the solvers accept" \
  "$bin" fit "$root/datasets/sonar.csv" -m PSI-1 --lp_iteration_limit 100 --class-weight positive=1e300
# A MIP's summary counts its work like every fit's (LP/QP iterations and solves, its start's included), then
# its search in its work limits' units: nodes and the LP iterations lp_iteration_limit counts.
expect_ok "fit -m PSI-1 prints its nodes and LP iterations" "^search      [1-9][0-9]* nodes, [1-9][0-9]* LP iterations counted against lp_iteration_limit$" \
  "$bin" fit -g psi_quadratic:n=30,case=2,seed=1 -m PSI-1 --C 1
expect_ok "fit -m PSI-1 prints its LP/QP iterations, the start's included" "^iterations  [1-9][0-9]* outer, [1-9][0-9]* LP/QP iterations in [2-9][0-9]* solves$" \
  "$bin" fit -g psi_quadratic:n=30,case=2,seed=1 -m PSI-1 --C 1
"$bin" fit "$root/datasets/pima.csv" -m SVM --class-weight balanced --model-out "$tmp/weighted.yaml" >/dev/null 2>&1
grep -q "^class_weight: balanced" "$tmp/weighted.yaml" 2>/dev/null ||
  { echo "FAIL: --model-out does not record the class weight"; failures=$((failures + 1)); }
# --verbose: progress lines on standard error, after the seconds since the command began; standard output
# (the summary) as without it.
"$bin" fit "$root/datasets/sonar.csv" -m RLSVM0 --lambda 0.1 --lp_form generation >"$tmp/quiet.out" 2>"$tmp/quiet.err"
"$bin" fit "$root/datasets/sonar.csv" -m RLSVM0 --lambda 0.1 --lp_form generation -v >"$tmp/verbose.out" 2>"$tmp/verbose.err"
[[ -s "$tmp/quiet.err" ]] && { echo "FAIL: fit without --verbose wrote to standard error"; failures=$((failures + 1)); }
cmp -s <(grep -v '^time' "$tmp/quiet.out") <(grep -v '^time' "$tmp/verbose.out") ||
  { echo "FAIL: fit --verbose changed the summary"; failures=$((failures + 1)); }
for line in '] read 208 examples and 60 features$' '] RLSVM0 (a=4, lambda=0.1, .*): fit begins$' \
    '] LP generation round 1: restricted LP of ' '] objective [0-9.]* at [0-9.]* s of the fit$' \
    '] RLSVM0 (a=4, lambda=0.1, .*) ends: converged F='; do
  grep -q -- "^\[ *[0-9]*\.[0-9][0-9] s$line" "$tmp/verbose.err" ||
    { echo "FAIL: fit --verbose printed no line matching '$line'"; failures=$((failures + 1)); }
done
# Progress that cannot be written (standard error full) is dropped; the fit and its summary are not.
"$bin" fit "$root/datasets/sonar.csv" -m RLSVM0 --lambda 0.1 --lp_form generation -v >"$tmp/full.out" 2>/dev/full ||
  { echo "FAIL: fit --verbose with standard error full: exit $?"; failures=$((failures + 1)); }
cmp -s <(grep -v '^time' "$tmp/quiet.out") <(grep -v '^time' "$tmp/full.out") ||
  { echo "FAIL: fit --verbose with standard error full changed the summary"; failures=$((failures + 1)); }
# run --verbose: every fit's progress lines in the log (standard error and run.log) after its task group's
# data set and repetition, also from the inner folds' threads (one group, -j 2); the rows as without it.
quick=(protocol.outer.repetitions=1 "methods=[OneNormSVM,RLSVM0]")
"$bin" run "$root/configs/quickstart.yaml" "${quick[@]}" -j 2 --no-figures --out "$tmp/run_quiet" >/dev/null 2>"$tmp/run_quiet.err"
"$bin" run "$root/configs/quickstart.yaml" "${quick[@]}" -j 2 --no-figures --out "$tmp/run_verbose" -v >/dev/null 2>"$tmp/run_verbose.err"
label='gaussians\[noise_dims=10,flip_fraction=0.1\] rep 0: '
for log in "$tmp/run_verbose.err" "$tmp/run_verbose/run.log"; do
  grep -q "^\[[0-9:]*\] ${label}RLSVM0 (a=4, lambda=.*): fit begins$" "$log" ||
    { echo "FAIL: run --verbose: no labelled fit line in $log"; failures=$((failures + 1)); }
  grep -q "^\[[0-9:]*\] ${label}selection of OneNormSVM, inner fold 5 of 5: candidate 9 of 9" "$log" ||
    { echo "FAIL: run --verbose: no labelled inner-fold line in $log"; failures=$((failures + 1)); }
  grep "fit begins$" "$log" | grep -qv "^\[[0-9:]*\] ${label}" &&
    { echo "FAIL: run --verbose: a fit line without its task's label in $log"; failures=$((failures + 1)); }
done
grep -q "fit begins" "$tmp/run_quiet.err" "$tmp/run_quiet/run.log" &&
  { echo "FAIL: run without --verbose printed fit progress"; failures=$((failures + 1)); }
# -q with -v: nothing on standard error, the lines in run.log.
"$bin" run "$root/configs/quickstart.yaml" "${quick[@]}" -j 2 --no-figures --out "$tmp/run_qv" -q -v >/dev/null 2>"$tmp/run_qv.err"
grep -q "fit begins" "$tmp/run_qv.err" && { echo "FAIL: run -q -v printed fit progress on standard error"; failures=$((failures + 1)); }
grep -q "fit begins" "$tmp/run_qv/run.log" || { echo "FAIL: run -q -v left fit progress out of run.log"; failures=$((failures + 1)); }
/usr/bin/python3 - "$tmp/run_quiet/results.csv" "$tmp/run_verbose/results.csv" <<'PY' || failures=$((failures + 1))
import csv, sys
tables = [[{k: v for k, v in row.items() if "time" not in k and "seconds" not in k} for row in csv.DictReader(open(p))]
          for p in sys.argv[1:]]
if not tables[0] or tables[0] != tables[1]:
    sys.exit("FAIL: run --verbose changed results.csv (times aside)")
PY
if ((failures)); then echo "$failures check(s) failed"; exit 1; fi
echo "all CLI checks passed"
