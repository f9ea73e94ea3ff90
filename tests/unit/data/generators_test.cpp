#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>

#include "core/errors.hpp"
#include "data/generators/generator_registry.hpp"

using namespace sparsesvm;

namespace {

// Mean and population variance of column j over the rows with label y (0: all rows).
std::pair<double, double> column_moments(const core::Dataset& data, Eigen::Index j, double y = 0) {
  double sum = 0, sum2 = 0;
  int count = 0;
  for (Eigen::Index i = 0; i < data.dense().rows(); ++i) {
    if (y != 0 && data.labels()[i] != y) continue;
    const double v = data.dense()(i, j);
    sum += v;
    sum2 += v * v;
    ++count;
  }
  const double mean = sum / count;
  return {mean, sum2 / count - mean * mean};
}

}  // namespace

TEST_CASE("dca_gaussians follows DCA 4.1: centres +-e, variance 1.5, uniform noise, scaled by 0.2", "[generator]") {
  const core::Dataset data = data::generate("dca_gaussians:n=20000,noise_dims=3,seed=5");
  REQUIRE(data.d() == 13);
  CHECK(data.count_positive() == 10000);
  // Informative coordinate: 0.2 * N(y, 1.5) has mean 0.2 y and variance 0.04 * 1.5 = 0.06.
  for (Eigen::Index j : {0, 9}) {
    const auto [mean_pos, var_pos] = column_moments(data, j, 1);
    const auto [mean_neg, var_neg] = column_moments(data, j, -1);
    CHECK(mean_pos == Approx(0.2).margin(0.01));
    CHECK(mean_neg == Approx(-0.2).margin(0.01));
    CHECK(var_pos == Approx(0.06).margin(0.004));
    CHECK(var_neg == Approx(0.06).margin(0.004));
  }
  // Noise coordinate: 0.2 * U(-1, 1) has mean 0, variance 0.04 / 3, and lies in [-0.2, 0.2].
  const auto [noise_mean, noise_var] = column_moments(data, 11);
  CHECK(noise_mean == Approx(0.0).margin(0.004));
  CHECK(noise_var == Approx(0.04 / 3).margin(0.0005));
  CHECK(data.dense().col(11).cwiseAbs().maxCoeff() <= 0.2);
  const std::vector<bool> truth = *data.informative_features();
  CHECK(std::count(truth.begin(), truth.end(), true) == 10);
  CHECK_FALSE(truth[10]);
}

TEST_CASE("label flipping changes exactly the requested number of labels, nothing else", "[generator]") {
  const core::Dataset clean = data::generate("dca_gaussians:seed=3");
  const core::Dataset noisy = data::generate("dca_gaussians:seed=3,flip_count=20");
  CHECK(clean.dense() == noisy.dense());
  CHECK((clean.labels().array() != noisy.labels().array()).count() == 20);
  const core::Dataset by_fraction = data::generate("dca_gaussians:seed=3,flip_fraction=0.3");
  CHECK((clean.labels().array() != by_fraction.labels().array()).count() == 30);
  CHECK_THROWS_WITH(data::generate("dca_gaussians:flip_count=2,flip_fraction=0.1"), Catch::Contains("not both"));
  CHECK_THROWS_WITH(data::generate("psi_unit_disk:n=5,flip_count=6"), Catch::Contains("cannot flip 6 labels"));
}

TEST_CASE("psi_unit_disk is uniform on the disk with y = sign(x1)", "[generator]") {
  const core::Dataset data = data::generate("psi_unit_disk:n=20000,seed=2");
  const core::DenseMatrix& x = data.dense();
  CHECK((x.rowwise().squaredNorm().array() <= 1.0).all());
  for (Eigen::Index i = 0; i < x.rows(); ++i) REQUIRE(data.labels()[i] == (x(i, 0) >= 0 ? 1.0 : -1.0));
  // Uniform on the unit disk: E[r^2] = 1/2 and P(r < 1/2) = 1/4.
  CHECK(x.rowwise().squaredNorm().mean() == Approx(0.5).margin(0.01));
  CHECK(static_cast<double>((x.rowwise().norm().array() < 0.5).count()) / 20000 == Approx(0.25).margin(0.01));
}

