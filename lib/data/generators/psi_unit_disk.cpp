// [PSI] section 3.4 (after Shen et al. 2003): "two dimensional vectors are generated uniformly over the
// unit disk {x1^2 + x2^2 <= 1}, and then Y_i is assigned to be 1 if X_i1 >= 0 and -1 otherwise." Some
// labels are then flipped (flip_count, common to all generators). Points are drawn by rejection from
// the square [-1, 1]^2, which is exactly uniform on the disk.
#include "core/errors.hpp"
#include "core/rng.hpp"
#include "data/generators/generator_registry.hpp"

namespace sparsesvm::data {

std::size_t check_psi_unit_disk(const GeneratorParams& params) {
  const std::size_t n = params.count("n");
  if (n < 2) throw core::InputError("generator psi_unit_disk: need n >= 2");
  check_sample_size("psi_unit_disk", n, 2);
  return n;
}

core::Dataset make_psi_unit_disk(const GeneratorParams& params) {
  const std::size_t n = check_psi_unit_disk(params);
  core::Rng rng(params.seed());
  core::DenseMatrix x(static_cast<Eigen::Index>(n), 2);
  core::Vector y(static_cast<Eigen::Index>(n));
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    double x1 = 0.0;
    double x2 = 0.0;
    do {
      x1 = rng.uniform(-1.0, 1.0);
      x2 = rng.uniform(-1.0, 1.0);
    } while (x1 * x1 + x2 * x2 > 1.0);
    x(i, 0) = x1;
    x(i, 1) = x2;
    y[i] = x1 >= 0.0 ? 1.0 : -1.0;
  }
  core::Dataset data("psi_unit_disk", std::move(x), std::move(y), {"x1", "x2"},
                     generator_provenance("psi_unit_disk", params));
  data.set_informative_features({true, false});
  return data;
}

}  // namespace sparsesvm::data
