#pragma once
// Losses of the margin t = y (w.x + b). Most have a DC split  loss(t) = g(t) - h(t)  whose convex part
// is a scaled, shifted hinge  g(t) = scale * max(0, margin - t)  (so that every DCA step is the convex
// program of convex_step.hpp), and h convex and piecewise linear with slope concave_slope(t) (0 at a
// kink, [DCA] eq. (19)). A loss without one (the squared hinge of the L2-SVM, which only RW's dual CD
// runs) says so by has_hinge_split() and throws logic_error from the three split functions. One file per loss in this folder; the registry
// (registry.cpp) lists them with their parameter tables. A loss's parameters never share a name with a
// penalty's or an algorithm's: the method registry refuses a collision when it is built.
#include <functional>
#include <limits>
#include <optional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/parameters.hpp"

namespace sparsesvm::models {

// A loss of the form min(cap, s max(0, m - t)): the hinge (s = m = 1, no cap) and the ramp. Algorithms that
// model the loss exactly (the global MILP) ask a loss for this shape instead of testing its id.
struct CappedHinge {
  double s = 1.0;
  double m = 1.0;
  double cap = std::numeric_limits<double>::infinity();  // infinite: an uncapped (convex) hinge
};

class Loss {
 public:
  virtual ~Loss() = default;
  virtual std::string id() const = 0;  // "hinge", "ramp[mu=0.5]"
  virtual double value(double t) const = 0;
  virtual bool has_hinge_split() const { return true; }
  virtual double convex_scale() const = 0;
  virtual double convex_margin() const = 0;
  virtual double concave_slope(double t) const = 0;
  virtual bool is_convex() const = 0;
  // The margins t at which an example is a support vector: where the loss is not flat ([DCA] section 4:
  // hinge t < 1, ramp -mu^2 <= t <= mu). Metrics widen it by kSupportVectorSlack.
  virtual std::pair<double, double> support_region() const = 0;
  // Its shape when it is a capped hinge (the contract test checks value() against it); nullopt otherwise.
  virtual std::optional<CappedHinge> capped_hinge() const { return std::nullopt; }
};

struct LossInfo {
  std::string id;                 // as in method rows and `describe`: "ramp"
  std::string formula;            // one line
  std::string citation;
  ParameterTable parameters;      // kind model
  std::function<std::shared_ptr<const Loss>(const Hyperparameters&)> make;  // from resolved parameters
};

const std::vector<LossInfo>& loss_registry();
// InputError listing the known ids when `id` is not one.
const LossInfo& find_loss(const std::string& id);
// The loss `id` with `given` parameters (defaults for the rest); InputError on a bad name or value.
std::shared_ptr<const Loss> make_loss(const std::string& id, const Hyperparameters& given = {});

}  // namespace sparsesvm::models