TEST_CASE("psi_quadratic follows PSI 5.1: four basis cases, Bayes boundary x1^2+x2^2=2.8, 5% flips", "[generator]") {
  CHECK(data::generate("psi_quadratic:case=1").d() == 2);
  CHECK(data::generate("psi_quadratic:case=2").d() == 4);
  CHECK(data::generate("psi_quadratic:case=3").d() == 8);
  const core::Dataset case4 = data::generate("psi_quadratic:case=4,n=20000,seed=9");
  REQUIRE(case4.d() == 14);
  CHECK(case4.feature_names()[13] == "x3x4");
  CHECK(case4.informative_features()->at(1));
  CHECK_FALSE(case4.informative_features()->at(2));
  const core::DenseMatrix& f = case4.dense();
  // Columns are consistent: x1^2 is the square of x1 (column 4), x1x2 the product of columns 4 and 5.
  CHECK((f.col(0) - f.col(4).cwiseAbs2()).cwiseAbs().maxCoeff() < 1e-12);
  CHECK((f.col(8) - f.col(4).cwiseProduct(f.col(5))).cwiseAbs().maxCoeff() < 1e-12);
  // P(x1^2 + x2^2 >= 2.8) = 1 - pi 2.8 / 16 for x uniform on [-2, 2]^2; about 5% of labels disagree.
  int bayes_positive = 0, disagreements = 0;
  for (Eigen::Index i = 0; i < f.rows(); ++i) {
    const double bayes = f(i, 0) + f(i, 1) - 2.8 >= 0 ? 1.0 : -1.0;
    bayes_positive += bayes > 0;
    disagreements += bayes != case4.labels()[i];
  }
  CHECK(bayes_positive / 20000.0 == Approx(1 - std::numbers::pi * 2.8 / 16).margin(0.01));
  CHECK(disagreements / 20000.0 == Approx(0.05).margin(0.005));
  CHECK_THROWS_WITH(data::generate("psi_quadratic:case=5"), Catch::Contains("case in 1..4"));
}

TEST_CASE("rw_relevant follows RW 4.3: class means 3 apart, split over d_rel features", "[generator]") {
  const core::Dataset data = data::generate("rw_relevant:n=20000,d=20,d_rel=4,seed=4");
  CHECK(data.count_positive() == 10000);
  const double shift = 1.5 / std::sqrt(4.0);
  const auto [relevant_mean, relevant_var] = column_moments(data, 3, 1);
  CHECK(relevant_mean == Approx(shift).margin(0.03));
  CHECK(relevant_var == Approx(1.0).margin(0.04));
  const auto [irrelevant_mean, irrelevant_var] = column_moments(data, 4, 1);
  CHECK(irrelevant_mean == Approx(0.0).margin(0.03));
  CHECK(irrelevant_var == Approx(1.0).margin(0.04));
  // Distance between the class means over all features is 3 (plus sampling noise in 20 dimensions).
  core::Vector mean_difference(20);
  for (Eigen::Index j = 0; j < 20; ++j) {
    mean_difference[j] = column_moments(data, j, 1).first - column_moments(data, j, -1).first;
  }
  CHECK(mean_difference.norm() == Approx(3.0).margin(0.1));
}

TEST_CASE("generators are reproducible and reject bad specs", "[generator]") {
  CHECK(data::generate("rw_relevant:seed=8").dense() == data::generate("rw_relevant:seed=8").dense());
  CHECK(data::generate("rw_relevant:seed=8").dense() != data::generate("rw_relevant:seed=9").dense());
  CHECK_THROWS_WITH(data::generate("dca_gaussians:noise=3"), Catch::Contains("unknown parameter 'noise'"));
  CHECK_THROWS_WITH(data::generate("dca_gaussians:n=ten"), Catch::Contains("parameter n must be a number"));
  CHECK_THROWS_WITH(data::generate("dca_gaussians:n=10.5"), Catch::Contains("whole number"));
  CHECK_THROWS_WITH(data::generate("dca_gaussians:n"), Catch::Contains("expected key=value"));
  CHECK_THROWS_WITH(data::generate("gaussians"), Catch::Contains("unknown generator 'gaussians'"));
  const core::Dataset data = data::generate("psi_unit_disk:n=7,seed=3");
  CHECK(data.provenance().describe().find("n=7") != std::string::npos);
  CHECK(data.provenance().describe().find("seed=3") != std::string::npos);
}

