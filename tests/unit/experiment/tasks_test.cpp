#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "data/load.hpp"
#include "experiment/config.hpp"
#include "experiment/csv.hpp"
#include "experiment/metrics.hpp"
#include "experiment/model_file.hpp"
#include "data/transforms.hpp"
#include "core/status.hpp"
#include "experiment/tasks.hpp"
#include "models/methods.hpp"
#include "test_files.hpp"

using namespace sparsesvm;
using sparsesvm::testing::write_file;

namespace {

// The rows of every method of the config on data set `dataset`, repetition `rep`, as column -> value maps.
std::vector<std::map<std::string, std::string>> group_rows(const experiment::ExperimentConfig& config, std::size_t rep,
                                                           std::size_t dataset = 0) {
  const core::Dataset data = experiment::repetition_sample(config, config.datasets[dataset], rep);
  const auto fields = experiment::run_group(config, dataset, rep, data);
  const std::vector<std::string> columns = experiment::result_columns(config);
  std::vector<std::map<std::string, std::string>> rows;
  for (const auto& line : fields) {
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < columns.size(); ++c) row[columns[c]] = line.row[c];
    rows.push_back(row);
  }
  return rows;
}

// n_train from frac_sv = n_sv / n_train.
double training_size(const std::map<std::string, std::string>& row) {
  return std::stod(row.at("n_sv")) / std::stod(row.at("frac_sv"));
}

}  // namespace

