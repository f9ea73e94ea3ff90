#pragma once
// The products with X that the first-order start of lp_crossover.hpp takes at every iteration, and its
// primal step, screened: on sparse data a step reads only the columns of X it needs.
#include <utility>

#include "core/dataset.hpp"
#include "models/lp_generation.hpp"

namespace sparsesvm::models {

// The prox of tau h_j at v (h_j(w) = p w for w >= 0, -q w below): the minimizer of tau h_j(w) + (w - v)^2
// / 2, a soft threshold shifted by the two slopes.
double shifted_soft_threshold(double v, double tau, double p, double q);

// X w, and single columns of X. On sparse data from a column-major copy of X (as large as X itself):
// X w reads only the columns of w's nonzeros, as the prox leaves most weights at exact zeros (on issue
// 37's uniform 2000 x 20000 draw about 1850 of 20000 from the first check on).
class ColumnProducts {
 public:
  explicit ColumnProducts(const core::Dataset& data);
  core::Vector times(const core::Vector& w) const;
  double column_dot(Eigen::Index j, const core::Vector& v) const;  // x_j . v, x_j feature j's column
  std::pair<double, double> column_norms(Eigen::Index j) const;    // ||x_j||_1, ||x_j||_2
  Eigen::Index column_size(Eigen::Index j) const;                   // x_j's nonzeros (n on dense data)

 private:
  using ColumnMajor = Eigen::SparseMatrix<double, Eigen::ColMajor>;
  const core::Dataset& data_;
  ColumnMajor columns_;
};

// The primal step w' = prox_{tau h}(w + tau g), g = X' Y alpha (Y = diag(y)), screened. The prox leaves
// w_j at 0 whenever w_j = 0 and g_j lies in [-q_j, p_j], so g_j is needed only where it may leave that
// interval. From a reference product g_r at alpha_r,
//
//   |g_j - (g_r)_j| = |x_j' Y (alpha - alpha_r)| <= min(||x_j||_2 ||alpha - alpha_r||_2, ||x_j||_1 ||alpha - alpha_r||_inf)
//
// (Cauchy-Schwarz, Hoelder); where that bound is below (g_r)_j's distance to the interval's ends,
// w'_j = 0 without reading column j. The other g_j are computed column by column. When those columns hold
// more than kScreenedShare of X's nonzeros, the next step takes the whole product over the rows (faster
// per nonzero than column dots), the new reference. Where that happens one step after a new reference,
// screening does not pay on this problem (text-shaped data at small lambda: 40-50% of X read), and the
// whole product is taken for 2, 4, ..., kMaxBackoff steps before the next try, the last of them the new
// reference. The steps equal the unscreened ones up to rounding.
class ScreenedProx {
 public:
  static constexpr double kScreenedShare = 0.25;
  static constexpr int kMaxBackoff = 64;
  ScreenedProx(const core::Dataset& data, const StepLpCosts& costs, const ColumnProducts& columns);
  core::Vector step(const core::Vector& w, const core::Vector& alpha, const core::Vector& tau);
  // The nonzeros of X the last step read (all of X's for a whole product).
  Eigen::Index last_read() const { return last_read_; }

 private:
  void take_reference(const core::Vector& g, const core::Vector& y_alpha);
  const core::Dataset& data_;
  const StepLpCosts& costs_;
  const ColumnProducts& columns_;
  core::Vector l1_norms_, l2_norms_;
  Eigen::Index total_size_ = 0;
  Eigen::Index last_read_ = 0;
  int reference_age_ = 0;        // steps since the reference
  int screening_backoff_ = 1;    // whole products after the last step that read too much
  int whole_products_due_ = 0;   // steps left before the next screened one
  core::Vector reference_y_alpha_;  // Y alpha_r
  core::Vector slack_;              // (g_r)_j's distance to the ends of [-q_j, p_j], negative outside
};

}  // namespace sparsesvm::models
