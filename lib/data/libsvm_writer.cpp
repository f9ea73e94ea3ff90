#include "data/libsvm_writer.hpp"

#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "core/errors.hpp"

namespace sparsesvm::data {
namespace {

void write_entry(std::ostream& out, Eigen::Index column, double value, const core::Dataset& data, std::size_t row) {
  if (std::isnan(value)) {
    throw core::InputError(fmt::format("data set {}: example {} has a missing value in feature {}; LIBSVM files cannot "
                                       "hold it (impute first)", data.name(), row + 1, column + 1));
  }
  if (value != 0.0) out << fmt::format(" {}:{:.17g}", column + 1, value);
}

}  // namespace

void write_libsvm(const core::Dataset& data, const std::string& path) {
  // Written beside the target and renamed over it once complete: a failure leaves no partial file.
  const std::string partial = path + ".part";
  try {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    if (!out) throw core::InputError(fmt::format("{}: cannot be written", path));
    for (std::size_t i = 0; i < data.n(); ++i) {
      const auto row = static_cast<Eigen::Index>(i);
      out << (data.labels()[row] > 0 ? "+1" : "-1");
      if (data.is_sparse()) {
        for (core::SparseMatrix::InnerIterator it(data.sparse(), row); it; ++it) write_entry(out, it.col(), it.value(), data, i);
      } else {
        for (Eigen::Index j = 0; j < data.dense().cols(); ++j) write_entry(out, j, data.dense()(row, j), data, i);
      }
      out << '\n';
    }
    out.close();
    if (!out) throw core::InputError(fmt::format("{}: writing failed (disk full or a file size limit?)", path));
    std::filesystem::rename(partial, path);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(partial, ignored);
    throw;
  }
}

}  // namespace sparsesvm::data
