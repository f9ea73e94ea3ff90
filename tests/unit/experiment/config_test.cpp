#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/errors.hpp"
#include "experiment/config.hpp"
#include "experiment/tasks.hpp"
#include "test_files.hpp"

using namespace sparsesvm;
using sparsesvm::testing::write_file;

namespace {

const std::string kGood = R"(name: tiny
seed: 3
datasets:
  - name: g
    generator: dca_gaussians
    params: {n: 40}
    grid: {noise_dims: [0, 5]}
methods: [OneNormSVM, {name: RLSVM0, a: 2}]
grid: {lambda: [0.5, 1]}
protocol:
  outer: {type: holdout, repetitions: 2}
  inner: {type: kfold, folds: 3}
)";

std::string config_with(const std::string& from, const std::string& to) {
  std::string text = kGood;
  text.replace(text.find(from), from.size(), to);
  return text;
}


// Loading `base` with `from` replaced by `to` fails with an error containing `message`.
void check_rejects(const std::string& base, const std::string& from, const std::string& to, const std::string& message) {
  std::string text = base;
  REQUIRE(text.find(from) != std::string::npos);
  text.replace(text.find(from), from.size(), to);
  INFO(to);
  CHECK_THROWS_WITH(experiment::load_config(write_file("rejected.yaml", text)), Catch::Contains(message));
}

}  // namespace

TEST_CASE("a long data set name keeps task file names within 255 bytes, and ids apart", "[config][tasks]") {
  const std::string name(240, 'g');
  const auto config = experiment::load_config(write_file("long_name.yaml", config_with("  - name: g\n", "  - name: " + name + "\n")));
  const std::vector<experiment::Task> tasks = experiment::plan_tasks(config);
  std::set<std::string> ids;
  for (const experiment::Task& task : tasks) {
    INFO(task.id);
    CHECK(task.id.rfind(name.substr(0, 100), 0) == 0);  // still begins with the name
    CHECK((task.id + ".csv.tmp.4194304").size() <= 255);  // the longest name an atomic write gives its file
    ids.insert(task.id);
  }
  CHECK(ids.size() == tasks.size());
  const auto short_name = experiment::load_config(write_file("short_name.yaml", kGood));
  CHECK(experiment::plan_tasks(short_name).front().id.rfind("g__noise_dims=0__rep000__OneNormSVM__", 0) == 0);
}

TEST_CASE("a valid config expands into conditions and tasks", "[config]") {
  const experiment::ExperimentConfig config = experiment::load_config(write_file("tiny.yaml", kGood));
  REQUIRE(config.datasets.size() == 2);
  CHECK(config.datasets[1].condition == "noise_dims=5");
  CHECK(config.datasets[1].source.location == "dca_gaussians:n=40,noise_dims=5");
  CHECK(config.methods[1].fixed.at("a") == 2.0);
  CHECK(experiment::plan_tasks(config).size() == 2 * 2 * 2);
  // Shards take whole groups (data set instance x repetition): 4 groups of 2 tasks; shard 1 of 3 gets group 1.
  const auto shard = experiment::shard_tasks(experiment::plan_tasks(config), 1, 3);
  REQUIRE(shard.size() == 2);
  CHECK(shard[0].dataset == shard[1].dataset);
  CHECK(shard[0].repetition == shard[1].repetition);
  CHECK(shard[0].method != shard[1].method);
}

TEST_CASE("a sweep expands the methods that take its parameter into labelled variants", "[config]") {
  const std::string text = R"(name: sweep
datasets:
  - {name: g, generator: dca_gaussians, params: {n: 40}}
methods: [OneNormSVM, RLSVM0]
grid: {lambda: [1]}
sweep: {a: [2, 4], mu: [0.5, 1]}
)";
  const experiment::ExperimentConfig config = experiment::load_config(write_file("sweep.yaml", text));
  std::vector<std::string> labels;
  for (const experiment::MethodEntry& method : config.methods) labels.push_back(method.label);
  CHECK(labels == std::vector<std::string>{"OneNormSVM", "RLSVM0_a2_mu0.5", "RLSVM0_a2_mu1", "RLSVM0_a4_mu0.5",
                                           "RLSVM0_a4_mu1"});
  CHECK(config.methods[3].fixed.at("a") == 4.0);
  CHECK(config.methods[3].fixed.at("mu") == 0.5);
  CHECK(config.methods[0].fixed.empty());
  // The command line's form (run --sweep a=2,4 is this override) sets the block where the file has none.
  std::string without = text;
  without.erase(without.find("sweep:"));
  const auto swept = experiment::load_config(write_file("no_sweep.yaml", without), {"sweep.a=[3]"});
  REQUIRE(swept.methods.size() == 2);
  CHECK(swept.methods[1].label == "RLSVM0_a3");
  // Errors name the key: a parameter no method takes, a bad value, an entry that fixes the key itself.
  check_rejects(text, "mu: [0.5, 1]", "zeta: [1]", "sweep.zeta: no method of this config takes a parameter 'zeta'");
  check_rejects(text, "a: [2, 4]", "a: [2, -4]", "sweep.a[1]: method RLSVM0: ");
  check_rejects(text, "a: [2, 4]", "a: [2, 2]", "sweep.a");
  check_rejects(text, "[OneNormSVM, RLSVM0]", "[OneNormSVM, {name: RLSVM0, a: 3}]",
                "sweep.a: method RLSVM0 fixes a itself");
  check_rejects(text, "[OneNormSVM, RLSVM0]", "[OneNormSVM, RLSVM0, {name: OneNormSVM, label: RLSVM0_a2_mu1}]",
                "sweep: the sweep makes the label 'RLSVM0_a2_mu1', which another method entry has");
}