TEST_CASE("generators refuse impossible or oversized parameters", "[generator]") {
  CHECK_THROWS_WITH(data::generate("dca_gaussians:variance=-1"), Catch::Contains("a positive variance"));
  CHECK_THROWS_WITH(data::generate("dca_gaussians:n=1000000000"),
                    Catch::Contains("n x d = 1000000000 x 10 exceeds the limit"));
  CHECK_THROWS_WITH(data::generate("rw_relevant:n=100000,d=100000"), Catch::Contains("exceeds the limit"));
}

TEST_CASE("a generator spec names each parameter once", "[generator]") {
  // dca_gaussians:n=10,n=20 once took the last value silently.
  CHECK_THROWS_WITH(data::generate("dca_gaussians:n=10,n=20"), Catch::Contains("'n' is given twice"));
  CHECK(data::generate("dca_gaussians:n=10,seed=2").n() == 10);
}

TEST_CASE("text_shaped: unit-norm tf-idf rows, Zipf term frequencies, balanced labels from a sparse w", "[generator]") {
  const core::Dataset data = data::generate("text_shaped:n=3000,d=5000,nnz_per_row=40,informative=20,seed=3");
  REQUIRE(data.is_sparse());
  const core::SparseMatrix& x = data.sparse();
  CHECK(data.count_positive() == 1500);
  std::vector<double> document_frequency(5000, 0.0);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    double squared_norm = 0.0;
    Eigen::Index stored = 0;
    for (core::SparseMatrix::InnerIterator it(x, i); it; ++it, ++stored) {
      CHECK(it.value() > 0.0);
      squared_norm += it.value() * it.value();
      document_frequency[static_cast<std::size_t>(it.col())] += 1.0;
    }
    CHECK(squared_norm == Approx(1.0).margin(1e-12));
    CHECK(stored >= 20);
    CHECK(stored <= 60);
  }
  CHECK(static_cast<double>(x.nonZeros()) / 3000.0 == Approx(40.0).margin(1.0));
  // Zipf with exponent 1: the k-th most frequent term appears in about 1/k as many rows as the first
  // (document frequencies saturate a little for the most common terms, so compare ranks 10 and 100).
  std::sort(document_frequency.begin(), document_frequency.end(), std::greater<>());
  CHECK(document_frequency[9] / document_frequency[99] == Approx(10.0).epsilon(0.35));
  const auto& informative = *data.informative_features();
  CHECK(std::count(informative.begin(), informative.end(), true) == 20);
  CHECK(data::generate("text_shaped:n=50,d=100,nnz_per_row=5,informative=3,seed=4").sparse().isApprox(
      data::generate("text_shaped:n=50,d=100,nnz_per_row=5,informative=3,seed=4").sparse()));
  // Another seed draws other documents in the same vocabulary: the true w's terms stay (an independent test set).
  const core::Dataset other = data::generate("text_shaped:n=3000,d=5000,nnz_per_row=40,informative=20,seed=4");
  CHECK(*other.informative_features() == informative);
  CHECK_FALSE(other.sparse().isApprox(x));
  CHECK(*data::generate("text_shaped:n=300,d=5000,nnz_per_row=40,informative=20,vocabulary_seed=2").informative_features() !=
        informative);
  CHECK_THROWS_WITH(data::generate("text_shaped:d=100,nnz_per_row=50"), Catch::Contains("nnz_per_row <= d / 3"));
  CHECK_THROWS_WITH(data::generate("text_shaped:n=10000000,d=100000,nnz_per_row=100"),
                    Catch::Contains("exceeds the limit"));
}
