#include "core/dataset.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <fmt/format.h>
#include <stdexcept>

#include "core/errors.hpp"
#include "core/huge_pages.hpp"

namespace sparsesvm::core {

std::string Provenance::describe() const {
  std::string text = kind + " " + source;
  if (!parameters.empty()) {
    text += " (";
    for (std::size_t i = 0; i < parameters.size(); ++i) {
      text += fmt::format("{}{}={}", i == 0 ? "" : ", ", parameters[i].first, parameters[i].second);
    }
    text += ")";
  }
  if (!sha256.empty()) text += " sha256=" + sha256;
  return text;
}

namespace {

void check_labels(const std::string& name, const Vector& labels) {
  for (Eigen::Index i = 0; i < labels.size(); ++i) {
    if (labels[i] != 1.0 && labels[i] != -1.0) {
      throw InputError(fmt::format("data set {}: label of example {} is {}; labels must be -1 or +1", name, i + 1,
                                   labels[i]));
    }
  }
}

// Calls visit(i, j, x(i, j)) for every entry, a block of rows at a time and each row's columns in
// increasing order: each column's run of the block is contiguous in the column-major x, and the
// block's write positions in a row-major copy stay in cache.
template <typename Visit>
void for_each_by_row_blocks(const DenseMatrix& x, Visit&& visit) {
  constexpr Eigen::Index kBlockRows = 256;
  for (Eigen::Index first = 0; first < x.rows(); first += kBlockRows) {
    const Eigen::Index end = std::min(x.rows(), first + kBlockRows);
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      const double* column = x.col(j).data();
      for (Eigen::Index i = first; i < end; ++i) visit(i, j, column[i]);
    }
  }
}

}  // namespace

Dataset::Dataset(std::string name, Features features, Vector labels, std::vector<std::string> feature_names,
                 Provenance provenance)
    : name_(std::move(name)),
      features_(std::move(features)),
      labels_(std::move(labels)),
      feature_names_(std::move(feature_names)),
      provenance_(std::move(provenance)) {
  if (static_cast<std::size_t>(labels_.size()) != n()) {
    throw InputError(fmt::format("data set {}: {} rows of features but {} labels", name_, n(), labels_.size()));
  }
  check_labels(name_, labels_);
  if (feature_names_.empty()) {
    for (std::size_t j = 0; j < d(); ++j) feature_names_.push_back(fmt::format("x{}", j + 1));
  }
  if (feature_names_.size() != d()) {
    throw InputError(
        fmt::format("data set {}: {} feature names for {} features", name_, feature_names_.size(), d()));
  }
}

std::size_t Dataset::n() const {
  return std::visit([](const auto& m) { return static_cast<std::size_t>(m.rows()); }, features_);
}

std::size_t Dataset::d() const {
  return std::visit([](const auto& m) { return static_cast<std::size_t>(m.cols()); }, features_);
}

const DenseMatrix& Dataset::dense() const {
  if (is_sparse()) throw std::logic_error("Dataset::dense() called on sparse data " + name_);
  return std::get<DenseMatrix>(features_);
}

const SparseMatrix& Dataset::sparse() const {
  if (!is_sparse()) throw std::logic_error("Dataset::sparse() called on dense data " + name_);
  return std::get<SparseMatrix>(features_);
}

DenseMatrix& Dataset::mutable_dense() { return const_cast<DenseMatrix&>(std::as_const(*this).dense()); }

SparseMatrix& Dataset::mutable_sparse() { return const_cast<SparseMatrix&>(std::as_const(*this).sparse()); }

double Dataset::value(std::size_t row, std::size_t column) const {
  const auto i = static_cast<Eigen::Index>(row);
  const auto j = static_cast<Eigen::Index>(column);
  return is_sparse() ? sparse().coeff(i, j) : dense()(i, j);
}

Vector Dataset::times(const Vector& w) const {
  return is_sparse() ? Vector(sparse() * w) : Vector(dense() * w);
}

Vector Dataset::transpose_times(const Vector& v) const {
  return is_sparse() ? Vector(sparse().transpose() * v) : Vector(dense().transpose() * v);
}

Vector Dataset::absolute_transpose_times(const Vector& v) const {
  Vector sums = Vector::Zero(static_cast<Eigen::Index>(d()));
  if (is_sparse()) {
    const SparseMatrix& x = sparse();
    for (Eigen::Index i = 0; i < x.outerSize(); ++i) {
      for (SparseMatrix::InnerIterator entry(x, i); entry; ++entry) sums[entry.col()] += v[i] * std::abs(entry.value());
    }
    return sums;
  }
  for (Eigen::Index j = 0; j < sums.size(); ++j) sums[j] = dense().col(j).cwiseAbs().dot(v);
  return sums;
}