TEST_CASE("generator grid values are plain and distinct; labels begin with a letter or digit", "[config]") {
  check_rejects(kGood, "noise_dims: [0, 5]", "noise_dims: [5, 5.0]", "datasets[0].grid.noise_dims[1]: '5.0' repeats");
  check_rejects(kGood, "noise_dims: [0, 5]", "noise_dims: [0, \"5,flip_count=3\"]",
                "datasets[0].grid.noise_dims[1]: '5,flip_count=3': expected a plain value");
  check_rejects(kGood, "{name: RLSVM0, a: 2}", "{name: RLSVM0, a: 2, label: _hidden}", "beginning with a letter or digit");
  const std::string path = write_file("tiny_paths.yaml", kGood);
  CHECK_THROWS_WITH(experiment::load_config(path, {"name.x=1"}),
                    Catch::Contains("override 'name.x=1': the path goes through a value"));
  CHECK_THROWS_WITH(experiment::load_config(path, {".a=1"}), Catch::Contains("override '.a=1': an empty key"));
}

TEST_CASE("train_tune_test takes tune: 0 only when no method tunes anything", "[config]") {
  const std::string text = R"(name: no_tune
datasets:
  - {name: disk, generator: psi_unit_disk, params: {n: 30}}
methods: [SVM-C]
grid: {C: [1]}
protocol:
  outer: {type: train_tune_test, train: 30, tune: 0, test: 500, independent_test: true, repetitions: 1}
)";
  CHECK(experiment::load_config(write_file("no_tune.yaml", text)).protocol.tune_size == 0);
  check_rejects(text, "grid: {C: [1]}", "grid: {C: [1, 10]}", "protocol.outer.tune: 0 leaves nothing to select on");
}

TEST_CASE("a given split takes train alone, one repetition, on a file", "[config]") {
  const std::string file = write_file("given.csv", "x,y\n1,1\n2,1\n3,0\n4,0\n5,1\n6,0\n");
  const std::string text = R"(name: given
datasets:
  - {name: f, file: )" + file + R"(}
methods: [OneNormSVM]
grid: {lambda: [1]}
protocol:
  outer: {type: given, train: 20}
  inner: {type: kfold, folds: 3}
)";
  const auto config = experiment::load_config(write_file("given.yaml", text));
  CHECK(config.protocol.outer == experiment::Outer::given);
  CHECK(config.protocol.train_size == 20);
  CHECK(config.protocol.repetitions == 1);
  CHECK(experiment::outer_count(config.protocol) == 1);
  check_rejects(text, "{type: given, train: 20}", "{type: given}", "protocol.outer: given needs train");
  check_rejects(text, "train: 20}", "train: 20, repetitions: 3}", "protocol.outer.repetitions: a given split is one split");
  check_rejects(text, "train: 20}", "train: 20, test_fraction: 0.5}", "protocol.outer.test_fraction: a given split is the file's order");
  check_rejects(text, "train: 20}", "train: 20, stratified: true}", "protocol.outer.stratified: a given split");
  check_rejects(text, "{name: f, file: " + file + "}", "{name: g, generator: dca_gaussians, params: {n: 30}}",
                "protocol.outer.type: data set 'g' is generated; a given split is a file's order");
  check_rejects(kGood, "repetitions: 2}", "repetitions: 2, train: 5}", "protocol.outer.train: applies to types train_tune_test and given");
}

