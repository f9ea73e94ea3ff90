#pragma once
// Penalties Omega(w), each with its DC split  Omega = g - h, where the convex part g is
// convex_weight() times one of the regularizers a convex step can solve (l1 -> LP, l2^2 -> QP,
// l_inf -> LP, none -> LP) and h is convex with subgradient concave_subgradient(w) (zero for convex
// penalties). One file per penalty in this folder, each opening with its formula and source; the
// registry (registry.cpp) lists them with their parameter tables. A new penalty is one file and one
// registry row; the contract tests in tests/unit/models iterate the registry.
#include <functional>
#include <limits>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "models/parameters.hpp"

namespace sparsesvm::models {

enum class Regularizer { none, l1, l2_squared, linf };

// How a proximal operator treats the strength of a penalty p(x; lambda, theta) under a step c:
//   exact        argmin_x (1/2)(x - u)^2 + c p(x; lambda, theta)
//   public_code  argmin_x (1/2)(x - u)^2 + p(x; c lambda, theta), as the ADMM paper's public code does
//                (shared/ADMM.md, "Pitfall"); equal to exact for l1, LSP and capped-l1, not for SCAD and MCP.
enum class ProxRule { exact, public_code };

std::string to_string(Regularizer regularizer);
double regularizer_value(Regularizer regularizer, const core::Vector& w);

// A penalty of the form scale * sum_j min(cap, |w_j|): l1 (cap infinite) and the capped l1 norms. Algorithms
// that model the penalty exactly (the global MILP, RW's l1 target) ask a penalty for this shape instead of
// testing its id.
struct CappedAbs {
  double scale = 1.0;
  double cap = std::numeric_limits<double>::infinity();
};

class Penalty {
 public:
  virtual ~Penalty() = default;
  virtual std::string id() const = 0;  // "capped_l1[a=1]"
  virtual double value(const core::Vector& w) const = 0;
  virtual Regularizer convex_regularizer() const = 0;
  // g = convex_weight() * regularizer(w)
  virtual double convex_weight() const { return 1.0; }
  // A subgradient of h at w (zero for convex penalties).
  virtual core::Vector concave_subgradient(const core::Vector& w) const { return core::Vector::Zero(w.size()); }
  virtual bool is_convex() const { return true; }
  // For a penalty sum_j phi(|w_j|) with phi concave and nondecreasing on [0, inf) (l1, approx_l0,
  // capped_l1): phi'(|w_j|), the weights of its tangent in |w| that successive linearization
  // ([FSV] (9)) minimizes. Empty for penalties of another form.
  virtual core::Vector abs_slope(const core::Vector&) const { return {}; }
  // For a separable penalty sum_j phi(w_j): whether prox() is available (ADMM needs it).
  virtual bool has_prox() const { return false; }
  // argmin_x (1/2)(x - u)^2 + step phi(x) under `rule`. std::logic_error when !has_prox().
  virtual double prox(double u, double step, ProxRule rule = ProxRule::exact) const;
  // Its shape when it is a (capped) l1 norm (the contract test checks value() against it); nullopt otherwise.
  virtual std::optional<CappedAbs> capped_abs() const { return std::nullopt; }
};

struct PenaltyInfo {
  std::string id;              // as in method rows: "capped_l1"
  std::string formula;         // one line
  std::string citation;
  // Kind model. lambda is the objective's weight (rho = lambda), except for a penalty whose shape depends
  // on its strength (SCAD, MCP): it names lambda in its own table and the objective then has rho = 1.
  ParameterTable parameters;
  std::function<std::shared_ptr<const Penalty>(const Hyperparameters&)> make;  // from resolved parameters
};

const std::vector<PenaltyInfo>& penalty_registry();
// InputError listing the known ids when `id` is not one.
const PenaltyInfo& find_penalty(const std::string& id);
std::shared_ptr<const Penalty> make_penalty(const std::string& id, const Hyperparameters& given = {});

}  // namespace sparsesvm::models