void Dataset::set_labels(Vector labels) {
  if (labels.size() != labels_.size()) {
    throw InputError(fmt::format("data set {}: {} new labels for {} examples", name_, labels.size(), n()));
  }
  check_labels(name_, labels);
  labels_ = std::move(labels);
}

void Dataset::set_informative_features(std::vector<bool> informative) {
  if (informative.size() != d()) {
    throw InputError(fmt::format("data set {}: ground truth names {} features, data has {}", name_,
                                 informative.size(), d()));
  }
  informative_ = std::move(informative);
}

std::size_t Dataset::count_positive() const {
  return static_cast<std::size_t>((labels_.array() > 0.0).count());
}

double Dataset::stored_values() const {
  return is_sparse() ? static_cast<double>(sparse().nonZeros()) : static_cast<double>(n()) * static_cast<double>(d());
}

std::size_t Dataset::count_missing() const {
  if (is_sparse()) {
    const SparseMatrix& m = sparse();
    return static_cast<std::size_t>(
        std::count_if(m.valuePtr(), m.valuePtr() + m.nonZeros(), [](double v) { return std::isnan(v); }));
  }
  return static_cast<std::size_t>(dense().array().isNaN().count());
}

Dataset Dataset::subset(const std::vector<std::size_t>& rows) const {
  Vector labels(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) labels[static_cast<Eigen::Index>(i)] = labels_[static_cast<Eigen::Index>(rows[i])];
  Features features;
  if (is_sparse()) {
    const SparseMatrix& source = sparse();
    std::vector<Eigen::Triplet<double>> entries;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      for (SparseMatrix::InnerIterator it(source, static_cast<Eigen::Index>(rows[i])); it; ++it) {
        entries.emplace_back(static_cast<Eigen::Index>(i), it.col(), it.value());
      }
    }
    SparseMatrix picked(static_cast<Eigen::Index>(rows.size()), source.cols());
    picked.setFromTriplets(entries.begin(), entries.end());
    features = std::move(picked);
  } else {
    std::vector<Eigen::Index> index(rows.begin(), rows.end());
    features = DenseMatrix(dense()(index, Eigen::all));
  }
  Dataset result(name_, std::move(features), std::move(labels), feature_names_, provenance_);
  result.informative_ = informative_;
  return result;
}

SparseMatrix row_major_nonzeros(const DenseMatrix& x) {
  const Eigen::Index rows = x.rows();
  const Eigen::Index columns = x.cols();
  std::vector<std::size_t> row_counts(static_cast<std::size_t>(rows), 0);
  for (Eigen::Index j = 0; j < columns; ++j) {
    const double* column = x.col(j).data();
    for (Eigen::Index i = 0; i < rows; ++i) row_counts[static_cast<std::size_t>(i)] += column[i] != 0.0;
  }
  std::size_t total = 0;
  for (const std::size_t count : row_counts) total += count;
  if (total > static_cast<std::size_t>(std::numeric_limits<SparseMatrix::StorageIndex>::max())) {
    throw InputError(fmt::format("{} non-zeros are more than a CSR copy can index (2^31 - 1)", total));
  }

  SparseMatrix copy(rows, columns);
  copy.resizeNonZeros(static_cast<Eigen::Index>(total));  // allocated, not yet written
  advise_huge_pages(copy.valuePtr(), total * sizeof(double));
  advise_huge_pages(copy.innerIndexPtr(), total * sizeof(SparseMatrix::StorageIndex));
  SparseMatrix::StorageIndex* row_start = copy.outerIndexPtr();
  row_start[0] = 0;
  for (Eigen::Index i = 0; i < rows; ++i) {
    row_start[i + 1] = row_start[i] + static_cast<SparseMatrix::StorageIndex>(row_counts[static_cast<std::size_t>(i)]);
  }
  std::vector<SparseMatrix::StorageIndex> next(row_start, row_start + rows);
  for_each_by_row_blocks(x, [&](Eigen::Index i, Eigen::Index j, double value) {
    if (value == 0.0) return;
    const SparseMatrix::StorageIndex k = next[static_cast<std::size_t>(i)]++;
    copy.innerIndexPtr()[k] = static_cast<SparseMatrix::StorageIndex>(j);
    copy.valuePtr()[k] = value;
  });
  return copy;
}

RowMajorMatrix row_major_rows(const DenseMatrix& x) {
  RowMajorMatrix copy(x.rows(), x.cols());  // allocated, not yet written
  advise_huge_pages(copy.data(), static_cast<std::size_t>(copy.size()) * sizeof(double));
  for_each_by_row_blocks(x, [&](Eigen::Index i, Eigen::Index j, double value) { copy(i, j) = value; });
  return copy;
}

}  // namespace sparsesvm::core
