#pragma once
// Dataset: a labelled design matrix with its provenance.
//   features  n x d, dense (Eigen::MatrixXd) or sparse CSR (row-major Eigen::SparseMatrix) for LIBSVM
//             files that should not be densified. A missing value is NaN (only loaders that were asked
//             to keep missing values produce them; MeanImputer removes them).
//   labels    n values in {-1, +1}.
// Provenance says where the data came from (file and SHA-256, or generator and every parameter), and
// travels with every subset, so a result row can be traced back to its source.
#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace sparsesvm::core {

using DenseMatrix = Eigen::MatrixXd;
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;
using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXd;

struct Provenance {
  std::string kind;    // "file" or "generator"
  std::string source;  // the file path(s), or the generator's id
  std::string sha256;  // of the file's bytes; empty for generated data
  // Loader options or generator parameters, in a stable order, values as text.
  std::vector<std::pair<std::string, std::string>> parameters;

  // "generator dca_gaussians(n=100, noise_dims=10, ...)" or "file datasets/sonar.csv (sha256 ab12...)".
  std::string describe() const;
};

class Dataset {
 public:
  using Features = std::variant<DenseMatrix, SparseMatrix>;

  // Throws InputError when the shapes disagree or a label is not -1 or +1. Empty feature names become
  // x1..xd.
  Dataset(std::string name, Features features, Vector labels, std::vector<std::string> feature_names,
          Provenance provenance);

  const std::string& name() const { return name_; }
  std::size_t n() const;
  std::size_t d() const;
  bool is_sparse() const { return std::holds_alternative<SparseMatrix>(features_); }
  const DenseMatrix& dense() const;    // throws std::logic_error on sparse data
  const SparseMatrix& sparse() const;  // throws std::logic_error on dense data
  DenseMatrix& mutable_dense();
  SparseMatrix& mutable_sparse();
  double value(std::size_t row, std::size_t column) const;
  // X w (n entries) and X' v (d entries), for dense or sparse features.
  Vector times(const Vector& w) const;
  Vector transpose_times(const Vector& v) const;
  // |X|' v: sum_i v_i |x_ij| for every feature j (v = 1: each column's absolute sum).
  Vector absolute_transpose_times(const Vector& v) const;
  const Vector& labels() const { return labels_; }
  void set_labels(Vector labels);  // same size, values in {-1, +1}
  const std::vector<std::string>& feature_names() const { return feature_names_; }
  const Provenance& provenance() const { return provenance_; }
  Provenance& mutable_provenance() { return provenance_; }

  // Ground truth for synthetic data: informative[j] says whether feature j carries signal.
  const std::optional<std::vector<bool>>& informative_features() const { return informative_; }
  void set_informative_features(std::vector<bool> informative);

  std::size_t count_positive() const;
  std::size_t count_negative() const { return n() - count_positive(); }
  std::size_t count_missing() const;
  // Values stored: nonzeros of sparse features, n x d of dense ones (the cost of one product with X).
  double stored_values() const;

  // The listed rows, in the order given (repeats allowed), with the same names and provenance.
  Dataset subset(const std::vector<std::size_t>& rows) const;

 private:
  std::string name_;
  Features features_;
  Vector labels_;
  std::vector<std::string> feature_names_;
  Provenance provenance_;
  std::optional<std::vector<bool>> informative_;
};

// The non-zeros of a dense matrix in CSR form (row-major, columns increasing in each row), for solvers
// that walk the examples one at a time. Built by blocks of rows straight into the CSR arrays: Eigen's
// sparseView assignment across storage orders goes through a column-major temporary and copies it
// again (a fifth of the l2 SVM's time on a dense 6000 x 5000 file). InputError past 2^31 - 1 non-zeros
// (the CSR's index type).
SparseMatrix row_major_nonzeros(const DenseMatrix& x);

// A row-major copy of a dense matrix, built by the same blocks of rows (Eigen's assignment across storage
// orders walks one of the two matrices with a stride of n doubles); its pages advised huge when large.
RowMajorMatrix row_major_rows(const DenseMatrix& x);

}  // namespace sparsesvm::core