TEST_CASE("train_tune_test: fit on train, select on tune, score on an independent generated sample", "[tasks]") {
  const auto config = experiment::load_config(write_file("ttt.yaml", R"(name: ttt
seed: 5
datasets:
  - name: disk
    generator: psi_unit_disk
    params: {n: 60, flip_count: 3}
methods: [SVM, OneNormSVM]
grid: {lambda: [0.01, 0.1, 1]}
protocol:
  outer: {type: train_tune_test, train: 25, tune: 20, test: 400, independent_test: true, repetitions: 2}
)"));
  CHECK(config.protocol.inner == experiment::Inner::tuning_set);
  const auto rows = group_rows(config, 1);
  for (const auto& row : rows) {
    INFO(row.at("method") << ": " << row.at("status") << " " << row.at("message"));
    REQUIRE(row.at("status") == "optimal");
    CHECK(std::round(training_size(row)) == 25);                      // trained on the train part only
    const double test_correct = std::stod(row.at("accuracy")) * 400;  // scored on the 400 fresh points
    CHECK(std::abs(test_correct - std::round(test_correct)) < 1e-9);
    const double tune_correct = std::stod(row.at("cv_accuracy")) * 20;  // selected on the 20 tune points
    CHECK(std::abs(tune_correct - std::round(tune_correct)) < 1e-9);
  }
  CHECK(group_rows(config, 1)[0].at("accuracy") == rows[0].at("accuracy"));  // same seed, same rows
}

namespace {
// [PSI] Table 1's design: 50 points on the unit disk, y = sign(x1), `flips` training labels flipped; every
// repetition trains on all 50 (in its own order), so only a fresh sample can make the training sets differ.
experiment::ExperimentConfig unit_disk_config(bool fresh_sample, int flips) {
  return experiment::load_config(write_file("fresh.yaml", fmt::format(R"(name: fresh
seed: 3
datasets:
  - name: disk
    generator: psi_unit_disk
    params: {{n: 50, flip_count: {}}}
methods: [SVM-C]
sweep: {{C: [1]}}
protocol:
  outer: {{type: train_tune_test, train: 50, tune: 0, test: 200, independent_test: true, repetitions: 4,
          fresh_sample: {}}}
)", flips, fresh_sample ? "true" : "false")));
}
}  // namespace

TEST_CASE("fresh_sample: each repetition trains on its own draw of the generator, the same on rerun", "[tasks]") {
  const auto fresh = unit_disk_config(true, 2);
  std::set<std::string> objectives;
  for (std::size_t rep = 0; rep < 4; ++rep) {
    const core::Dataset train = experiment::training_part(fresh, 0, rep);
    REQUIRE(train.n() == 50);
    std::size_t flipped = 0;  // labels that disagree with the clean rule y = sign(x1)
    for (std::size_t i = 0; i < train.n(); ++i) {
      flipped += (train.value(i, 0) >= 0) != (train.labels()[static_cast<Eigen::Index>(i)] > 0);
    }
    CHECK(flipped == 2);  // the condition's exact flip count in every sample
    const auto row = group_rows(fresh, rep).at(0);
    REQUIRE(row.at("status") == "optimal");
    objectives.insert(row.at("objective"));
    CHECK(group_rows(fresh, rep).at(0).at("objective") == row.at("objective"));  // reproducible
  }
  CHECK(objectives.size() == 4);  // four training sets, not one

  const auto resplit = unit_disk_config(false, 2);  // one sample, reordered: the same training objective
  CHECK(group_rows(resplit, 0).at(0).at("objective") == group_rows(resplit, 3).at(0).at("objective"));
  const auto fresh_ids = experiment::plan_tasks(fresh);
  const auto resplit_ids = experiment::plan_tasks(resplit);
  CHECK(fresh_ids.front().id != resplit_ids.front().id);  // other data, other tasks
}

TEST_CASE("fresh_sample needs a generator and a protocol with repetitions", "[tasks]") {
  const std::string kfold = R"(name: fresh
datasets:
  - name: disk
    generator: psi_unit_disk
methods: [SVM]
protocol:
  outer: {type: kfold, folds: 3, fresh_sample: true}
)";
  CHECK_THROWS_WITH(experiment::load_config(write_file("fresh_kfold.yaml", kfold)),
                    Catch::Contains("protocol.outer.fresh_sample") && Catch::Contains("k-fold"));
  const std::string file = R"(name: fresh
datasets:
  - name: pima
    file: )" + std::string(SPARSESVM_TEST_DATA_DIR) + R"(/../../datasets/pima.csv
methods: [SVM]
protocol:
  outer: {type: holdout, repetitions: 2, fresh_sample: true}
)";
  CHECK_THROWS_WITH(experiment::load_config(write_file("fresh_file.yaml", file)),
                    Catch::Contains("protocol.outer.fresh_sample") && Catch::Contains("needs a generator"));
}

TEST_CASE("half_half trains on half the examples; inner none fits the one grid value", "[tasks]") {
  const auto config = experiment::load_config(write_file("half.yaml", R"(name: half
datasets:
  - name: g
    generator: dca_gaussians
    params: {n: 40}
methods: [OneNormSVM, RLSVM0]
grid: {lambda: [0.5]}
protocol:
  outer: {type: half_half, repetitions: 3}
  inner: {type: none}
)"));
  for (const auto& row : group_rows(config, 2)) {
    REQUIRE(row.at("status") == (row.at("method") == "OneNormSVM" ? "optimal" : "converged"));
    CHECK(row.at("certificate_kind") == (row.at("method") == "OneNormSVM" ? "duality_gap" : "majorant_gap"));
    CHECK(std::round(training_size(row)) == 20);
    CHECK(row.at("lambda") == "0.5");
    CHECK(row.at("fits") == "1");
    CHECK(!row.at("stop_reason").empty());
  }
}

TEST_CASE("a given split trains on the file's first rows and tests on the rest", "[tasks]") {
  // Rows 0-7 put class 1 right of 0; rows 8-11 contradict them: trained on rows 0-7 alone, the test
  // accuracy is exactly 0, and any drawn split would have put some contradicting rows in training.
  const std::string file = write_file("given.csv", "x,y\n-4,0\n-3,0\n-2,0\n-1,0\n1,1\n2,1\n3,1\n4,1\n10,0\n11,0\n-10,1\n-11,1\n");
  const std::string text = R"(name: given
datasets:
  - name: csv
    file: )" + file + R"(
methods: [OneNormSVM]
grid: {lambda: [0.01, 0.1]}
protocol:
  outer: {type: given, train: 8}
  inner: {type: kfold, folds: 2}
)";
  const auto config = experiment::load_config(write_file("given.yaml", text));
  const core::Dataset data = experiment::repetition_sample(config, config.datasets[0], 0);
  CHECK(experiment::outer_training_rows(config, 0, 0, data) == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7});
  const auto rows = group_rows(config, 0);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].at("status") == "optimal");
  CHECK(std::stod(rows[0].at("accuracy")) == 0.0);
  // train: 12 leaves nothing to test on: the row says so (a file's n is known only when the task reads it).
  std::string all_train = text;
  all_train.replace(all_train.find("train: 8"), 8, "train: 12");
  const auto refused = group_rows(experiment::load_config(write_file("given_all.yaml", all_train)), 0);
  CHECK(refused[0].at("status") == "input_error");
  CHECK_THAT(refused[0].at("message"), Catch::Contains("protocol.outer.train is 12, and it has 12 examples: no test part"));
}

