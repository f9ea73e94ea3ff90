#include <catch2/catch.hpp>

#include "core/rng.hpp"

#include <cmath>
#include <limits>

#include "core/errors.hpp"
#include "data/generators/generator_registry.hpp"
#include "data/summary.hpp"
#include "data/transforms.hpp"

using namespace sparsesvm;

namespace {

core::Dataset table(std::initializer_list<std::initializer_list<double>> rows) {
  core::DenseMatrix x(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index i = 0;
  for (const auto& row : rows) {
    Eigen::Index j = 0;
    for (double v : row) x(i, j++) = v;
    ++i;
  }
  core::Vector y = core::Vector::Ones(x.rows());
  y[0] = -1;
  return core::Dataset("t", x, y, {}, {});
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

TEST_CASE("standardize and scale use training statistics only", "[transform]") {
  core::Dataset train = table({{1, 10}, {3, 10}});  // feature 1: mean 2, std 1; feature 2 constant
  core::Dataset test = table({{5, 4}, {2, 10}});
  data::Standardizer standardize;
  standardize.fit(train);
  standardize.apply(test);
  CHECK(test.value(0, 0) == Approx(3.0));   // (5 - 2) / 1
  CHECK(test.value(0, 1) == Approx(-6.0));  // constant feature: only centred
  core::Dataset scaled = table({{5, 4}, {2, 10}});
  data::RangeScaler scale;
  scale.fit(train);
  scale.apply(scaled);
  CHECK(scaled.value(0, 0) == Approx(3.0));  // -1 + (5 - 1) * 2 / 2: test values may leave [-1, 1]
  CHECK(scaled.value(1, 0) == Approx(0.0));
  CHECK(scaled.value(0, 1) == Approx(0.0));  // constant on training: middle of the range
}

TEST_CASE("no statistic of the test part reaches the training part", "[transform]") {
  // Fit every transform on the same training part with two very different test parts: the transformed
  // training part must be identical, and equal to fitting on the training part alone.
  for (const std::string& name : data::transform_names()) {
    core::Dataset base = data::generate("dca_gaussians:n=40,noise_dims=2,seed=1");
    const std::vector<std::size_t> train_rows = {0, 1, 2, 3, 4, 5, 20, 21, 22, 23, 24, 25};
    const std::vector<std::size_t> test_rows = {10, 11, 30, 31};
    core::Dataset train_a = base.subset(train_rows);
    core::Dataset train_b = base.subset(train_rows);
    core::Dataset train_alone = base.subset(train_rows);
    core::Dataset test_a = base.subset(test_rows);
    core::Dataset test_b = base.subset(test_rows);
    test_b.mutable_dense() *= 1000.0;
    test_b.mutable_dense()(0, 0) = kNaN;

    std::vector<std::unique_ptr<data::Transform>> a, b, alone;
    a.push_back(data::make_transform(name));
    b.push_back(data::make_transform(name));
    alone.push_back(data::make_transform(name));
    data::fit_and_apply(a, train_a, {&test_a});
    data::fit_and_apply(b, train_b, {&test_b});
    data::fit_and_apply(alone, train_alone, {});
    INFO("transform " << name);
    CHECK(train_a.dense() == train_b.dense());
    CHECK(train_a.dense() == train_alone.dense());
  }
}

TEST_CASE("mean imputation fills NaN with the training mean", "[transform]") {
  core::Dataset train = table({{1, kNaN}, {3, 4}, {kNaN, 8}});
  core::Dataset test = table({{kNaN, kNaN}, {0, 0}});
  data::MeanImputer impute;
  impute.fit(train);
  impute.apply(train);
  impute.apply(test);
  CHECK(train.count_missing() == 0);
  CHECK(test.value(0, 0) == Approx(2.0));
  CHECK(test.value(0, 1) == Approx(6.0));
  core::Dataset all_missing = table({{1, kNaN}, {2, kNaN}});
  CHECK_THROWS_WITH(impute.fit(all_missing), Catch::Contains("feature 2 (x2) of t has no observed value"));
}

TEST_CASE("unit_norm works on sparse rows, standardize refuses to densify", "[transform]") {
  core::DenseMatrix x(2, 3);
  x << 3, 0, 4, 0, 0, 0;
  core::Vector y(2);
  y << 1, -1;
  core::Dataset sparse("s", core::SparseMatrix(x.sparseView()), y, {}, {});
  data::UnitNormRows().apply(sparse);
  CHECK(sparse.value(0, 0) == Approx(0.6));
  CHECK(sparse.value(0, 2) == Approx(0.8));
  CHECK(sparse.value(1, 1) == 0.0);
  data::Standardizer standardize;
  standardize.fit(sparse);
  CHECK_THROWS_WITH(standardize.apply(sparse), Catch::Contains("would make sparse data s dense"));
  CHECK_THROWS_WITH(data::make_transform("normalize"), Catch::Contains("unknown transform 'normalize'"));
}

TEST_CASE("feature statistics ignore missing values and count sparse zeros", "[transform]") {
  const core::Dataset data = table({{1, kNaN}, {3, 4}, {5, 8}});
  const auto stats = data::feature_stats(data);
  CHECK(stats[0].mean == Approx(3.0));
  CHECK(stats[0].stddev == Approx(std::sqrt(8.0 / 3.0)));
  CHECK(stats[1].missing == 1);
  CHECK(stats[1].observed == 2);
  CHECK(stats[1].mean == Approx(6.0));
  core::DenseMatrix x(2, 2);
  x << 2, 0, 0, 0;
  core::Vector y(2);
  y << 1, -1;
  const auto sparse_stats = data::feature_stats(core::Dataset("s", core::SparseMatrix(x.sparseView()), y, {}, {}));
  CHECK(sparse_stats[0].observed == 2);  // the implicit zero counts
  CHECK(sparse_stats[0].mean == Approx(1.0));
  CHECK(sparse_stats[0].min == 0.0);
  CHECK(sparse_stats[1].max == 0.0);
  // Sparse and dense storage of one random matrix (mostly zeros) agree; the zeros are added in one step.
  core::Rng rng(5);
  core::DenseMatrix z = core::DenseMatrix::Zero(40, 6);
  for (int k = 0; k < 50; ++k) z(static_cast<Eigen::Index>(rng.uniform(0, 40)), static_cast<Eigen::Index>(rng.uniform(0, 6))) = rng.normal(3.0, 2.0);
  core::Vector labels = core::Vector::Ones(40);
  labels[0] = -1;
  const auto dense_z = data::feature_stats(core::Dataset("d", z, labels, {}, {}));
  const auto sparse_z = data::feature_stats(core::Dataset("s", core::SparseMatrix(z.sparseView()), labels, {}, {}));
  for (std::size_t j = 0; j < 6; ++j) {
    CHECK(sparse_z[j].mean == Approx(dense_z[j].mean).margin(1e-12));
    CHECK(sparse_z[j].stddev == Approx(dense_z[j].stddev).margin(1e-12));
    CHECK(sparse_z[j].min == dense_z[j].min);
    CHECK(sparse_z[j].max == dense_z[j].max);
    CHECK(sparse_z[j].observed == 40);
  }
}

TEST_CASE("standardize refuses a feature whose deviation overflows instead of zeroing it", "[transform]") {
  core::DenseMatrix x(3, 2);
  x << 1, 1e200, 2, -1e200, 3, 1e200;
  core::Dataset data("huge", x, (core::Vector(3) << 1, -1, 1).finished(), {}, {});
  data::Standardizer standardize;
  CHECK_THROWS_WITH(standardize.fit(data), Catch::Contains("feature 1") && Catch::Contains("values too large to standardize"));
}
