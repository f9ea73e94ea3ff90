#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/dataset.hpp"
#include "core/errors.hpp"
#include "core/linear_model.hpp"

using namespace sparsesvm::core;

namespace {

Dataset small_dense() {
  DenseMatrix x(4, 2);
  x << 1, 0, 0, 2, -1, 0, 0, -2;
  Vector y(4);
  y << 1, 1, -1, -1;
  return Dataset("toy", x, y, {"a", "b"}, Provenance{"generator", "hand", "", {}});
}

// 600 rows: two whole blocks of 256 and a partial one. Zeros scattered, a zero row, a zero column, -0.0
// and NaN.
DenseMatrix matrix_over_row_blocks() {
  DenseMatrix x(600, 7);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      x(i, j) = (i * 7 + j * 3) % 5 == 0 ? 0.0 : static_cast<double>(i) - 2.5 * static_cast<double>(j);
    }
  }
  x.row(300).setZero();
  x.col(4).setZero();
  x(17, 2) = -0.0;
  x(599, 6) = std::numeric_limits<double>::quiet_NaN();
  return x;
}

}  // namespace

TEST_CASE("Dataset checks shapes and labels", "[dataset]") {
  const Dataset data = small_dense();
  CHECK(data.n() == 4);
  CHECK(data.d() == 2);
  CHECK(data.count_positive() == 2);
  CHECK(data.count_missing() == 0);
  CHECK_THROWS_AS(Dataset("bad", DenseMatrix::Zero(3, 2), Vector::Ones(4), {}, {}), InputError);
  Vector zero_label = Vector::Ones(3);
  zero_label[1] = 0;
  CHECK_THROWS_WITH(Dataset("bad", DenseMatrix::Zero(3, 2), zero_label, {}, {}),
                    Catch::Contains("label of example 2 is 0"));
  CHECK(Dataset("named", DenseMatrix::Zero(2, 3), Vector::Ones(2), {}, {}).feature_names()[2] == "x3");
}

TEST_CASE("subset keeps rows in order for dense and sparse data", "[dataset]") {
  const Dataset data = small_dense();
  const Dataset picked = data.subset({3, 0});
  CHECK(picked.n() == 2);
  CHECK(picked.value(0, 1) == -2);
  CHECK(picked.labels()[1] == 1);

  SparseMatrix s = data.dense().sparseView();
  const Dataset sparse("toy", s, data.labels(), {}, {});
  const Dataset sparse_picked = sparse.subset({3, 0});
  CHECK(sparse_picked.is_sparse());
  CHECK(sparse_picked.value(0, 1) == -2);
  CHECK(sparse_picked.value(1, 0) == 1);
  CHECK(sparse_picked.value(1, 1) == 0);
}

TEST_CASE("absolute_transpose_times weighs each column's absolute values, dense and sparse alike", "[dataset]") {
  // x = [1 0; 0 2; -1 0; 0 -2], weights (1, 10, 100, 1000): |X|' v = (1 + 100, 2 * 10 + 2 * 1000).
  const Dataset dense = small_dense();
  Vector weights(4);
  weights << 1, 10, 100, 1000;
  const Vector expected = (Vector(2) << 101, 2020).finished();
  CHECK(dense.absolute_transpose_times(weights) == expected);
  const SparseMatrix s = dense.dense().sparseView();
  const Dataset sparse("toy", s, dense.labels(), {}, {});
  CHECK(sparse.absolute_transpose_times(weights) == expected);
}

TEST_CASE("count_missing counts NaN", "[dataset]") {
  DenseMatrix x = DenseMatrix::Ones(3, 2);
  x(1, 1) = std::numeric_limits<double>::quiet_NaN();
  Vector y(3);
  y << 1, -1, 1;
  CHECK(Dataset("m", x, y, {}, {}).count_missing() == 1);
}

TEST_CASE("row_major_nonzeros is the CSR of a dense matrix's non-zeros, across blocks of rows", "[dataset]") {
  // -0.0 is dropped, as a zero; NaN is kept: it is not zero.
  const DenseMatrix x = matrix_over_row_blocks();
  const SparseMatrix copy = row_major_nonzeros(x);
  REQUIRE(copy.isCompressed());
  REQUIRE(copy.rows() == x.rows());
  REQUIRE(copy.cols() == x.cols());
  Eigen::Index expected_nonzeros = 0;
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    Eigen::Index previous = -1;
    Eigen::Index in_row = 0;
    for (SparseMatrix::InnerIterator it(copy, i); it; ++it, ++in_row) {
      CHECK(it.col() > previous);  // columns increasing in each row
      previous = it.col();
      if (std::isnan(x(i, it.col()))) {
        CHECK(std::isnan(it.value()));
      } else {
        CHECK(it.value() == x(i, it.col()));
      }
    }
    Eigen::Index dense_nonzeros = 0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) dense_nonzeros += x(i, j) != 0.0;
    CHECK(in_row == dense_nonzeros);
    expected_nonzeros += dense_nonzeros;
  }
  CHECK(copy.nonZeros() == expected_nonzeros);
  CHECK(copy.row(300).nonZeros() == 0);
  CHECK(row_major_nonzeros(DenseMatrix(0, 3)).nonZeros() == 0);
}

TEST_CASE("row_major_rows copies every entry of a dense matrix, across blocks of rows", "[dataset]") {
  const DenseMatrix x = matrix_over_row_blocks();
  const RowMajorMatrix copy = row_major_rows(x);
  REQUIRE(copy.rows() == x.rows());
  REQUIRE(copy.cols() == x.cols());
  Eigen::Index same = 0;  // bit for bit: NaN stays NaN, -0.0 keeps its sign
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      same += std::memcmp(&copy(i, j), &x(i, j), sizeof(double)) == 0;
    }
  }
  CHECK(same == x.size());
  CHECK(std::signbit(copy(17, 2)));
  CHECK(row_major_rows(DenseMatrix(0, 3)).size() == 0);
}

TEST_CASE("LinearModel predicts by the sign of w.x + b and counts features above 1e-6", "[linear_model]") {
  const Dataset data = small_dense();
  Vector w(3);
  w << 1, 1e-7, 0;
  CHECK_THROWS_AS(LinearModel(w, 0).decision_values(data), InputError);

  Vector w2(2);
  w2 << 1.0, 0.5;
  const LinearModel model(w2, -0.5);
  const Vector f = model.decision_values(data);
  CHECK(f[0] == Approx(0.5));   // 1 - 0.5
  CHECK(f[1] == Approx(0.5));   // 1 - 0.5
  CHECK(f[2] == Approx(-1.5));  // -1 - 0.5
  CHECK(f[3] == Approx(-1.5));
  CHECK(model.accuracy(data) == 1.0);
  CHECK(LinearModel(-w2, 0.0).accuracy(data) == 0.0);
  // A decision value of exactly zero predicts +1.
  CHECK(LinearModel(Vector::Zero(2), 0.0).predict(data) == Vector::Ones(4));

  Vector sparse_w(4);
  sparse_w << 2e-6, -5e-7, -3.0, 0.0;
  const LinearModel sparse_model(sparse_w, 1.0);
  CHECK(sparse_model.count_nonzeros() == 2);
  CHECK(sparse_model.selected_features() == std::vector<std::size_t>{0, 2});
  CHECK(sparse_model.count_nonzeros(1.0) == 1);
}