TEST_CASE("a training fold with one class is a row with status input_error, not a crash", "[tasks]") {
  // A training part of one example has one class whatever the seed; every method of the group reports
  // it in its row and the run goes on.
  const auto config = experiment::load_config(write_file("oneclass.yaml", R"(name: oneclass
datasets:
  - name: csv
    file: )" + write_file("oneclass.csv", "x1,x2,y\n1,0,1\n0,1,-1\n0,2,-1\n0,3,-1\n0,4,-1\n0,5,-1\n0,6,-1\n0,7,-1\n0,8,-1\n0,9,-1\n") + R"(
methods: [OneNormSVM, SVM]
grid: {lambda: [1]}
protocol:
  outer: {type: train_tune_test, train: 1, tune: 4, test: 5, repetitions: 1}
)"));
  for (const auto& row : group_rows(config, 0)) {
    CHECK(row.at("status") == "input_error");
    CHECK_THAT(row.at("message"), Catch::Contains("training data has only class"));
  }
}

TEST_CASE("an empty test part is an input_error row, not an accuracy of 0", "[tasks]") {
  // A generated set's sizes are checked when the config loads (config_test); a file's n is known only
  // when a task reads it, so its empty test part is caught there.
  std::string csv = "x,label\n";
  for (int i = 0; i < 20; ++i) csv += std::to_string(i) + "," + std::to_string(i % 2) + "\n";
  const std::string file = write_file("emptytest.csv", csv);
  const auto config = experiment::load_config(write_file("emptytest.yaml", R"(name: emptytest
datasets:
  - name: g
    file: )" + file + R"(
methods: [OneNormSVM]
grid: {lambda: [1]}
protocol:
  outer: {type: holdout, test_fraction: 0.01, repetitions: 1}
  inner: {type: none}
)"));
  const auto rows = group_rows(config, 0);
  CHECK(rows[0].at("status") == "input_error");
  CHECK_THAT(rows[0].at("message"), Catch::Contains("the part to score on is empty"));
  CHECK(rows[0].at("accuracy").empty());
}

TEST_CASE("result columns never repeat a name: no method parameter is called like a metric", "[tasks]") {
  // A parameter named like a result column (RW's N once was "iterations") would overwrite it in the row.
  experiment::ExperimentConfig config;
  for (const models::MethodInfo& method : models::method_registry()) config.methods.push_back({method.name, method.name, {}, std::nullopt});
  std::vector<std::string> columns = experiment::result_columns(config);
  std::sort(columns.begin(), columns.end());
  CHECK(std::adjacent_find(columns.begin(), columns.end()) == columns.end());
}

TEST_CASE("a data set's method_grid replaces the grid's values for it alone", "[tasks]") {
  const auto config = experiment::load_config(write_file("own_grid.yaml", R"(name: own
datasets:
  - name: g
    generator: dca_gaussians
    params: {n: 40}
    method_grid: {lambda: [7, 9]}
  - name: h
    generator: dca_gaussians
    params: {n: 40, seed: 2}
methods: [OneNormSVM]
grid: {lambda: [0.5, 1]}
protocol:
  outer: {type: holdout, repetitions: 2}
  inner: {type: kfold, folds: 3}
)"));
  const auto selected = [&](std::size_t dataset) {
    std::set<std::string> values;
    for (std::size_t rep = 0; rep < 2; ++rep) {
      for (const auto& row : group_rows(config, rep, dataset)) values.insert(row.at("lambda"));
    }
    return values;
  };
  for (const std::string& value : selected(0)) CHECK((value == "7" || value == "9"));
  for (const std::string& value : selected(1)) CHECK((value == "0.5" || value == "1"));
}

TEST_CASE("seeds follow the data's content: a renamed, moved or reworded data set keeps its numbers", "[tasks]") {
  const std::string sonar = std::string(SPARSESVM_TEST_DATA_DIR) + "/../../datasets/sonar.csv";
  const std::string copy = write_file("sonar_copy.csv", experiment::read_whole_file(sonar));
  // The generator's parameters as worded differently: order, a default given, a number written otherwise.
  const auto config_of = [](const std::string& name, const std::string& file, const std::string& params) {
    return experiment::load_config(write_file("renamed.yaml", fmt::format(R"(name: renamed
seed: 9
datasets:
  - name: {}
    file: {}
    transforms: [standardize]
  - name: {}_generated
    generator: dca_gaussians
    params: {}
methods: [RLSVM0]
grid: {{lambda: [0.1, 1]}}
protocol:
  outer: {{type: holdout, repetitions: 2}}
  inner: {{type: kfold, folds: 3}}
)", name, file, name, params)));
  };
  const auto original = config_of("sonar", sonar, "{n: 50, noise_dims: 3}");
  const auto renamed = config_of("other_name", copy, "{noise_dims: 3, seed: 1, n: 5.0e1}");
  for (std::size_t dataset = 0; dataset < 2; ++dataset) {
    for (std::size_t rep = 0; rep < 2; ++rep) {
      const auto a = group_rows(original, rep, dataset).at(0);
      const auto b = group_rows(renamed, rep, dataset).at(0);
      INFO("data set " << dataset << ", repetition " << rep);
      CHECK(a.at("objective") == b.at("objective"));
      CHECK(a.at("accuracy") == b.at("accuracy"));
      CHECK(a.at("lambda") == b.at("lambda"));
    }
  }
  // Other content, other splits: two repetitions of one file differ, and so do two generators' samples.
  CHECK(group_rows(original, 0).at(0).at("objective") != group_rows(original, 1).at(0).at("objective"));
}

namespace {

// The fields of one method's inner-score lines by column name.
std::vector<std::map<std::string, std::string>> cv_lines(const experiment::ExperimentConfig& config,
                                                         const experiment::TaskOutput& output) {
  const std::vector<std::string> columns = experiment::cv_score_columns(config);
  std::vector<std::map<std::string, std::string>> lines;
  for (const auto& fields : output.cv_scores) {
    REQUIRE(fields.size() == columns.size());
    std::map<std::string, std::string> line;
    for (std::size_t c = 0; c < columns.size(); ++c) line[columns[c]] = fields[c];
    lines.push_back(line);
  }
  return lines;
}

const char* kSelectionConfig = R"(name: selection
seed: 11
datasets:
  - name: g
    generator: dca_gaussians
    params: {n: 90, noise_dims: 2}   # nearly separable: candidates tie at the top
    transforms: [standardize]
methods: [OneNormSVM, RLSVM0, {name: SVM, lambda: 1}]
grid: {lambda: [0.05, 0.2, 1, 5], mu: [0.5, 1]}
protocol:
  outer: {type: holdout, test_fraction: 0.3, repetitions: 2}
  inner: {type: kfold, folds: 4}
)";

}  // namespace

TEST_CASE("every inner score is kept, and the chosen candidate is the best under the tie rule", "[tasks][cv_scores]") {
  const auto config = experiment::load_config(write_file("selection.yaml", kSelectionConfig));
  const core::Dataset data = experiment::repetition_sample(config, config.datasets[0], 1);
  const auto outputs = experiment::run_group(config, 0, 1, data);
  const std::vector<std::string> columns = experiment::result_columns(config);
  const auto column = [&](const experiment::TaskOutput& output, const std::string& name) {
    return output.row.at(static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin()));
  };
  for (std::size_t m = 0; m < 2; ++m) {  // OneNormSVM tunes lambda (4 candidates); RLSVM0 lambda and mu (8)
    const auto lines = cv_lines(config, outputs[m]);
    const std::size_t candidates = m == 0 ? 4 : 8;
    REQUIRE(lines.size() == candidates * 4);
    // Recompute each candidate's mean from its four fold scores; the chosen one has the highest mean, and
    // among those within 1e-12 the largest lambda (most regularized), then the smaller mu.
    std::map<std::string, std::vector<double>> scores;
    std::map<std::string, std::pair<double, double>> values;  // candidate -> (lambda, mu)
    std::string chosen;
    for (const auto& line : lines) {
      CHECK(line.at("solved") == "1");
      scores[line.at("candidate")].push_back(std::stod(line.at("score")));
      values[line.at("candidate")] = {std::stod(line.at("lambda")), line.at("mu").empty() ? 0.0 : std::stod(line.at("mu"))};
      if (line.at("chosen") == "1") chosen = line.at("candidate");
    }
    REQUIRE(!chosen.empty());
    const auto mean = [&](const std::string& c) { return (scores[c][0] + scores[c][1] + scores[c][2] + scores[c][3]) / 4; };
    std::size_t ties = 0;
    for (const auto& [candidate, fold_scores] : scores) {
      REQUIRE(fold_scores.size() == 4);
      INFO("method " << m << " candidate " << candidate);
      CHECK(mean(candidate) <= mean(chosen) + 1e-12);
      if (std::abs(mean(candidate) - mean(chosen)) <= 1e-12 && candidate != chosen) {
        ++ties;
        CHECK(values[candidate].first <= values[chosen].first);
        if (values[candidate].first == values[chosen].first) CHECK(values[candidate].second > values[chosen].second);
      }
    }
    CHECK(ties > 0);  // the tie rule was exercised
    // The row reports the chosen candidate, and its CV accuracy is that mean.
    CHECK(std::stod(column(outputs[m], "lambda")) == values[chosen].first);
    CHECK(std::stod(column(outputs[m], "cv_accuracy")) == Approx(mean(chosen)).epsilon(1e-12));
  }
  CHECK(outputs[2].cv_scores.empty());  // SVM fixes lambda: nothing to select
}

TEST_CASE("selection by error_rate (lower is better) chooses what accuracy chooses; rows name the metric", "[tasks][cv_scores]") {
  const auto by_accuracy = experiment::load_config(write_file("selection.yaml", kSelectionConfig));
  std::string text = kSelectionConfig;
  text.replace(text.find("folds: 4}"), 9, "folds: 4, metric: error_rate}");
  const auto by_error = experiment::load_config(write_file("selection_error.yaml", text));
  for (std::size_t rep = 0; rep < 2; ++rep) {
    const auto accuracy_rows = group_rows(by_accuracy, rep);
    const auto error_rows = group_rows(by_error, rep);
    for (std::size_t m = 0; m < 2; ++m) {
      INFO("rep " << rep << " method " << m);
      CHECK(error_rows[m].at("lambda") == accuracy_rows[m].at("lambda"));
      CHECK(error_rows[m].at("cv_metric") == "error_rate");
      CHECK(std::stod(error_rows[m].at("cv_score")) == Approx(1 - std::stod(accuracy_rows[m].at("cv_accuracy"))).margin(1e-12));
      CHECK(std::stod(error_rows[m].at("error_rate")) == Approx(1 - std::stod(error_rows[m].at("accuracy"))).margin(1e-15));
      CHECK(!error_rows[m].contains("cv_accuracy"));
    }
  }
  // Another metric is another task: its rows are never taken for accuracy's.
  const auto accuracy_tasks = experiment::plan_tasks(by_accuracy), error_tasks = experiment::plan_tasks(by_error);
  CHECK(accuracy_tasks.front().id != error_tasks.front().id);
}

TEST_CASE("a metric undefined on an inner fold (ROC AUC, one class) is the method's input_error naming it", "[tasks]") {
  std::string csv = "x1,x2,label\n";
  for (int i = 0; i < 30; ++i) csv += fmt::format("{},{},{}\n", i % 7, (i * 3) % 11, i < 3 ? 1 : -1);
  const std::string file = write_file("rare.csv", csv);
  const auto config = experiment::load_config(write_file("rare_auc.yaml", fmt::format(R"(name: rare_auc
seed: 1
datasets:
  - {{name: rare, file: {}}}
methods: [OneNormSVM]
grid: {{lambda: [0.1, 1]}}
protocol:
  outer: {{type: holdout, test_fraction: 0.2, repetitions: 1, stratified: true}}
  inner: {{type: kfold, folds: 5, metric: roc_auc}}
)", file)));
  const auto rows = group_rows(config, 0);
  CHECK(rows[0].at("status") == "input_error");
  CHECK_THAT(rows[0].at("message"), Catch::Contains("inner fold") && Catch::Contains("roc_auc is undefined on") &&
                                        Catch::Contains("of which 0 are of class +1"));
}

TEST_CASE("select_on_training_part (fit --grid --cv) chooses what run chooses on the same training part", "[tasks][cv_scores]") {
  const auto config = experiment::load_config(write_file("selection.yaml", kSelectionConfig));
  for (std::size_t rep = 0; rep < 2; ++rep) {
    const core::Dataset data = experiment::repetition_sample(config, config.datasets[0], rep);
    const auto outputs = experiment::run_group(config, 0, rep, data);
    const core::Dataset train = data.subset(experiment::outer_training_rows(config, 0, rep, data));
    const auto selections =
        experiment::select_on_training_part(config, 0, train, experiment::group_seed(config, 0, rep));
    for (std::size_t m = 0; m < 2; ++m) {
      const auto lines = cv_lines(config, outputs[m]);
      const auto& selection = selections[m];
      REQUIRE(selection.selected);
      REQUIRE(lines.size() == selection.candidates.size() * 4);
      for (const auto& line : lines) {  // every fold score to the bit
        const std::size_t c = std::stoul(line.at("candidate")), f = std::stoul(line.at("fold"));
        CHECK(line.at("score") == experiment::format_number(selection.fold_scores[c][f]));
        CHECK((line.at("chosen") == "1") == (c == selection.chosen));
      }
    }
  }
}

TEST_CASE("majority_accuracy is the test part's share of the training part's majority class", "[tasks]") {
  // 70 examples, 49 of class -1 and 21 of +1 (dca_gaussians draws labels evenly, so a file with set counts).
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < 70; ++i) csv += fmt::format("{},{},{}\n", i % 7, (i * 13) % 11, i % 10 < 3 ? 1 : -1);
  const std::string file = write_file("skewed.csv", csv);
  const auto config = experiment::load_config(write_file("majority.yaml", fmt::format(R"(name: majority
datasets:
  - {{name: skewed, file: {}}}
methods: [OneNormSVM]
grid: {{lambda: [1]}}
protocol:
  outer: {{type: holdout, test_fraction: 0.3, repetitions: 3}}
  inner: {{type: none}}
)", file)));
  for (std::size_t rep = 0; rep < 3; ++rep) {
    const core::Dataset data = experiment::repetition_sample(config, config.datasets[0], rep);
    std::vector<std::size_t> train = experiment::outer_training_rows(config, 0, rep, data);
    std::set<std::size_t> in_train(train.begin(), train.end());
    int train_positive = 0, test_negative = 0, test_size = 0;
    for (std::size_t i = 0; i < data.n(); ++i) {
      const bool positive = data.labels()[static_cast<Eigen::Index>(i)] > 0;
      if (in_train.contains(i)) {
        train_positive += positive ? 1 : 0;
      } else {
        ++test_size;
        test_negative += positive ? 0 : 1;
      }
    }
    REQUIRE(2 * train_positive < static_cast<int>(train.size()));  // -1 is the majority
    const auto rows = group_rows(config, rep);
    CHECK(std::stod(rows[0].at("majority_accuracy")) == Approx(static_cast<double>(test_negative) / test_size).epsilon(1e-15));
  }
}

TEST_CASE("a model fitted and saved as fit does it, applied as predict does, repeats a run's test accuracy", "[tasks][model_file]") {
  const auto config = experiment::load_config(write_file("predict_run.yaml", fmt::format(R"(name: predict_run
seed: 4
datasets:
  - {{name: sonar, file: {}, transforms: [standardize]}}
methods: [OneNormSVM]
grid: {{lambda: [0.1, 1]}}
protocol:
  outer: {{type: holdout, test_fraction: 0.3, repetitions: 2}}
  inner: {{type: kfold, folds: 3}}
)", sparsesvm::testing::repo_file("datasets/sonar.csv"))));
  for (std::size_t rep = 0; rep < 2; ++rep) {
    const core::Dataset data = experiment::repetition_sample(config, config.datasets[0], rep);
    const auto row = group_rows(config, rep).at(0);
    REQUIRE(row.at("status") == "optimal");
    const std::vector<std::size_t> train_rows = experiment::outer_training_rows(config, 0, rep, data);
    const std::set<std::size_t> in_train(train_rows.begin(), train_rows.end());
    std::vector<std::size_t> test_rows;
    for (std::size_t i = 0; i < data.n(); ++i) {
      if (!in_train.contains(i)) test_rows.push_back(i);
    }
    core::Dataset train = data.subset(train_rows), test = data.subset(test_rows);
    experiment::SavedModel saved;
    saved.transforms.push_back(data::make_transform("standardize"));
    data::fit_and_apply(saved.transforms, train, {});
    models::Workspace workspace(train, 0);
    const models::FitReport report = models::fit_method("OneNormSVM", {{"lambda", std::stod(row.at("lambda"))}}, workspace);
    saved.method = "OneNormSVM";
    saved.parameters = {report.hyperparameters.begin(), report.hyperparameters.end()};
    saved.status = core::to_string(report.status);
    saved.features = train.feature_names();
    saved.model = report.model;
    const std::string file = write_file(fmt::format("run_model{}.yaml", rep), "");
    experiment::write_model_file(file, saved);
    const experiment::SavedModel read = experiment::read_model_file(file);
    for (const auto& transform : read.transforms) transform->apply(test);
    INFO("repetition " << rep);
    CHECK(experiment::format_number(experiment::confusion(read.model, test).accuracy) == row.at("accuracy"));
  }
}

TEST_CASE("class_weight of a data set or a method enters its rows' objective (2 on both classes doubles F at half lambda)",
          "[tasks][weights]") {
  // F with weights 2 at lambda 1 is 2 (sum hinge + 0.5 ||w||_1): twice the unweighted F at lambda 0.5. Data
  // sets g and gw are one generator spec (the same splits); gw weighs both classes by 2, which the entry
  // `half` overrides with none.
  const auto config = experiment::load_config(write_file("class_weight.yaml", R"(name: class_weight
datasets:
  - {name: g, generator: dca_gaussians, params: {n: 60}}
  - {name: gw, generator: dca_gaussians, params: {n: 60}, class_weight: {positive: 2, negative: 2}}
methods:
  - {name: OneNormSVM, label: one, lambda: 1}
  - {name: OneNormSVM, label: half, lambda: 0.5, class_weight: none}
  - {name: OneNormSVM, label: balanced, lambda: 1, class_weight: balanced}
protocol:
  outer: {type: half_half, repetitions: 1}
  inner: {type: none}
)"));
  const auto plain = group_rows(config, 0, 0);
  const auto weighted = group_rows(config, 0, 1);
  REQUIRE(weighted.at(0).at("status") == "optimal");
  const double one = std::stod(weighted.at(0).at("objective")), half = std::stod(weighted.at(1).at("objective"));
  CHECK(one == Approx(2 * half).epsilon(1e-7));
  CHECK(weighted.at(1).at("objective") == plain.at(1).at("objective"));  // `none` overrides the data set's
  CHECK(std::abs(std::stod(plain.at(0).at("objective")) - one) > 1e-3);  // g's `one` is unweighted
  CHECK(weighted.at(2).at("objective") == plain.at(2).at("objective"));  // a method's own weight wins
  CHECK(weighted.at(0).at("class_weight") == "positive=2,negative=2");  // each row says its weighting
  CHECK(weighted.at(1).at("class_weight") == "none");
  CHECK(plain.at(2).at("class_weight") == "balanced");
  // Task ids follow the class weight: a weighted data set or entry is never read back as an unweighted one.
  const auto tasks = experiment::plan_tasks(config);
  std::set<std::string> hashes;
  for (const auto& task : tasks) hashes.insert(task.id.substr(task.id.rfind("__") + 2));
  CHECK(hashes.size() == tasks.size());
}

TEST_CASE("class_weight: bad values and methods whose per-class averages cancel it are refused, naming the key",
          "[tasks][weights]") {
  const auto load = [](const std::string& methods, const std::string& weight) {
    return experiment::load_config(write_file("class_weight_bad.yaml", fmt::format(R"(name: bad
datasets:
  - {{name: g, generator: dca_gaussians, params: {{n: 40}}{}}}
methods: {}
grid: {{lambda: [0.5]}}
)", weight, methods)));
  };
  CHECK_THROWS_WITH(load("[SVM]", ", class_weight: heavy"),
                    Catch::Contains("datasets[0].class_weight") && Catch::Contains("'heavy' is not a class weight"));
  CHECK_THROWS_WITH(load("[SVM]", ", class_weight: {positive: -1}"), Catch::Contains("not a number > 0"));
  CHECK_THROWS_WITH(load("[SVM]", ", class_weight: {positive: 0}"), Catch::Contains("not a number > 0"));
  CHECK_THROWS_WITH(load("[SVM]", ", class_weight: {positive: 1, other: 2}"), Catch::Contains("class_weight.other"));
  CHECK_THROWS_WITH(load("[SVM, FSV]", ", class_weight: balanced"),
                    Catch::Contains("datasets[0].class_weight") && Catch::Contains("give FSV `class_weight: none`"));
  CHECK_THROWS_WITH(load("[{name: RLP, class_weight: balanced}]", ""),
                    Catch::Contains("methods[0].class_weight") && Catch::Contains("averages its loss over each class"));
  CHECK_NOTHROW(load("[SVM, {name: FSV, class_weight: none}]", ", class_weight: balanced"));
}

TEST_CASE("inner folds fitted side by side give the rows and inner scores of folds fitted one after another",
          "[tasks][cv_scores]") {
  // Two configs: DCA methods that start from OneNormSVM's fits in each fold's shared workspace, and a
  // rare class whose ROC AUC is undefined on some inner folds (every method stops there, and the later
  // folds are fitted again without them). Only the timing columns may differ.
  std::string csv = "x1,x2,label\n";
  for (int i = 0; i < 40; ++i) csv += fmt::format("{},{},{}\n", i % 7, (i * 3) % 11, i < 4 ? 1 : -1);
  const std::string rare = write_file("rare_side.csv", csv);
  const std::vector<std::string> configs = {R"(name: side_by_side
seed: 3
datasets:
  - {name: g, generator: dca_gaussians, params: {n: 60, noise_dims: 5}}
methods: [OneNormSVM, {name: RLSVM0, a: 3}, RLSVM1, SVM]
grid: {lambda: [0.01, 0.1, 1]}
protocol:
  outer: {type: holdout, test_fraction: 0.3, repetitions: 1}
  inner: {type: kfold, folds: 5}
)",
                                            fmt::format(R"(name: side_by_side_rare
seed: 1
datasets:
  - {{name: rare, file: {}}}
methods: [OneNormSVM, SVM]
grid: {{lambda: [0.1, 1]}}
protocol:
  outer: {{type: holdout, test_fraction: 0.2, repetitions: 1, stratified: true}}
  inner: {{type: kfold, folds: 5, metric: roc_auc}}
)",
                                                        rare)};
  for (const std::string& text : configs) {
    const auto config = experiment::load_config(write_file("side_by_side.yaml", text));
    const core::Dataset data = experiment::repetition_sample(config, config.datasets[0], 0);
    const auto one_by_one = experiment::run_group(config, 0, 0, data, 1);
    const auto side_by_side = experiment::run_group(config, 0, 0, data, 3);
    const std::vector<std::string> columns = experiment::result_columns(config);
    REQUIRE(one_by_one.size() == side_by_side.size());
    for (std::size_t m = 0; m < one_by_one.size(); ++m) {
      CHECK(one_by_one[m].cv_scores == side_by_side[m].cv_scores);
      for (std::size_t c = 0; c < columns.size(); ++c) {
        if (columns[c].find("time") != std::string::npos || columns[c].find("seconds") != std::string::npos) continue;
        INFO(config.name << " method " << m << " column " << columns[c]);
        CHECK(one_by_one[m].row[c] == side_by_side[m].row[c]);
      }
    }
    const auto status = static_cast<std::size_t>(std::find(columns.begin(), columns.end(), "status") - columns.begin());
    if (config.name == "side_by_side") CHECK(one_by_one[1].cv_scores.size() == 15);  // 3 lambdas x 5 folds
    if (config.name == "side_by_side_rare") CHECK(one_by_one[0].row[status] == "input_error");
  }
}
