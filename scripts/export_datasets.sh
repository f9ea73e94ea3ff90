#!/usr/bin/env bash
# Writes the real data sets that Debian packages ship into datasets/, in one canonical form:
# comma-separated, a header row of feature names, the class in the last column as +1/-1, '?' for a
# missing value. Needs no network. Sources:
#   sonar, ionosphere, pima  r-cran-mlbench (Sonar, Ionosphere, PimaIndiansDiabetes), through Rscript
#   glass, vehicle           r-cran-mlbench (Glass, Vehicle): multi-class, `label` holds the class name
#   breast_cancer            r-cran-mlbench (BreastCancer: the original Wisconsin set, without its Id)
#   iris                     base R (iris): multi-class
#   german                   r-cran-caret's GermanCredit (UCI Statlog German credit as caret codes it:
#                            numeric attributes and 0/1 indicators)
#   golub                    r-bioc-multtest's golub: the Golub et al. leukemia training set, 38 x 3051
#   wdbc, wine               python3-sklearn's breast_cancer.csv (UCI WDBC) and wine_data.csv (UCI Wine)
#   heart_scale              liblinear-tools' example, copied as is (LIBSVM format)
#   pima_rare3               pima with a rare class: the header, every -1 row and the first three +1 rows in
#                            file order (503 x 8), for selection by balanced accuracy (configs/beyond/rare_class.yaml)
#   wpbc, wpbc24, wpbc60     r-cran-th.data's wpbc (UCI Wisconsin Prognostic Breast Cancer: status,
#                            time, 30 nuclear features, tumour size, lymph nodes): wpbc has the status as
#                            the class (recur +1); wpbc24/wpbc60 apply the FSV paper's class rules
#                            (section 4): +1 recurred within 24 (60) months (time <= 24), -1 followed up
#                            beyond 24 (60) months without recurring; censored patients (no recurrence, less
#                            follow-up) and the 4 rows without a lymph node count are left out; time is
#                            the outcome, not a feature (32 features)
# caret, multtest and TH.data are only unpacked (apt-get download, dpkg -x) into a temporary folder: their R data
# files load in base R, and installing them would pull in dozens of packages.
# Then it records SHA-256 checksums in datasets/CHECKSUMS.sha256.
# Usage: scripts/export_datasets.sh [--install]   (--install first installs the packages it reads)
set -euo pipefail
cd "$(dirname "$0")/.."
out=datasets