TEST_CASE("shards are balanced by data set size and cover every task once", "[config]") {
  // Three data sets of 400, 40 and 400 examples, one repetition each, over two shards: by plan order
  // (group mod 2) both large sets would share shard 0; balanced, they are apart.
  const std::string text = R"(name: shards
datasets:
  - {name: large1, generator: dca_gaussians, params: {n: 400}}
  - {name: small, generator: dca_gaussians, params: {n: 40}}
  - {name: large2, generator: dca_gaussians, params: {n: 400}}
methods: [OneNormSVM, SVM]
grid: {lambda: [1]}
protocol: {outer: {type: holdout, repetitions: 1}, inner: {type: none}}
)";
  const experiment::ExperimentConfig config = experiment::load_config(write_file("shards.yaml", text));
  const std::vector<experiment::Task> tasks = experiment::plan_tasks(config);
  const auto shard0 = experiment::shard_tasks(tasks, 0, 2);
  const auto shard1 = experiment::shard_tasks(tasks, 1, 2);
  const auto datasets_of = [](const std::vector<experiment::Task>& shard) {
    std::set<std::size_t> datasets;
    for (const experiment::Task& task : shard) datasets.insert(task.dataset);
    return datasets;
  };
  CHECK(datasets_of(shard0) == std::set<std::size_t>{0, 1});
  CHECK(datasets_of(shard1) == std::set<std::size_t>{2});
  CHECK(shard0.size() + shard1.size() == tasks.size());
  // More shards than groups: the extra shards are empty, every task is in exactly one shard.
  std::multiset<std::string> seen;
  for (std::size_t k = 0; k < 5; ++k) {
    for (const experiment::Task& task : experiment::shard_tasks(tasks, k, 5)) seen.insert(task.id);
  }
  CHECK(seen.size() == tasks.size());
  for (const experiment::Task& task : tasks) CHECK(seen.count(task.id) == 1);
}

TEST_CASE("overrides change values by key path", "[config]") {
  const std::string path = write_file("tiny_override.yaml", kGood);
  const auto config = experiment::load_config(path, {"protocol.outer.repetitions=5", "methods.0=SVM", "seed=9"});
  CHECK(config.protocol.repetitions == 5);
  CHECK(config.methods[0].name == "SVM");
  CHECK(config.seed == 9);
  CHECK_THROWS_WITH(experiment::load_config(path, {"protocol.outter.repetitions=5"}),
                    Catch::Contains("override 'protocol.outter.repetitions=5': protocol.outter: unknown key"));
  CHECK_THROWS_WITH(experiment::load_config(path, {"datasets.3.name=x"}),
                    Catch::Contains("'3' is not an index of this list (0 to 0)"));
  // A section the file omits (the schema defaults it) can be set too.
  std::string without_protocol = kGood;
  without_protocol.erase(without_protocol.find("protocol:"));
  const std::string omitted = write_file("tiny_no_protocol.yaml", without_protocol);
  CHECK(experiment::load_config(omitted, {}).protocol.repetitions == 20);
  const auto set = experiment::load_config(omitted, {"protocol.outer.repetitions=4", "protocol.inner.folds=3"});
  CHECK(set.protocol.repetitions == 4);
  CHECK(set.protocol.inner_folds == 3);
  // Errors in values typed on the command line name the override, not the file.
  CHECK_THROWS_WITH(experiment::load_config(path, {"protocol.outer.repetitions=-1"}),
                    Catch::Contains("override 'protocol.outer.repetitions=-1': protocol.outer.repetitions: expected a "
                                    "positive integer"));
  CHECK_THROWS_WITH(experiment::load_config(path, {"datasets.0.params.n=abc"}),
                    Catch::Contains("override 'datasets.0.params.n=abc': datasets[0]"));
  CHECK_THROWS_WITH(experiment::load_config(path, {"seed=2", "grid.lambda=[0]"}),
                    Catch::Contains("override 'grid.lambda=[0]': grid.lambda[0]"));
  // A key the overrides did not touch is still the file's.
  CHECK_THROWS_WITH(experiment::load_config(write_file("tiny_bad.yaml", config_with("repetitions: 2", "repetitions: 0")),
                                            {"seed=2"}),
                    Catch::Contains("tiny_bad.yaml: protocol.outer.repetitions"));
}

