#pragma once
// What the benchmarks share: their data are standardized first (raw UCI columns in the hundreds and
// thousands make every QP solver slow, which is not what they measure).
#include "core/dataset.hpp"
#include "data/transforms.hpp"

namespace sparsesvm::bench {

inline core::Dataset standardized(core::Dataset data) {
  data::Standardizer standardize;
  standardize.fit(data);
  standardize.apply(data);
  return data;
}

}  // namespace sparsesvm::bench
