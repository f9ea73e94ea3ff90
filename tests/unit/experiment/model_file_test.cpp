// Model files (experiment/model_file.hpp): a written model reads back to the same doubles, transforms
// included, and a damaged file is refused naming the key.
#include <catch2/catch.hpp>
#include <filesystem>
#include <cmath>
#include <regex>

#include "core/errors.hpp"
#include "core/rng.hpp"
#include "experiment/csv.hpp"
#include "experiment/model_file.hpp"

using namespace sparsesvm;

namespace {

core::Dataset awkward_data() {
  core::Rng rng(3);
  core::DenseMatrix x(30, 4);
  core::Vector y(30);
  for (Eigen::Index i = 0; i < 30; ++i) {
    y[i] = i % 2 == 0 ? 1.0 : -1.0;
    for (Eigen::Index j = 0; j < 4; ++j) x(i, j) = rng.normal(0.1 * static_cast<double>(j), 1.0) * std::pow(10.0, 3 * j - 4);
  }
  return core::Dataset("awkward", x, y, {"a", "b c", "d,e", "f"}, {});
}

}  // namespace

TEST_CASE("a model file reads back to the same doubles, its transforms included", "[experiment][model_file]") {
  core::Dataset train = awkward_data();
  experiment::SavedModel saved;
  saved.commit = "abc";
  saved.method = "OneNormSVM";
  saved.parameters = {{"lambda", 0.1}, {"lp_form", 0}};
  saved.status = "optimal";
  saved.objective = 1.0 / 3.0;
  saved.stop_reason = "one convex solve";
  saved.statistics = {{"lp_relative_gap", 1e-17}};
  saved.train_name = train.name();
  saved.train_n = train.n();
  saved.train_source = "generated";
  saved.loader_format = "delimited";
  saved.loader_options = {{"positive", "-1"}, {"label_column", "0"}};
  for (const std::string name : {"impute_mean", "standardize", "scale", "unit_norm"}) {
    saved.transforms.push_back(data::make_transform(name));
  }
  data::fit_and_apply(saved.transforms, train, {});
  saved.features = train.feature_names();
  saved.model = core::LinearModel(core::Vector{{std::nextafter(0.1, 1.0), -1e-300, 0.0, 123456.789}}, -std::exp(1.0));
  const std::string path = (std::filesystem::temp_directory_path() / "sparsesvm_model_test.yaml").string();
  experiment::write_model_file(path, saved);
  const experiment::SavedModel read = experiment::read_model_file(path);
  CHECK(read.method == saved.method);
  CHECK(read.parameters == saved.parameters);
  CHECK(read.objective == saved.objective);
  CHECK(read.statistics == saved.statistics);
  CHECK(read.loader_options == saved.loader_options);
  CHECK(read.features == saved.features);
  CHECK(read.model.w() == saved.model.w());
  CHECK(read.model.b() == saved.model.b());
  REQUIRE(read.transforms.size() == saved.transforms.size());
  for (std::size_t k = 0; k < saved.transforms.size(); ++k) {
    CHECK(read.transforms[k]->name() == saved.transforms[k]->name());
    CHECK(read.transforms[k]->learned() == saved.transforms[k]->learned());
  }
  // The restored transforms map fresh data as the fitted ones do.
  core::Dataset fresh_by_saved = awkward_data(), fresh_by_read = awkward_data();
  for (std::size_t k = 0; k < saved.transforms.size(); ++k) {
    saved.transforms[k]->apply(fresh_by_saved);
    read.transforms[k]->apply(fresh_by_read);
  }
  CHECK(fresh_by_read.dense() == fresh_by_saved.dense());

  // Damage: a transform vector of the wrong length, a weight that is not a number.
  std::string text = experiment::read_whole_file(path);
  const std::string shortened = std::regex_replace(text, std::regex("mean: \\[[^,]*, "), "mean: [", std::regex_constants::format_first_only);
  experiment::write_file_atomically(path, shortened);
  CHECK_THROWS_WITH(experiment::read_model_file(path), Catch::Contains("transform impute_mean: 'mean' has 3 values, 4 expected"));
  experiment::write_file_atomically(path, std::regex_replace(text, std::regex("bias: .*"), "bias: high"));
  CHECK_THROWS_WITH(experiment::read_model_file(path), Catch::Contains("model file's 'bias' is not a number"));
  std::filesystem::remove(path);
}