TEST_CASE("malformed configs name the file and the key", "[config]") {
  const auto error_of = [](const std::string& name, const std::string& text) {
    const std::string path = write_file(name, text);
    try {
      experiment::load_config(path);
    } catch (const core::ConfigError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of("typo.yaml", config_with("repetitions: 2", "repetitons: 2")),
             Catch::Contains("typo.yaml: protocol.outer.repetitons: unknown key (did you mean 'repetitions'? known: folds, fresh_sample, independent_test, "
                             "partitions, repetitions, stratified, test, test_fraction, train, tune, type)"));
  CHECK_THAT(error_of("method.yaml", config_with("OneNormSVM", "OneNormSVN")),
             Catch::Contains("methods[0]: unknown method 'OneNormSVN'"));
  CHECK_THAT(error_of("hyper.yaml", config_with("a: 2", "b: 2")),
             Catch::Contains("methods[1]: method RLSVM0: unknown parameter 'b'"));
  CHECK_THAT(error_of("linf_crossover.yaml", config_with("OneNormSVM", "{name: SVM-inf, lp_form: crossover}")),
             Catch::Contains("methods[0]: method SVM-inf: lp_form crossover solves l1 LPs only"));
  CHECK_THAT(error_of("l1_crossover.yaml", config_with("OneNormSVM", "{name: OneNormSVM, lp_form: crossover}")),
             Catch::Equals("no error"));
  CHECK_THAT(error_of("lambda.yaml", config_with("[0.5, 1]", "[0.5, x]")),
             Catch::Contains("grid.lambda[1]: expected a number, found 'x'"));
  CHECK_THAT(error_of("generator.yaml", config_with("noise_dims: [0, 5]", "noise: [0, 5]")),
             Catch::Contains("datasets[0]: generator dca_gaussians: unknown parameter 'noise'"));
  CHECK_THAT(error_of("outer.yaml", config_with("type: holdout", "type: bootstrap")),
             Catch::Contains("protocol.outer.type: unknown outer protocol 'bootstrap'"));
  CHECK_THAT(error_of("outer_typo.yaml", config_with("type: holdout", "type: holdot")),
             Catch::Contains("protocol.outer.type: unknown outer protocol 'holdot' (did you mean 'holdout'? known: "
                             "holdout, kfold, half_half, train_tune_test, given)"));
  CHECK_THAT(error_of("inner_typo.yaml", config_with("type: kfold", "type: kfolds")),
             Catch::Contains("protocol.inner.type: unknown inner selection 'kfolds' (did you mean 'kfold'?"));
  CHECK_THAT(error_of("metric.yaml", config_with("folds: 3}", "folds: 3, metric: balanced_acuracy}")),
             Catch::Contains("metric.yaml: protocol.inner.metric: unknown metric 'balanced_acuracy' (did you mean "
                             "'balanced_accuracy'? known: accuracy, error_rate, balanced_accuracy, f1, roc_auc)"));
  CHECK_THAT(error_of("coin_f1.yaml", config_with("folds: 3}", "folds: 3, metric: f1}\n  selection: {near_zero_norm: 1e-4}")),
             Catch::Contains("protocol.selection.near_zero_norm: scores a near-zero model as a coin"));
  CHECK_THAT(error_of("ties.yaml", kGood + "  selection: {ties: most_regularised}\n"),
             Catch::Contains("protocol.selection.ties: unknown tie rule 'most_regularised' (did you mean 'most_regularized'?"));
  CHECK_THAT(error_of("syntax.yaml", "name: [unclosed\n"), Catch::Contains("syntax.yaml:") && Catch::Contains("YAML syntax error"));
  CHECK_THAT(error_of("top.yaml", kGood + "extra: 1\n"), Catch::Contains("top.yaml: extra: unknown key"));
  CHECK_THAT(error_of("dupkey.yaml", kGood + "seed: 4\n"), Catch::Contains("dupkey.yaml: seed: given twice"));
  CHECK_THAT(error_of("twodocs.yaml", kGood + "---\nseed: 4\n"), Catch::Contains("holds 2 YAML documents"));
  CHECK_THAT(error_of("mapkey.yaml", kGood + "tables: {[a, b]: 1}\n"), Catch::Contains("a mapping key must be a plain name"));
  CHECK_THAT(error_of("reps.yaml", config_with("repetitions: 2", "repetitions: 1000000000")),
             Catch::Contains("protocol.outer.repetitions: 1000000000 is more than 100000"));
  CHECK_THAT(error_of("cycle.yaml", "a: &x\n  b: *x\n"), Catch::Contains("nests deeper than 32 levels"));
  const std::string good = write_file("override_values.yaml", kGood);
  CHECK_THROWS_WITH(experiment::load_config(good, {"seed=["}), Catch::Contains("override 'seed=[': the value is not valid YAML"));
  CHECK_THROWS_WITH(experiment::load_config(good, {"grid={lambda: [1], lambda: [2]}"}),
                    Catch::Contains("grid.lambda: given twice"));
  CHECK_THAT(error_of("transform.yaml", config_with("params: {n: 40}", "params: {n: 40}\n    transforms: [whiten]")),
             Catch::Contains("datasets[0].transforms[0]: unknown transform 'whiten'"));
}

TEST_CASE("a missing data file is skipped with a hint, not an error", "[config]") {
  const std::string text = config_with("  - name: g\n", "  - name: bupa\n    file: /nonexistent/bupa.data\n    fetch: run "
                                                         "scripts/fetch_datasets.sh bupa\n  - name: g\n");
  const auto config = experiment::load_config(write_file("missing.yaml", text));
  std::vector<std::string> missing;
  const auto tasks = experiment::plan_tasks(config, &missing);
  REQUIRE(missing.size() == 1);
  CHECK_THAT(missing[0], Catch::Contains("/nonexistent/bupa.data: not present; run scripts/fetch_datasets.sh bupa"));
  CHECK(tasks.size() == 8);
}

TEST_CASE("grid, labels and selection are checked against the methods' parameter tables", "[config]") {
  const auto error_of = [](const std::string& name, const std::string& text) {
    try {
      experiment::load_config(write_file(name, text));
    } catch (const core::ConfigError& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error_of("neg_lambda.yaml", config_with("[0.5, 1]", "[0.5, -1]")),
             Catch::Contains("grid.lambda[1]: method OneNormSVM: lambda must lie in (0, 10000000000], found -1"));
  CHECK_THAT(error_of("nan_lambda.yaml", config_with("[0.5, 1]", "[0.5, .nan]")), Catch::Contains("grid.lambda[1]"));
  CHECK_THAT(error_of("mu.yaml", config_with("grid: {lambda: [0.5, 1]}", "grid: {lambda: [0.5, 1], mu: [0.5, 2]}")),
             Catch::Contains("grid.mu[1]: method RLSVM0: mu must lie in [1e-06, 1], found 2"));
  CHECK_THAT(error_of("unused.yaml", config_with("grid: {lambda: [0.5, 1]}", "grid: {lambda: [0.5, 1], rho: [1]}")),
             Catch::Contains("grid.rho: no method of this config tunes this parameter"));
  // A method that fixes a parameter does not tune it: its range does not apply to the grid, and a grid
  // key only fixed methods take is unused.
  std::string fixed = config_with("[OneNormSVM, {name: RLSVM0, a: 2}]", "[OneNormSVM, {name: FSV, lambda: 0.3}]");
  fixed.replace(fixed.find("[0.5, 1]"), 8, "[0.5, 2]");  // 2 is outside FSV's (0, 1), but FSV fixes lambda
  CHECK_NOTHROW(experiment::load_config(write_file("fixed.yaml", fixed)));
  CHECK_THAT(error_of("fixed_a.yaml", config_with("grid: {lambda: [0.5, 1]}", "grid: {lambda: [0.5, 1], a: [1, 2]}")),
             Catch::Contains("grid.a: no method of this config tunes this parameter"));
  CHECK_THAT(error_of("label_chars.yaml", config_with("{name: RLSVM0, a: 2}", "{name: RLSVM0, a: 2, label: A B}")),
             Catch::Contains("methods[1].label: 'A B': use letters, digits and . _ - =, beginning"));
  CHECK_THAT(error_of("same_name.yaml", config_with("  - name: g\n", "  - name: g\n    generator: dca_gaussians\n  - name: g\n")),
             Catch::Contains("datasets[1].name: 'g' is also datasets[0]"));
  CHECK_THAT(error_of("independent_file.yaml", "datasets: [{name: f, file: " + testing::repo_file("datasets/sonar.csv") +
                                                    "}]\nmethods: [SVM]\nprotocol:\n  outer: {type: train_tune_test, "
                                                    "train: 50, tune: 50, test: 100, independent_test: true}\n"),
             Catch::Contains("protocol.outer.independent_test: data set 'f' is a file"));
  // inner: none with a grid of two values used to take the first silently.
  CHECK_THAT(error_of("none.yaml", config_with("inner: {type: kfold, folds: 3}", "inner: {type: none}")),
             Catch::Contains("grid.lambda: 2 values but protocol.inner.type is none"));
  CHECK_THAT(error_of("dup.yaml", config_with("[OneNormSVM, {name: RLSVM0, a: 2}]", "[RLSVM0, {name: RLSVM0, a: 2}]")),
             Catch::Contains("methods[1]: 'RLSVM0' is also methods[0]"));
  const auto labelled = experiment::load_config(write_file(
      "labels.yaml", config_with("[OneNormSVM, {name: RLSVM0, a: 2}]", "[RLSVM0, {name: RLSVM0, a: 2, label: RLSVM0_a2}]")));
  CHECK(labelled.methods[1].label == "RLSVM0_a2");
  CHECK(experiment::plan_tasks(labelled)[1].id.find("RLSVM0_a2") != std::string::npos);
  CHECK_THAT(error_of("median.yaml", config_with("grid: {lambda: [0.5, 1]}", "grid: {lambda: [0.5, 1], mu: [0.5, 1]}") +
                                         "  selection: {rule: median_of_best}\n"),
             Catch::Contains("median_of_best takes one tuned parameter; method RLSVM0 tunes lambda, mu"));
  CHECK_NOTHROW(experiment::load_config(write_file(
      "median_one_mu.yaml", config_with("grid: {lambda: [0.5, 1]}", "grid: {lambda: [0.5, 1], mu: [1]}") +
                                "  selection: {rule: median_of_best}\n")));
  CHECK_THAT(error_of("ttt.yaml", config_with("outer: {type: holdout, repetitions: 2}", "outer: {type: train_tune_test, train: 10}")),
             Catch::Contains("train_tune_test needs the sizes train, tune and test; tune is missing"));
  const auto columns = experiment::result_columns(experiment::load_config(write_file("cols.yaml", kGood)));
  CHECK(std::find(columns.begin(), columns.end(), "lambda") != columns.end());
  CHECK(std::find(columns.begin(), columns.end(), "a") != columns.end());
  CHECK(std::find(columns.begin(), columns.end(), "mu") != columns.end());  // RLSVM0's ramp
  CHECK(std::find(columns.begin(), columns.end(), "simplex_iterations") != columns.end());
}

TEST_CASE("the RW paper's config keys are checked: convergence tables, figures, method_grid, near_zero_norm",
          "[config]") {
  const std::string walk = R"(name: walk
datasets:
  - name: g
    generator: rw_relevant
    params: {n: 40, d: 20}
    grid: {d_rel: [1, 5]}
methods:
  - {name: RW, C: 1, rw_iterations: 5, bias_feature: 0, label: RW_C1}
  - {name: RW, C: 10, rw_iterations: 5, bias_feature: 0, label: RW_C10}
  - {name: OneNormSVM-C, C: 1, label: LP_C1}
  - {name: OneNormSVM-C, C: 10, label: LP_C10}
protocol:
  outer: {type: half_half, repetitions: 1}
  inner: {type: none}
tables:
  convergence: {walk: RW, optimum: OneNormSVM-C}
figures:
  - {kind: convergence, file: conv.png}
  - {kind: metric_by_condition, metric: accuracy, x: d_rel, as_error: true, file: err.png}
)";
  CHECK_NOTHROW(experiment::load_config(write_file("walk_good.yaml", walk)));
  const auto rejects = [&](const std::string& from, const std::string& to, const std::string& message) {
    check_rejects(walk, from, to, message);
  };
  rejects("optimum: OneNormSVM-C}", "optimum: RW}", "RW does not find an optimum");
  rejects("walk: RW,", "walk: OneNormSVM-C,", "solves its objective at once");
  rejects("C: 10, rw_iterations: 5", "C: 10, rw_iterations: 4", "differ in more than OneNormSVM-C's parameters");
  rejects("{kind: convergence, file: conv.png}", "{kind: convergence, file: conv.png, x: d_rel}", "takes no metric, x");
  rejects("metric: accuracy, x: d_rel, as_error: true", "metric: n_features, x: d_rel, as_error: true",
          "figures[1].as_error");
  rejects("x: d_rel", "x: n", "figures[1].x: 'n' is not a generator parameter");
  rejects("inner: {type: none}", "inner: {type: none}\n  selection: {near_zero_norm: 1e-4}",
          "protocol.selection.near_zero_norm: scores inner selection");

  const std::string grids = config_with("grid: {lambda: [0.5, 1]}", "grid: {lambda: [0.5, 1, 0.5]}");
  CHECK_THROWS_WITH(experiment::load_config(write_file("dup_grid.yaml", grids)), Catch::Contains("grid.lambda[2]: 0.5 is listed twice"));
  const std::string own = config_with("    grid: {noise_dims: [0, 5]}", "    grid: {noise_dims: [0, 5]}\n    method_grid: {lambda: [2]}");
  CHECK_THROWS_WITH(experiment::load_config(write_file("own_grid.yaml", own)),
                    Catch::Contains("datasets[0].method_grid.lambda: gives 1 value(s) where grid.lambda gives 2"));
  const std::string own_good = config_with("    grid: {noise_dims: [0, 5]}", "    grid: {noise_dims: [0, 5]}\n    method_grid: {lambda: [2, 3]}");
  const auto config = experiment::load_config(write_file("own_grid_good.yaml", own_good));
  CHECK(config.datasets[0].method_grid.at("lambda") == std::vector<double>{2, 3});
}

TEST_CASE("the ADMM paper's config keys are checked: objective ratios, bar figures, statistics as metrics", "[config]") {
  const std::string admm = R"(name: admm
datasets:
  - {name: g, generator: dca_gaussians, params: {n: 40}}
methods:
  - {name: ADMM-SCAD, rho2_per_n: 1}
  - DCA-SCAD
  - OneNormSVM-mean
protocol:
  outer: {type: holdout, repetitions: 1}
  inner: {type: none}
tables:
  metrics: [objective, iteration_s]
  objective_ratio: [[ADMM-SCAD, DCA-SCAD]]
figures:
  - {kind: metric_by_dataset, metric: objective, file: f.png}
)";
  const auto config = experiment::load_config(write_file("admm_good.yaml", admm));
  REQUIRE(config.objective_ratios.size() == 1);
  CHECK(config.objective_ratios[0] == std::pair<std::string, std::string>{"ADMM-SCAD", "DCA-SCAD"});
  const auto rejects = [&](const std::string& from, const std::string& to, const std::string& message) {
    check_rejects(admm, from, to, message);
  };
  rejects("[[ADMM-SCAD, DCA-SCAD]]", "[[ADMM-SCAD, OneNormSVM-mean]]", "tables.objective_ratio[0]: ADMM-SCAD (hinge + scad, weighting mean)");
  rejects("[[ADMM-SCAD, DCA-SCAD]]", "[[ADMM-SCAD, ADMM-SCAD]]", "compares 'ADMM-SCAD' with itself");
  rejects("objective_ratio: [[ADMM-SCAD, DCA-SCAD]]", "objective_ratio: []", "expected a non-empty list");
  rejects("[[ADMM-SCAD, DCA-SCAD]]", "[[ADMM-SCAD, DCA-MCP]]", "'DCA-MCP' is not a method label");
  rejects("[[ADMM-SCAD, DCA-SCAD]]", "[[ADMM-SCAD]]", "expected exactly two method labels");
  rejects("  - DCA-SCAD\n", "  - {name: DCA-SCAD, theta: 3}\n", "ADMM-SCAD and DCA-SCAD differ in theta (3.7 vs 3)");
  rejects("inner: {type: none}", "inner: {type: kfold, folds: 2}\ngrid: {lambda: [0.1, 1]}",
          "but 'ADMM-SCAD' tunes lambda");
  rejects("metrics: [objective, iteration_s]", "metrics: [objective, iteration_x]", "unknown metric 'iteration_x'");
  rejects("{kind: metric_by_dataset, metric: objective, file: f.png}",
          "{kind: metric_by_dataset, metric: objective, x: n, file: f.png}", "takes no x");
}

