#pragma once
// Writes a data set in LIBSVM's format ("+1 3:0.5 17:1.25", 1-based feature indices, zeros left out,
// values with 17 significant digits so that reading the file back gives the same doubles), to hand
// generated data to other tools (liblinear, scikit-learn's load_svmlight_file). Missing values (NaN) are
// refused: the format has no way to say them. InputError naming the path when it cannot be written; the
// file appears only complete (written to PATH.part, then renamed). The format cannot say d: a file whose
// last columns are all zero reads back narrower unless the reader is told (-o n_features=D).
#include <string>

#include "core/dataset.hpp"

namespace sparsesvm::data {

void write_libsvm(const core::Dataset& data, const std::string& path);

}  // namespace sparsesvm::data
