#pragma once
// The papers' synthetic data sets, by name. A spec names a generator and sets parameters:
//   "dca_gaussians:noise_dims=100,seed=7"
// Every parameter has a default, all values used (given or default) are recorded in the data set's
// provenance, and an unknown name is an error that lists the known ones. Two parameters apply to every
// generator: flip_count and flip_fraction change the labels of exactly that many examples afterwards
// (label_noise.hpp), drawn with a seed derived from the generator's seed.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/dataset.hpp"

namespace sparsesvm::data {

struct GeneratorParameter {
  std::string name;
  std::string default_value;
  std::string description;
};

// Resolved parameter values with typed access; every lookup names the generator in its error.
class GeneratorParams {
 public:
  GeneratorParams(std::string generator, std::map<std::string, std::string> values)
      : generator_(std::move(generator)), values_(std::move(values)) {}
  double real(const std::string& name) const;
  // A non-negative whole number.
  std::size_t count(const std::string& name) const;
  std::uint64_t seed() const;
  // A seed-valued parameter other than `seed` (a non-negative integer).
  std::uint64_t seed_of(const std::string& name) const;
  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  const std::string& text(const std::string& name) const;
  std::string generator_;
  std::map<std::string, std::string> values_;
};

struct GeneratorInfo {
  std::string name;
  std::string citation;  // paper and section
  std::string summary;
  std::vector<GeneratorParameter> parameters;  // without seed, flip_count and flip_fraction (common to all)
  // Checks the parameters without drawing anything (InputError naming the generator) and returns n.
  std::function<std::size_t(const GeneratorParams&)> check;
  std::function<core::Dataset(const GeneratorParams&)> make;  // begins with check
};

const std::vector<GeneratorInfo>& generator_registry();
const GeneratorInfo& find_generator(const std::string& name);
const std::vector<GeneratorParameter>& common_generator_parameters();

// Builds the data set of a spec "name" or "name:key=value,key=value".
core::Dataset generate(const std::string& spec);
core::Dataset generate(const std::string& name, const std::map<std::string, std::string>& given);
// The spec with every parameter resolved (defaults filled in), sorted by name, numbers written in their
// shortest form: two specs that generate the same data give the same text ("n=60,noise_dims=3" and
// "noise_dims=3,n=60.0,seed=1").
std::string canonical_spec(const std::string& spec);
// The number of examples the spec would generate, its parameters checked as generate() checks them,
// without generating (configs check their generated sets when they load).
std::size_t generated_examples(const std::string& spec);

// The individual generators (see their .cpp files for the paper's description) and their checks.
std::size_t check_dca_gaussians(const GeneratorParams& params);
core::Dataset make_dca_gaussians(const GeneratorParams& params);
std::size_t check_psi_unit_disk(const GeneratorParams& params);
core::Dataset make_psi_unit_disk(const GeneratorParams& params);
std::size_t check_psi_quadratic(const GeneratorParams& params);
core::Dataset make_psi_quadratic(const GeneratorParams& params);
std::size_t check_rw_relevant(const GeneratorParams& params);
core::Dataset make_rw_relevant(const GeneratorParams& params);
std::size_t check_sparse_categorical(const GeneratorParams& params);
core::Dataset make_sparse_categorical(const GeneratorParams& params);
std::size_t check_text_shaped(const GeneratorParams& params);
core::Dataset make_text_shaped(const GeneratorParams& params);
std::size_t check_nips2003_shaped(const GeneratorParams& params);
core::Dataset make_nips2003_shaped(const GeneratorParams& params);

// InputError unless an n x d dense sample fits the limit (5e7 values, 400 MB; gisette's shape is 3e7): a typo like n=1e9 must
// not allocate until the machine gives up.
void check_sample_size(const std::string& generator, std::size_t n, std::size_t d);

// Provenance shared by all generators: kind "generator", the name, and every parameter value.
core::Provenance generator_provenance(const std::string& name, const GeneratorParams& params);

}  // namespace sparsesvm::data