TEST_CASE("a generated set's protocol parts are checked when the config loads", "[config]") {
  const std::string base = R"(name: sizes
datasets:
  - {name: g, generator: dca_gaussians, params: {n: 20}}
methods: [OneNormSVM]
grid: {lambda: [1]}
protocol:
  outer: {type: holdout, test_fraction: 0.3, repetitions: 1}
  inner: {type: kfold, folds: 3}
)";
  CHECK_NOTHROW(experiment::load_config(write_file("sizes_good.yaml", base)));
  check_rejects(base, "test_fraction: 0.3", "test_fraction: 0.01",
                "protocol.outer.test_fraction: data set 'g' has n = 20: a test part of 0 example(s)");
  check_rejects(base, "{type: holdout, test_fraction: 0.3, repetitions: 1}", "{type: kfold, folds: 21}",
                "protocol.outer.folds: data set 'g' has n = 20, fewer than 21 folds");
  check_rejects(base, "folds: 3}", "folds: 15}", "protocol.inner.folds: data set 'g' has n = 20: its training parts of 14");
  check_rejects(base, "folds: 3}", "folds: 1}", "protocol.inner.folds: k-fold needs at least 2 folds");
  // Sizes a type does not use are named with the type in effect, before their values are checked.
  const std::string outer = "{type: holdout, test_fraction: 0.3, repetitions: 1}";
  const std::string inner = "{type: kfold, folds: 3}";
  const std::string kfold_only = "applies to type kfold only; protocol.outer.type is ";
  const std::string tuning_sets_only = "applies to inner type tuning_sets only; protocol.inner.type is kfold";
  const struct {
    std::string from, to, message;
  } unused_sizes[] = {
      {outer, "{type: holdout, repetitions: 1, folds: 5}", "protocol.outer.folds: " + kfold_only + "holdout"},
      {outer, "{test_fraction: 0.3, folds: 0}", "protocol.outer.folds: " + kfold_only + "holdout"},  // type defaulted
      {outer, "{type: kfold, folds: 4, test_fraction: 0.3}",
       "protocol.outer.test_fraction: applies to type holdout only; protocol.outer.type is kfold"},
      {outer, "{type: kfold, folds: 4, repetitions: 3}",
       "protocol.outer.repetitions: applies to types holdout, half_half, train_tune_test and given only; "
       "protocol.outer.type is kfold (k-fold repeats by partitions)"},
      {inner, "{type: tuning_sets, folds: 3}",
       "protocol.inner.folds: applies to inner type kfold only; protocol.inner.type is tuning_sets"},
      {inner, "{type: none, folds: 0}", "protocol.inner.folds: applies to inner type kfold only; protocol.inner.type is none"},
      {inner, "{type: kfold, parts: 4}", "protocol.inner.parts: " + tuning_sets_only},
      {inner, "{type: kfold, fraction: 0.2}", "protocol.inner.fraction: " + tuning_sets_only},
  };
  for (const auto& unused : unused_sizes) check_rejects(base, unused.from, unused.to, unused.message);
  CHECK_NOTHROW(experiment::load_config(write_file("sizes_tuning_sets.yaml", [&] {
    std::string text = base;
    text.replace(text.find(inner), inner.size(), "{type: tuning_sets, parts: 4, fraction: 0.2}");
    return text;
  }())));
  check_rejects(base, "params: {n: 20}}", "params: {n: 20}, loader: {header: true}}", "loader: applies to files only");
}

