#include <catch2/catch.hpp>

#include <cmath>
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

TEST_CASE("count_missing counts NaN", "[dataset]") {
  DenseMatrix x = DenseMatrix::Ones(3, 2);
  x(1, 1) = std::numeric_limits<double>::quiet_NaN();
  Vector y(3);
  y << 1, -1, 1;
  CHECK(Dataset("m", x, y, {}, {}).count_missing() == 1);
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
