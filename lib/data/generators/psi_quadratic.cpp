// [PSI] section 5.1: x = (x1..x4) with each component uniform on [-2, 2]; f(x) = x1^2 + x2^2 - 2.8; the
// label is sign(f(x)) with probability 0.95 and -sign(f(x)) with probability 0.05. The classifier is
// linear in a basis expansion, one of four cases:
//   case 1: x1^2, x2^2                         (2 features)
//   case 2: x1^2 .. x4^2                       (4)
//   case 3: the squares, then x1 .. x4         (8)
//   case 4: also x1x2 x1x3 x1x4 x2x3 x2x4 x3x4 (14)
// Only x1^2 and x2^2 are informative. f(x) = 0 has probability zero; it would give +1.
#include <array>
#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "data/generators/generator_registry.hpp"

namespace sparsesvm::data {
namespace {

struct BasisFunction {
  std::string name;
  int first;   // index into x
  int second;  // -1 for a linear term
};

std::vector<BasisFunction> basis_for_case(std::size_t basis_case) {
  std::vector<BasisFunction> basis;
  const std::size_t squares = basis_case == 1 ? 2 : 4;
  for (int k = 0; k < static_cast<int>(squares); ++k) basis.push_back({fmt::format("x{}^2", k + 1), k, k});
  if (basis_case >= 3) {
    for (int k = 0; k < 4; ++k) basis.push_back({fmt::format("x{}", k + 1), k, -1});
  }
  if (basis_case == 4) {
    for (int a = 0; a < 4; ++a) {
      for (int b = a + 1; b < 4; ++b) basis.push_back({fmt::format("x{}x{}", a + 1, b + 1), a, b});
    }
  }
  return basis;
}

}  // namespace

std::size_t check_psi_quadratic(const GeneratorParams& params) {
  const std::size_t n = params.count("n");
  const std::size_t basis_case = params.count("case");
  const double flip_probability = params.real("flip_probability");
  if (n < 2 || basis_case < 1 || basis_case > 4 || !(flip_probability >= 0 && flip_probability <= 1)) {
    throw core::InputError("generator psi_quadratic: need n >= 2, case in 1..4 and flip_probability in [0, 1]");
  }
  check_sample_size("psi_quadratic", n, basis_for_case(basis_case).size());
  return n;
}

core::Dataset make_psi_quadratic(const GeneratorParams& params) {
  const std::size_t n = check_psi_quadratic(params);
  const double flip_probability = params.real("flip_probability");
  const std::vector<BasisFunction> basis = basis_for_case(params.count("case"));
  core::Rng rng(params.seed());
  core::DenseMatrix features(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(basis.size()));
  core::Vector y(static_cast<Eigen::Index>(n));
  for (Eigen::Index i = 0; i < features.rows(); ++i) {
    std::array<double, 4> x{};
    for (double& component : x) component = rng.uniform(-2.0, 2.0);
    const double bayes_label = x[0] * x[0] + x[1] * x[1] - 2.8 >= 0.0 ? 1.0 : -1.0;
    y[i] = rng.bernoulli(flip_probability) ? -bayes_label : bayes_label;
    for (std::size_t k = 0; k < basis.size(); ++k) {
      const BasisFunction& f = basis[k];
      features(i, static_cast<Eigen::Index>(k)) = f.second < 0 ? x[f.first] : x[f.first] * x[f.second];
    }
  }
  std::vector<std::string> names;
  std::vector<bool> informative;
  for (const BasisFunction& f : basis) {
    names.push_back(f.name);
    informative.push_back(f.name == "x1^2" || f.name == "x2^2");
  }
  core::Dataset data("psi_quadratic", std::move(features), std::move(y), std::move(names),
                     generator_provenance("psi_quadratic", params));
  data.set_informative_features(std::move(informative));
  return data;
}

}  // namespace sparsesvm::data