TEST_CASE("keep: [weights] is the only kept output; keeping weights does not change task ids", "[config]") {
  const auto plain = experiment::load_config(write_file("plain.yaml", kGood));
  const auto kept = experiment::load_config(write_file("kept.yaml", kGood + "keep: [weights]\n"));
  CHECK(!plain.keep_weights);
  CHECK(kept.keep_weights);
  const auto a = experiment::plan_tasks(plain), b = experiment::plan_tasks(kept);
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) CHECK(a[k].id == b[k].id);
  check_rejects(kGood + "keep: [weights]\n", "keep: [weights]", "keep: [weight]", "keep[0]: unknown output 'weight' (known: weights)");
  check_rejects(kGood + "keep: [weights]\n", "keep: [weights]", "keep: weights", "keep");
}

TEST_CASE("validation_curve and metric_by_parameter figures name what they draw", "[config]") {
  const std::string curve = kGood + "figures: [{kind: validation_curve, x: lambda, file: c.png}]\n";
  const auto config = experiment::load_config(write_file("curve.yaml", curve));
  CHECK(config.figures.at(0).methods == std::vector<std::string>{"OneNormSVM", "RLSVM0"});  // every label tuning lambda
  check_rejects(curve, "x: lambda", "x: mu", "figures[0].x: 'mu' is tuned by no method");
  check_rejects(curve, "x: lambda,", "x: lambda, methods: [SVM],", "'SVM' is not a method label that tunes lambda");
  check_rejects(curve, "x: lambda,", "x: lambda, metric: accuracy,", "takes no metric");
  const std::string by_parameter =
      kGood + "sweep: {mu: [0.5, 1]}\nfigures: [{kind: metric_by_parameter, method: RLSVM0, x: mu, metric: n_features, file: p.png}]\n";
  CHECK(experiment::load_config(write_file("by_a.yaml", by_parameter)).figures.at(0).kind == "metric_by_parameter");
  check_rejects(by_parameter, "x: mu,", "x: lambda,", "does not fix lambda");
  check_rejects(by_parameter, "metric: n_features", "metric: n_feature", "unknown metric 'n_feature'");
}

