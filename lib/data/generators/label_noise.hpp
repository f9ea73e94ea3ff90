#pragma once
// Label noise as the papers add it: the labels of exactly `count` examples, chosen uniformly without
// replacement, change sign ([DCA] section 4.1.2 flips 0, 10, 20, 30 of 100; [PSI] section 3.4 flips
// 0, 1, 2, 5 of 50). The number flipped is recorded in the provenance.
#include <cstddef>
#include <vector>

#include "core/dataset.hpp"
#include "core/rng.hpp"

namespace sparsesvm::data {

// Returns the flipped rows in increasing order. Throws InputError when count exceeds n.
std::vector<std::size_t> flip_labels(core::Dataset& data, std::size_t count, core::Rng& rng);

// round(fraction * n), for fraction in [0, 1]; InputError otherwise.
std::size_t count_for_fraction(double fraction, std::size_t n);

}  // namespace sparsesvm::data
