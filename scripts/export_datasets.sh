#!/usr/bin/env bash
# Writes the real data sets that Debian packages ship into datasets/, in one canonical form:
# comma-separated, a header row of feature names, the class in the last column as +1/-1, '?' for a
# missing value. Needs no network. Sources:
#   sonar, ionosphere, pima  r-cran-mlbench (Sonar, Ionosphere, PimaIndiansDiabetes), through Rscript
#   wdbc                     python3-sklearn's breast_cancer.csv (the UCI WDBC data)
#   heart_scale              liblinear-tools' example, copied as is (LIBSVM format)
# Then it records SHA-256 checksums in datasets/CHECKSUMS.sha256.
# Usage: scripts/export_datasets.sh [--install]   (--install first installs the three packages)
set -euo pipefail
cd "$(dirname "$0")/.."
out=datasets

if [[ "${1:-}" == "--install" ]]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q r-cran-mlbench python3-sklearn liblinear-tools >/dev/null
fi

# R: write a data frame with the class column mapped to +1 for `positive`, as numeric features.
Rscript --vanilla - "$out" <<'RSCRIPT'
suppressMessages(library(mlbench))
out <- commandArgs(trailingOnly = TRUE)[1]
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
PYTHON

cp /usr/share/doc/liblinear-tools/examples/heart_scale "$out/heart_scale.libsvm"

(cd "$out" && sha256sum sonar.csv ionosphere.csv pima.csv wdbc.csv heart_scale.libsvm > CHECKSUMS.sha256)
cat "$out/CHECKSUMS.sha256"