TEST_CASE("a grid given as {logspace: [low, high, count]} is numpy's logspace, with the decades exact", "[config]") {
  const auto config = experiment::load_config(
      write_file("logspace.yaml", config_with("grid: {lambda: [0.5, 1]}", "grid: {lambda: {logspace: [0.001, 1000, 61]}}")));
  const std::vector<double>& values = config.grid.at("lambda");
  REQUIRE(values.size() == 61);
  for (std::size_t k = 0; k < values.size(); ++k) {
    const double expected = std::pow(10.0, -3.0 + 0.1 * static_cast<double>(k));  // numpy.logspace(-3, 3, 61)
    CHECK(values[k] == Approx(expected).epsilon(1e-14));
    if (k % 10 == 0) CHECK(values[k] == std::pow(10.0, static_cast<double>(k / 10) - 3.0));  // decades exactly
  }
  const std::string from = "grid: {lambda: [0.5, 1]}";
  check_rejects(kGood, from, "grid: {lambda: {logspace: [1, 0.1, 5]}}", "grid.lambda.logspace: expected 0 < low < high");
  check_rejects(kGood, from, "grid: {lambda: {logspace: [0, 1, 5]}}", "expected 0 < low < high");
  check_rejects(kGood, from, "grid: {lambda: {logspace: [0.1, 1, 1]}}", "grid.lambda.logspace[2]: expected a count from 2");
  check_rejects(kGood, from, "grid: {lambda: {logspace: [0.1, 1]}}", "expected [low, high, count]");
  check_rejects(kGood, from, "grid: {lambda: {linspace: [0.1, 1, 3]}}", "grid.lambda.linspace: unknown key");
}

