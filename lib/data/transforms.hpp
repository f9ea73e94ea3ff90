#pragma once
// Transforms fitted on a training part and applied, unchanged, to the rest: no statistic of a test
// part reaches the training part (a test proves it). Names as in configs:
//   standardize   x' = (x - mean) / stddev per feature (a constant feature is only centred); dense only
//   scale         x' = lower + (x - min) (upper - lower) / (max - min) per feature, default [-1, 1]; dense only
//   unit_norm     each row divided by its Euclidean norm (no fitting; zero rows stay zero)
//   impute_mean   a missing value (NaN) becomes the training mean of its feature
#include <memory>
#include <string>
#include <vector>

#include "core/dataset.hpp"

namespace sparsesvm::data {

class Transform {
 public:
  virtual ~Transform() = default;
  virtual std::string name() const = 0;
  // Learns what the transform needs from the training part.
  virtual void fit(const core::Dataset& train) = 0;
  // Applies what was learned; throws std::logic_error before fit (for transforms that need one).
  virtual void apply(core::Dataset& data) const = 0;
  // What fit() learned, as named vectors (a model file keeps them), and its restoration for data with
  // d features; restore() throws InputError naming a missing vector or one of the wrong size.
  using Learned = std::vector<std::pair<std::string, core::Vector>>;
  virtual Learned learned() const = 0;
  virtual void restore(const Learned& learned, std::size_t d) = 0;
};

class Standardizer : public Transform {
 public:
  std::string name() const override { return "standardize"; }
  void fit(const core::Dataset& train) override;
  void apply(core::Dataset& data) const override;
  Learned learned() const override { return {{"mean", mean_}, {"scale", scale_}}; }
  void restore(const Learned& learned, std::size_t d) override;

 private:
  core::Vector mean_;
  core::Vector scale_;
};

class RangeScaler : public Transform {
 public:
  explicit RangeScaler(double lower = -1.0, double upper = 1.0);
  std::string name() const override { return "scale"; }
  void fit(const core::Dataset& train) override;
  void apply(core::Dataset& data) const override;
  Learned learned() const override;
  void restore(const Learned& learned, std::size_t d) override;

 private:
  double lower_;
  double upper_;
  core::Vector min_;
  core::Vector range_;
};

class UnitNormRows : public Transform {
 public:
  std::string name() const override { return "unit_norm"; }
  void fit(const core::Dataset&) override {}
  void apply(core::Dataset& data) const override;
  Learned learned() const override { return {}; }
  void restore(const Learned&, std::size_t) override {}
};

class MeanImputer : public Transform {
 public:
  std::string name() const override { return "impute_mean"; }
  void fit(const core::Dataset& train) override;
  void apply(core::Dataset& data) const override;
  Learned learned() const override { return {{"mean", mean_}}; }
  void restore(const Learned& learned, std::size_t d) override;

 private:
  core::Vector mean_;
};

// "standardize", "scale", "unit_norm", "impute_mean"; InputError listing them otherwise.
std::unique_ptr<Transform> make_transform(const std::string& name);
std::vector<std::string> transform_names();

// Fits each transform in order on `train` (as already transformed by the earlier ones) and applies it
// to train and to every other part.
void fit_and_apply(const std::vector<std::unique_ptr<Transform>>& transforms, core::Dataset& train,
                   const std::vector<core::Dataset*>& others);

}  // namespace sparsesvm::data