if [[ "${1:-}" == "--install" ]]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q r-base-core r-cran-mlbench python3-sklearn liblinear-tools >/dev/null
fi
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
(cd "$unpacked" && apt-get download -q r-cran-caret r-bioc-multtest r-cran-th.data >/dev/null &&
  for deb in ./*.deb; do dpkg -x "$deb" .; done)
site="$unpacked/usr/lib/R/site-library"

# R: write a data frame with the class column mapped to +1 for `positive`, as numeric features.
Rscript --vanilla - "$out" "$site" <<'RSCRIPT'
suppressMessages(library(mlbench))
out <- commandArgs(trailingOnly = TRUE)[1]
site <- commandArgs(trailingOnly = TRUE)[2]
export <- function(frame, class_column, positive, file) {
  features <- frame[, setdiff(names(frame), class_column), drop = FALSE]
  for (name in names(features)) features[[name]] <- as.numeric(as.character(features[[name]]))
  label <- ifelse(frame[[class_column]] == positive, 1L, -1L)
  table <- cbind(features, label = label)
  write.table(table, file.path(out, file), sep = ",", quote = FALSE, row.names = FALSE, na = "?")
}
data(Sonar); export(Sonar, "Class", "M", "sonar.csv")                      # mine +1, rock -1
data(Ionosphere); export(Ionosphere, "Class", "good", "ionosphere.csv")    # good +1, bad -1
data(PimaIndiansDiabetes); export(PimaIndiansDiabetes, "diabetes", "pos", "pima.csv")  # diabetic +1
data(BreastCancer); export(BreastCancer[, names(BreastCancer) != "Id"], "Class", "malignant", "breast_cancer.csv")
# Multi-class: the class name in `label` (configs load them with most_frequent: one-vs-rest).
export_classes <- function(frame, class_column, file) {
  features <- frame[, setdiff(names(frame), class_column), drop = FALSE]
  for (name in names(features)) features[[name]] <- as.numeric(as.character(features[[name]]))
  table <- cbind(features, label = as.character(frame[[class_column]]))
  write.table(table, file.path(out, file), sep = ",", quote = FALSE, row.names = FALSE, na = "?")
}
data(Glass); export_classes(Glass, "Type", "glass.csv")
data(Vehicle); export_classes(Vehicle, "Class", "vehicle.csv")
data(iris); export_classes(iris, "Species", "iris.csv")
load(file.path(site, "caret/data/GermanCredit.RData"))
export(GermanCredit, "Class", "Bad", "german.csv")                           # bad credit risk +1
load(file.path(site, "multtest/data/golub.RData"))                           # golub: genes x samples
golub_frame <- as.data.frame(t(golub))
names(golub_frame) <- paste0("g", seq_len(ncol(golub_frame)))
golub_frame$class <- golub.cl
export(golub_frame, "class", 1, "golub.csv")                                 # AML +1, ALL -1
th <- new.env()
lazyLoad(file.path(site, "TH.data/data/Rdata"), envir = th)                  # TH.data keeps its data lazy-loaded
wpbc <- th$wpbc
features <- setdiff(names(wpbc), c("status", "time"))
export(wpbc[, c(features, "status")], "status", "R", "wpbc.csv")             # recurrent +1, non-recurrent -1
complete <- wpbc[complete.cases(wpbc), ]
for (months in c(24, 60)) {
  early <- complete$status == "R" & complete$time <= months                  # recurred within `months`
  late <- complete$time > months                                              # followed up beyond `months` without
  kept <- complete[early | late, c(features, "status")]
  kept$status <- ifelse((early)[early | late], "A", "B")
  export(kept, "status", "A", sprintf("wpbc%d.csv", months))
}
RSCRIPT

# WDBC: sklearn's CSV has a count line first and target 0 = malignant, 1 = benign.
/usr/bin/python3 - "$out" <<'PYTHON'
import csv, os, sys
from sklearn.datasets import load_breast_cancer
data = load_breast_cancer()
names = [n.replace(" ", "_") for n in data.feature_names]
with open(os.path.join(sys.argv[1], "wdbc.csv"), "w", newline="") as f:
    writer = csv.writer(f, lineterminator="\n")
    writer.writerow(names + ["label"])
    for row, target in zip(data.data, data.target):
        writer.writerow([repr(float(v)) for v in row] + [1 if target == 0 else -1])  # malignant +1
from sklearn.datasets import load_wine
wine = load_wine()
with open(os.path.join(sys.argv[1], "wine.csv"), "w", newline="") as f:
    writer = csv.writer(f, lineterminator="\n")
    writer.writerow([n.replace(" ", "_").replace("/", "_") for n in wine.feature_names] + ["label"])
    for row, target in zip(wine.data, wine.target):
        writer.writerow([repr(float(v)) for v in row] + [wine.target_names[target]])  # multi-class
PYTHON

cp /usr/share/doc/liblinear-tools/examples/heart_scale "$out/heart_scale.libsvm"
awk -F, 'NR == 1 || $NF == "-1" || ($NF == "1" && ++positives <= 3)' "$out/pima.csv" > "$out/pima_rare3.csv"

(cd "$out" && sha256sum sonar.csv ionosphere.csv pima.csv wdbc.csv heart_scale.libsvm breast_cancer.csv glass.csv \
  vehicle.csv iris.csv german.csv golub.csv wine.csv wpbc.csv wpbc24.csv wpbc60.csv pima_rare3.csv > CHECKSUMS.sha256)
cat "$out/CHECKSUMS.sha256"
