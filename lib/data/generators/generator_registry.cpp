#include "data/generators/generator_registry.hpp"

#include <charconv>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/find_by_id.hpp"
#include "core/rng.hpp"
#include "data/generators/label_noise.hpp"
#include "data/text_reader.hpp"

namespace sparsesvm::data {

using core::InputError;

const std::string& GeneratorParams::text(const std::string& name) const {
  const auto found = values_.find(name);
  if (found == values_.end()) throw std::logic_error(fmt::format("generator {} has no parameter {}", generator_, name));
  return found->second;
}

void check_sample_size(const std::string& generator, std::size_t n, std::size_t d) {
  constexpr double kMaxValues = 5e7;
  if (static_cast<double>(n) * static_cast<double>(d) > kMaxValues) {
    throw InputError(fmt::format("generator {}: n x d = {} x {} exceeds the limit of {:g} values (400 MB)", generator, n,
                                 d, kMaxValues));
  }
}

double GeneratorParams::real(const std::string& name) const {
  double value = 0.0;
  const std::string& token = text(name);
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (error != std::errc{} || end != token.data() + token.size() || !std::isfinite(value)) {
    throw InputError(fmt::format("generator {}: parameter {} must be a number, found '{}'", generator_, name, token));
  }
  return value;
}

std::size_t GeneratorParams::count(const std::string& name) const {
  const double value = real(name);
  if (value < 0 || value != std::floor(value) || value > 1e12) {
    throw InputError(fmt::format("generator {}: parameter {} must be a non-negative whole number, found '{}'",
                                 generator_, name, text(name)));
  }
  return static_cast<std::size_t>(value);
}

std::uint64_t GeneratorParams::seed() const { return seed_of("seed"); }

std::uint64_t GeneratorParams::seed_of(const std::string& name) const {
  std::uint64_t value = 0;
  const std::string& token = text(name);
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (error != std::errc{} || end != token.data() + token.size()) {
    throw InputError(fmt::format("generator {}: {} must be a non-negative integer, found '{}'", generator_, name, token));
  }
  return value;
}

const std::vector<GeneratorParameter>& common_generator_parameters() {
  static const std::vector<GeneratorParameter> common = {
      {"seed", "1", "seed of std::mt19937_64 for this data set"},
      {"flip_count", "0", "flip the labels of exactly this many examples, chosen at random"},
      {"flip_fraction", "0", "flip the labels of round(fraction * n) examples (use one of the two flip keys)"},
  };
  return common;
}

const std::vector<GeneratorInfo>& generator_registry() {
  static const std::vector<GeneratorInfo> registry = {
      {"dca_gaussians", "[DCA] section 4.1",
       "two Gaussians centred at +e and -e in the informative dimensions, uniform noise dimensions, all scaled",
       {{"n", "100", "number of examples (ceil(n/2) positive)"},
        {"informative", "10", "informative dimensions"},
        {"noise_dims", "0", "noise dimensions, uniform on [noise_low, noise_high]"},
        {"variance", "1.5", "variance of each informative coordinate"},
        {"noise_low", "-1", "lower end of the noise range (not stated in the paper)"},
        {"noise_high", "1", "upper end of the noise range (not stated in the paper)"},
        {"scale", "0.2", "every feature is multiplied by this"}},
       check_dca_gaussians, make_dca_gaussians},
      {"psi_unit_disk", "[PSI] section 3.4",
       "uniform on the unit disk, y = +1 iff x1 >= 0",
       {{"n", "50", "number of examples"}},
       check_psi_unit_disk, make_psi_unit_disk},
      {"psi_quadratic", "[PSI] section 5.1",
       "x uniform on [-2,2]^4, y = sign(x1^2 + x2^2 - 2.8) flipped with a probability, basis-expansion case 1-4",
       {{"n", "100", "number of examples"},
        {"case", "1", "1: x1^2,x2^2; 2: all four squares; 3: squares and x1..x4; 4: also the six products"},
        {"flip_probability", "0.05", "each label is flipped independently with this probability"}},
       check_psi_quadratic, make_psi_quadratic},
      {"rw_relevant", "[RW] section 4.3",
       "balanced unit-variance spherical Gaussians whose means are `distance` apart, split over d_rel features",
       {{"n", "100", "number of examples (half positive)"},
        {"d", "200", "number of features"},
        {"d_rel", "10", "relevant features; each has mean y * distance / (2 sqrt(d_rel))"},
        {"distance", "3", "Euclidean distance between the two class means"}},
       check_rw_relevant, make_rw_relevant},
      {"sparse_categorical", "[ADMM] section 4 (mushrooms' shape)",
       "one-hot categorical attributes stored sparse, label from a planted rule on a few attributes",
       {{"n", "8124", "number of examples"},
        {"d", "112", "binary columns, split over the attributes"},
        {"attributes", "21", "categorical attributes (nonzeros per row)"},
        {"informative", "3", "attributes the label depends on (the first ones)"}},
       check_sparse_categorical, make_sparse_categorical},
      {"text_shaped", "[RW] section 4 Table 2 (Reuters' shape: RCV1 CCAT)",
       "tf-idf rows of unit norm over Zipf-distributed terms, label from a sparse true w on frequent terms",
       {{"n", "2000", "number of examples (half positive)"},
        {"d", "20000", "number of features (terms)"},
        {"nnz_per_row", "100", "mean distinct terms per row (uniform on [k - k/2, k + k/2])"},
        {"zipf", "1", "exponent of Zipf's law for term frequencies"},
        {"informative", "100", "terms of the true w, among the most frequent tenth"},
        {"vocabulary_seed", "1", "seed of the terms' columns and the true w (documents use seed)"}},
       check_text_shaped, make_text_shaped},
      {"nips2003_shaped", "[DCA] A.7 (gisette's and arcene's shape; Guyon et al. 2004)",
       "real features from a few latent class factors plus noise, and probes: real columns permuted across examples",
       {{"n", "6000", "number of examples (half positive)"},
        {"d", "5000", "number of features, probes included"},
        {"probes", "2500", "pure-noise features (gisette 2500 of 5000, arcene 3000 of 10000)"},
        {"latent", "10", "latent class factors behind the real features"},
        {"separation", "4", "distance between the class means of the latent factors (4: Bayes error 2.3%, near a linear SVM's on gisette)"}},
       check_nips2003_shaped, make_nips2003_shaped},
  };
  return registry;
}

const GeneratorInfo& find_generator(const std::string& name) {
  return core::find_by_id(generator_registry(), name, "generator", [](const GeneratorInfo& info) { return info.name; });
}

core::Provenance generator_provenance(const std::string& name, const GeneratorParams& params) {
  core::Provenance provenance{"generator", name, "", {}};
  for (const auto& [key, value] : params.values()) provenance.parameters.emplace_back(key, value);
  return provenance;
}

namespace {

// The parameters of generator `name`: its defaults and the common ones, overridden by `given`.
GeneratorParams resolve_parameters(const std::string& name, const std::map<std::string, std::string>& given) {
  const GeneratorInfo& info = find_generator(name);
  std::map<std::string, std::string> values;
  for (const auto* list : {&info.parameters, &common_generator_parameters()}) {
    for (const GeneratorParameter& p : *list) values[p.name] = p.default_value;
  }
  for (const auto& [key, value] : given) {
    if (!values.contains(key)) {
      std::vector<std::string> known;
      for (const auto& entry : values) known.push_back(entry.first);
      throw InputError(fmt::format("generator {}: unknown parameter '{}' (known: {})", name, key, fmt::join(known, ", ")));
    }
    values[key] = value;
  }
  return GeneratorParams(name, values);
}

// How many labels the flip keys flip in a sample of n (InputError for both keys, or a bad value).
std::size_t flips_for(const std::string& name, const GeneratorParams& params, std::size_t n) {
  const std::size_t flip_count = params.count("flip_count");
  const double flip_fraction = params.real("flip_fraction");
  const std::size_t from_fraction = count_for_fraction(flip_fraction, n);  // refuses a fraction outside [0, 1]
  if (flip_count > 0 && flip_fraction > 0) {
    throw InputError(fmt::format("generator {}: give flip_count or flip_fraction, not both", name));
  }
  if (flip_count > n) throw InputError(fmt::format("generator {}: cannot flip {} labels of {} examples", name, flip_count, n));
  params.seed();
  return flip_count > 0 ? flip_count : from_fraction;
}

std::pair<std::string, std::map<std::string, std::string>> parse_spec(const std::string& spec);

}  // namespace

core::Dataset generate(const std::string& name, const std::map<std::string, std::string>& given) {
  const GeneratorParams params = resolve_parameters(name, given);
  flips_for(name, params, find_generator(name).check(params));
  core::Dataset data = find_generator(name).make(params);
  if (const std::size_t flips = flips_for(name, params, data.n()); flips > 0) {
    core::Rng rng(core::derive_seed({params.seed(), std::string_view("flip_labels")}));
    flip_labels(data, flips, rng);
  }
  return data;
}

std::size_t generated_examples(const std::string& spec) {
  const auto [name, given] = parse_spec(spec);
  const GeneratorParams params = resolve_parameters(name, given);
  const std::size_t n = find_generator(name).check(params);
  flips_for(name, params, n);
  return n;
}

std::string canonical_spec(const std::string& spec) {
  const auto [name, given] = parse_spec(spec);
  std::string text = name;
  char separator = ':';
  const GeneratorParams resolved = resolve_parameters(name, given);
  for (const auto& [key, value] : resolved.values()) {
    double number = 0.0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    const bool numeric = !value.empty() && error == std::errc() && end == value.data() + value.size();
    text += fmt::format("{}{}={}", separator, key, numeric ? fmt::format("{}", number) : value);
    separator = ',';
  }
  return text;
}

namespace {

// "name:key=value,key=value" as the name and the given values.
std::pair<std::string, std::map<std::string, std::string>> parse_spec(const std::string& spec) {
  const std::size_t colon = spec.find(':');
  std::map<std::string, std::string> given;
  if (colon != std::string::npos) {
    for (const Field& field : split_fields(std::string_view(spec).substr(colon + 1), ',')) {
      const std::size_t equals = field.text.find('=');
      if (equals == std::string_view::npos || equals == 0) {
        throw InputError(fmt::format("generator spec '{}': expected key=value, found '{}'", spec, field.text));
      }
      const std::string key(field.text.substr(0, equals));
      if (!given.emplace(key, std::string(field.text.substr(equals + 1))).second) {
        throw InputError(fmt::format("generator spec '{}': '{}' is given twice", spec, key));
      }
    }
  }
  return {spec.substr(0, colon), given};
}

}  // namespace

core::Dataset generate(const std::string& spec) {
  const auto [name, given] = parse_spec(spec);
  return generate(name, given);
}

}  // namespace sparsesvm::data