TEST_CASE("a table, figure or comparison of a metric that no method of the run reports is left out with a warning",
          "[config]") {
  // PSI-1's mip_relative_gap and C in a run narrowed to lambda methods (as a note's check narrows a config);
  // an unknown name still fails.
  const std::string text = config_with("inner: {type: kfold, folds: 3}", R"(inner: {type: kfold, folds: 3}
tables:
  metrics: [accuracy, mip_relative_gap, C]
  comparisons: {metrics: {accuracy: higher, mip_relative_gap: lower}}
figures:
  - {kind: metric_by_dataset, metric: mip_relative_gap, file: gap.png}
  - {kind: critical_difference, metric: mip_relative_gap, file: cd_gap.png}
  - {kind: critical_difference, metric: accuracy, file: cd.png})");
  const auto config = experiment::load_config(write_file("narrowed.yaml", text));
  CHECK(config.table_metrics == std::vector<std::string>{"accuracy"});
  REQUIRE(config.comparisons.metrics.size() == 1);
  CHECK(config.comparisons.metrics[0].first == "accuracy");
  REQUIRE(config.figures.size() == 1);
  CHECK(config.figures[0].file == "cd.png");
  REQUIRE(config.warnings.size() == 5);
  CHECK_THAT(config.warnings[0], Catch::Contains("tables.metrics[1]: no method of this run reports 'mip_relative_gap'; left out"));
  CHECK_THAT(config.warnings[1], Catch::Contains("tables.metrics[2]: no method of this run reports 'C'"));
  CHECK_THAT(config.warnings[2], Catch::Contains("tables.comparisons.metrics.mip_relative_gap:"));
  CHECK_THAT(config.warnings[3], Catch::Contains("figures[0].metric:"));
  CHECK_THAT(config.warnings[4], Catch::Contains("figures[1].metric:"));
  check_rejects(text, "[accuracy, mip_relative_gap, C]", "[accuracy, mip_relative_gapp]", "unknown metric 'mip_relative_gapp'");
  check_rejects(text, "{accuracy: higher, mip_relative_gap: lower}", "{accuracy: higher, gapp: lower}", "unknown metric 'gapp'");
  check_rejects(text, "metric: mip_relative_gap, file: gap.png", "metric: gapp, file: gap.png", "figures[0].metric: unknown metric 'gapp'");
}
