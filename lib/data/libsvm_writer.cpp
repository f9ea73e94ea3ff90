#include "data/libsvm_writer.hpp"

#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <memory>

#include "core/errors.hpp"

namespace sparsesvm::data {
namespace {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

void write_entry(std::FILE* file, Eigen::Index column, double value, const core::Dataset& data, std::size_t row) {
  if (std::isnan(value)) {
    throw core::InputError(fmt::format("data set {}: example {} has a missing value in feature {}; LIBSVM files cannot "
                                       "hold it (impute first)", data.name(), row + 1, column + 1));
  }
  if (value != 0.0) fmt::print(file, " {}:{:.17g}", column + 1, value);
}

}  // namespace

void write_libsvm(const core::Dataset& data, const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "w"));
  if (!file) throw core::InputError(fmt::format("{}: cannot be written", path));
  for (std::size_t i = 0; i < data.n(); ++i) {
    const auto row = static_cast<Eigen::Index>(i);
    fmt::print(file.get(), "{}", data.labels()[row] > 0 ? "+1" : "-1");
    if (data.is_sparse()) {
      for (core::SparseMatrix::InnerIterator it(data.sparse(), row); it; ++it) write_entry(file.get(), it.col(), it.value(), data, i);
    } else {
      for (Eigen::Index j = 0; j < data.dense().cols(); ++j) write_entry(file.get(), j, data.dense()(row, j), data, i);
    }
    std::fputc('\n', file.get());
  }
  if (std::ferror(file.get()) != 0 || std::fclose(file.release()) != 0) {
    throw core::InputError(fmt::format("{}: writing failed (disk full?)", path));
  }
}

}  // namespace sparsesvm::data
