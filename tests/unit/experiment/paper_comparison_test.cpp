#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fmt/format.h>

#include "experiment/collect.hpp"
#include "experiment/config.hpp"
#include "experiment/csv.hpp"
#include "experiment/manifest.hpp"
#include "experiment/paper_comparison.hpp"
#include "experiment/tasks.hpp"
#include "test_files.hpp"

using namespace sparsesvm;
using sparsesvm::testing::write_file;

namespace {

const std::string kHeader = "table,row,column,dataset,condition,method,metric,scale,value,spread,spread_kind,paper_n,note\n";

// The rows of a CSV text as column -> value maps.
std::vector<std::map<std::string, std::string>> csv_rows(const std::string& text) {
  const auto table = experiment::parse_csv(text, "paper_comparison.csv");
  std::vector<std::map<std::string, std::string>> rows;
  for (std::size_t k = 1; k < table.size(); ++k) {
    std::map<std::string, std::string> row;
    for (std::size_t c = 0; c < table[0].size(); ++c) row[table[0][c]] = table[k][c];
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("paper comparison: standard errors, z and verdicts computed by hand", "[paper]") {
  const auto cells = experiment::read_published(write_file("published.csv", kHeader +
      "T,r1,c1,d,,M,1-accuracy,1,0.25,0.05,std,25,\n"   // paper se 0.05 / 5 = 0.01
      "T,r2,c2,d,,M,1-accuracy,1,0.5,,none,4,\n"         // paper se estimated: our std 0.1 / 2
      "T,r3,c3,d,,M,accuracy,1,0.9,0.02,se,10,\n"
      "T,r4,c4,d,,M,accuracy,1,0.9,0.02,se,10,absent file\n"));
  REQUIRE(cells.size() == 4);
  CHECK(cells[0].subtracted_from == 1.0);
  CHECK(cells[0].metric == "accuracy");
  CHECK(cells[0].as_printed(0.75) == Approx(0.25));
  const std::vector<double> values = {0.1, 0.2, 0.3};  // mean 0.2, std 0.1, se 0.1 / sqrt(3)
  std::vector<experiment::OurCell> ours(4);
  ours[0].values = values;
  ours[1].values = values;
  ours[2].failed = 3;  // every row failed: no result
  ours[3].run = false;
  const auto rows = csv_rows(experiment::paper_comparison_csv(cells, ours));
  REQUIRE(rows.size() == 4);
  const double se = 0.1 / std::sqrt(3.0);
  CHECK(std::stod(rows[0].at("ours")) == Approx(0.2));
  CHECK(std::stod(rows[0].at("ours_se")) == Approx(se));
  CHECK(std::stod(rows[0].at("paper_se")) == Approx(0.01));
  CHECK(std::stod(rows[0].at("z")) == Approx(-0.05 / std::sqrt(se * se + 0.01 * 0.01)));  // -0.853
  CHECK(rows[0].at("verdict") == "within_1se");
  CHECK(std::stod(rows[1].at("paper_se")) == Approx(0.05));
  CHECK(std::stod(rows[1].at("z")) == Approx(-0.3 / std::sqrt(se * se + 0.05 * 0.05)));  // -3.93
  CHECK(rows[1].at("verdict") == "off");
  CHECK(rows[2].at("verdict") == "no_result");
  CHECK(rows[2].at("failed") == "3");
  CHECK(rows[3].at("verdict") == "not_run");
  CHECK(rows[3].at("note") == "absent file");
  // p of z, and Holm over the table's two compared cells: 2 p_min, then max(that, p_max).
  const double p0 = std::erfc(std::abs(std::stod(rows[0].at("z"))) / std::sqrt(2.0));
  const double p1 = std::erfc(std::abs(std::stod(rows[1].at("z"))) / std::sqrt(2.0));
  CHECK(std::stod(rows[0].at("p")) == Approx(p0));
  CHECK(std::stod(rows[1].at("holm_p")) == Approx(2 * p1));
  CHECK(std::stod(rows[0].at("holm_p")) == Approx(std::max(2 * p1, p0)));
  CHECK(rows[1].at("holm_verdict") == "off");  // z = -3.93: p 8.5e-5, adjusted 1.7e-4
  CHECK(rows[0].at("holm_verdict") == "consistent");
  CHECK(rows[2].at("holm_p").empty());
}

TEST_CASE("Holm's adjustment by hand; the majority-class baseline flags near-trivial classifiers", "[paper]") {
  // Sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04 -> non-decreasing 0.02, 0.03, 0.06, 0.06.
  const std::vector<double> holm = experiment::holm_adjusted({0.01, 0.04, 0.03, 0.005});
  CHECK(holm[0] == Approx(0.03));
  CHECK(holm[1] == Approx(0.06));
  CHECK(holm[2] == Approx(0.06));
  CHECK(holm[3] == Approx(0.02));
  CHECK(experiment::holm_adjusted({0.5, 0.9}) == std::vector<double>{1.0, 1.0});
  const auto cells = experiment::read_published(write_file("published_baseline.csv", kHeader +
      "T,r1,c1,d,,M,accuracy,100,80,,none,10,\n"        // ours 82.13 = the majority rate: does not beat it
      "T,r2,c2,d,,M,1-accuracy,100,20,,none,10,\n"      // error 15 below the majority's 17.87: beats it
      "T,r3,c3,d,,M,n_features,1,5,,none,10,\n"));      // not an accuracy: no baseline
  std::vector<experiment::OurCell> ours(3);
  ours[0].values = {82.13, 82.13};
  ours[0].baseline = {82.13, 82.13};
  ours[1].values = {14, 16};
  ours[1].baseline = {17.87, 17.87};
  ours[2].values = {4, 6};
  const auto rows = csv_rows(experiment::paper_comparison_csv(cells, ours));
  CHECK(rows[0].at("baseline") == "82.13");
  CHECK(rows[0].at("beats_baseline") == "no");
  CHECK(rows[1].at("beats_baseline") == "yes");
  CHECK(rows[2].at("baseline").empty());
}

TEST_CASE("a malformed published file is refused naming its line and column", "[paper]") {
  CHECK_THROWS_WITH(experiment::read_published(write_file("bad_header.csv", "table,row\nT,r\n")),
                    Catch::Contains("line 1") && Catch::Contains("expected the header"));
  CHECK_THROWS_WITH(experiment::read_published(write_file("bad_kind.csv", kHeader + "T,r,c,d,,M,accuracy,1,0.9,0.1,sd,10,\n")),
                    Catch::Contains("line 2, column spread_kind") && Catch::Contains("std, se or none"));
  CHECK_THROWS_WITH(experiment::read_published(write_file("bad_value.csv", kHeader + "T,r,c,d,,M,accuracy,1,x,,none,10,\n")),
                    Catch::Contains("line 2, column value"));
  CHECK_THROWS_WITH(experiment::read_published(write_file("bad_n.csv", kHeader + "T,r,c,d,,M,accuracy,1,0.9,,none,0,\n")),
                    Catch::Contains("line 2, column paper_n"));
  CHECK_THROWS_WITH(experiment::read_published(write_file("huge_n.csv", kHeader + "T,r,c,d,,M,accuracy,1,0.9,,none,1e23,\n")),
                    Catch::Contains("line 2, column paper_n"));
  CHECK_THROWS_WITH(experiment::read_published(write_file("scale0.csv", kHeader + "T,r,c,d,,M,accuracy,0,0.9,,none,10,\n")),
                    Catch::Contains("line 2, column scale"));
  CHECK_THROWS_WITH(experiment::read_published(write_file("spread_none.csv", kHeader + "T,r,c,d,,M,accuracy,1,0.9,0.5,none,10,\n")),
                    Catch::Contains("line 2, column spread") && Catch::Contains("spread_kind is none"));
  CHECK_THROWS_WITH(experiment::read_published(write_file("twice.csv", kHeader + "T,r,c,d,,M,accuracy,1,0.9,,none,10,\n"
                                                                                 "T,r,c,d,,M,accuracy,1,0.8,,none,10,\n")),
                    Catch::Contains("line 3") && Catch::Contains("listed twice"));
  CHECK_THROWS_WITH(experiment::read_published(write_file("header_only.csv", kHeader)), Catch::Contains("no published cells"));
  // A byte order mark and blank last lines, as editors leave them, are read.
  CHECK(experiment::read_published(write_file("bom.csv", "\xEF\xBB\xBF" + kHeader + "T,r,c,d,,M,accuracy,1,0.9,,none,10,\n\n"))
            .size() == 1);
}

TEST_CASE("a published path is refused naming the key when empty, and found beside the config", "[paper][config]") {
  const std::string config = R"(name: p
datasets:
  - {name: g, generator: dca_gaussians}
methods: [SVM]
protocol:
  inner: {type: none}
tables:
  published: )";
  CHECK_THROWS_WITH(experiment::load_config(write_file("published_empty.yaml", config + "\"\"\n")),
                    Catch::Contains("tables.published") && Catch::Contains("found ''"));
  const std::string beside = (testing::scratch_directory() / "nothere.csv").string();
  CHECK_THROWS_WITH(experiment::load_config(write_file("published_missing.yaml", config + "nothere.csv\n")),
                    Catch::Contains("tables.published") && Catch::Contains(beside));
}

TEST_CASE("collect compares the rows of a run with the published cells, complemented and scaled", "[paper]") {
  write_file("tiny.published.csv", kHeader +
      "T,SVM error %,all,g,,SVM,1-accuracy,100,5,,none,20,\n"
      "T,SVM accuracy,all,g,,SVM,accuracy,1,0.95,,none,20,\n"
      "T,zero coefficients,all,g,,SVM,12-n_features,1,0,,none,20,\n"
      "T,other data,all,absent,,SVM9,accuracy,1,0.5,,none,20,not run: not offline\n"
      "T,misspelled,all,g,,SVN,accuracy,1,0.5,,none,20,\n");
  const std::string path = write_file("tiny_published.yaml", R"(name: tiny_published
seed: 4
datasets:
  - name: g
    generator: dca_gaussians
    params: {n: 60}
methods: [SVM]
protocol:
  outer: {type: holdout, repetitions: 3}
  inner: {type: none}
tables:
  published: tiny.published.csv
)");
  const auto config = experiment::load_config(path);
  REQUIRE(config.published.size() == 5);
  const std::string directory = (testing::scratch_directory() / "published_run").string();
  std::filesystem::remove_all(directory);
  experiment::run_tasks(config, experiment::plan_tasks(config), {directory, 1, {}});
  experiment::collect(config, {directory}, directory, false);
  const auto rows = csv_rows(experiment::read_whole_file(directory + "/paper_comparison.csv"));
  const auto results = csv_rows(experiment::read_whole_file(directory + "/results.csv"));
  REQUIRE(rows.size() == 5);
  REQUIRE(results.size() == 3);
  double accuracy = 0;
  for (const auto& result : results) accuracy += std::stod(result.at("accuracy")) / 3;
  CHECK(std::stod(rows[0].at("ours")) == Approx(100 * (1 - accuracy)));
  CHECK(std::stod(rows[1].at("ours")) == Approx(accuracy));
  CHECK(rows[0].at("n") == "3");
  double majority = 0;  // the baseline: the rows' majority-class rate, printed as each cell is
  for (const auto& result : results) majority += std::stod(result.at("majority_accuracy")) / 3;
  CHECK(std::stod(rows[0].at("baseline")) == Approx(100 * (1 - majority)));
  CHECK(std::stod(rows[1].at("baseline")) == Approx(majority));
  CHECK(rows[1].at("beats_baseline") == (accuracy > majority ? "yes" : "no"));
  CHECK(rows[2].at("baseline").empty());
  double features = 0;
  for (const auto& result : results) features += std::stod(result.at("n_features")) / 3;
  CHECK(std::stod(rows[2].at("ours")) == Approx(12 - features));
  CHECK(rows[2].at("metric") == "12-n_features");
  CHECK(rows[3].at("verdict") == "not_run");
  CHECK(rows[4].at("verdict") == "not_run");  // a label the run lacks says so, not silently
  CHECK_THAT(rows[4].at("note"), Catch::Contains("no method labelled 'SVN'") && Catch::Contains("misspelled"));
}

TEST_CASE("published cells of a data set listed in published_left_out are not run; unlisted, they are refused",
          "[paper][config]") {
  write_file("two_cases.published.csv", kHeader +
      "T,case 1,accuracy,q,case=1,SVM,accuracy,1,0.9,,none,20,\n"
      "T,case 2,accuracy,q,case=2,SVM,accuracy,1,0.9,,none,20,\n");
  const std::string path = write_file("two_cases.yaml", R"(name: two_cases
seed: 4
datasets:
  - name: q
    generator: psi_quadratic
    params: {n: 40}
    grid: {case: [1]}
methods: [SVM]
protocol:
  outer: {type: holdout, repetitions: 1}
  inner: {type: none}
tables:
  published: two_cases.published.csv
)");
  CHECK_THROWS_WITH(experiment::load_config(path), Catch::Contains("line 3") &&
                    Catch::Contains("no data set 'q' with condition 'case=2'") && Catch::Contains("published_left_out"));
  CHECK_THROWS_WITH(experiment::load_config(path, {"tables.published_left_out=[{dataset: q, condition: case=1}]"}),
                    Catch::Contains("published_left_out[0]") && Catch::Contains("is run by this config"));
  CHECK_THROWS_WITH(experiment::load_config(path, {"tables.published_left_out=[{dataset: q, condition: case=7}]"}),
                    Catch::Contains("published_left_out[0]") && Catch::Contains("no published cell"));
  CHECK_THROWS_WITH(experiment::load_config(path, {"tables.published_left_out=[{dataset: q, condition: case=2}, "
                                                   "{dataset: q, condition: case=2}]"}),
                    Catch::Contains("published_left_out[1]") && Catch::Contains("listed twice"));
  const auto config = experiment::load_config(path, {"tables.published_left_out=[{dataset: q, condition: case=2}]"});
  const std::string directory = (testing::scratch_directory() / "two_cases_run").string();
  std::filesystem::remove_all(directory);
  experiment::run_tasks(config, experiment::plan_tasks(config), {directory, 1, {}});
  experiment::collect(config, {directory}, directory, false);
  const auto rows = csv_rows(experiment::read_whole_file(directory + "/paper_comparison.csv"));
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].at("n") == "1");
  CHECK(rows[1].at("verdict") == "not_run");
  CHECK_THAT(rows[1].at("note"), Catch::Contains("published_left_out leaves out data set 'q' with condition 'case=2'"));
  // The run directory's config.yaml (what status, collect and a resumed run read) keeps the list.
  experiment::write_run_config(directory, config);
  CHECK(experiment::load_config(directory + "/config.yaml").published_left_out.size() == 1);
}

TEST_CASE("every committed config's published cells name its own data sets and method labels", "[paper][config]") {
  std::size_t configs = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(testing::repo_file("configs"))) {
    if (entry.path().extension() != ".yaml") continue;
    const auto config = experiment::load_config(entry.path().string());
    if (config.published.empty()) continue;
    ++configs;
    for (const auto& cell : config.published) {
      if (cell.not_run()) continue;
      INFO(entry.path().string() << ": line " << cell.line << ": " << cell.method);
      CHECK(std::any_of(config.methods.begin(), config.methods.end(),
                        [&](const experiment::MethodEntry& m) { return m.label == cell.method; }));
    }
  }
  CHECK(configs >= 1);
}

TEST_CASE("failed fits are counted beside the mean: formatted table, numeric table, paper comparison", "[paper][collect]") {
  // One positive among ten examples: a 70/30 split leaves it out of the training part in about three
  // repetitions of ten, whose rows are input errors (a training part with one class cannot be fitted).
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < 10; ++i) csv += fmt::format("{},{},{}\n", i, i % 3, i == 0 ? 1 : -1);
  write_file("one_positive.csv", csv);
  write_file("one_positive.published.csv", kHeader + "T,SVM,accuracy,rare,,SVM,accuracy,1,0.9,,none,10,\n");
  const auto config = experiment::load_config(write_file("one_positive.yaml", R"(name: one_positive
seed: 2
datasets:
  - {name: rare, file: one_positive.csv}
methods: [SVM]
protocol:
  outer: {type: holdout, test_fraction: 0.3, repetitions: 10}
  inner: {type: none}
tables:
  metrics: [accuracy]
  published: one_positive.published.csv
)"));
  const std::string directory = (testing::scratch_directory() / "failed_run").string();
  std::filesystem::remove_all(directory);
  experiment::run_tasks(config, experiment::plan_tasks(config), {directory, 1, {}});
  experiment::collect(config, {directory}, directory, false);
  std::size_t failed = 0;
  for (const auto& row : csv_rows(experiment::read_whole_file(directory + "/results.csv"))) failed += row.at("status") != "optimal";
  REQUIRE(failed > 0);
  REQUIRE(failed < 10);
  const auto formatted = csv_rows(experiment::read_whole_file(directory + "/table_accuracy.csv"));
  CHECK_THAT(formatted.at(0).at("rare"), Catch::Contains(fmt::format("({} failed)", failed)));
  const auto numeric = csv_rows(experiment::read_whole_file(directory + "/table_accuracy_numeric.csv"));
  CHECK(numeric.at(0).at("n") == std::to_string(10 - failed));
  CHECK(numeric.at(0).at("failed") == std::to_string(failed));
  const auto compared = csv_rows(experiment::read_whole_file(directory + "/paper_comparison.csv"));
  CHECK(compared.at(0).at("n") == std::to_string(10 - failed));
  CHECK(compared.at(0).at("failed") == std::to_string(failed));
}

TEST_CASE("k-fold of one data set: the spread across re-partitions, not across folds, enters the standard errors",
          "[paper]") {
  const auto cells = experiment::read_published(write_file("published_partitions.csv", kHeader +
      "T,r1,c1,d,,M,accuracy,100,80,,none,10,\n"
      "T,r2,c2,d,,M,accuracy,100,80,,none,10,\n"
      "T,r3,c3,d,,M,accuracy,100,80,2,se,10,\n"));
  std::vector<experiment::OurCell> ours(3);
  // Folds spread widely (std 10), partition means little (82, 84, 86: s_P = 2).
  const std::vector<double> folds = {72, 92, 74, 94, 76, 96};
  for (auto& our : ours) {
    our.values = folds;
    our.one_data_set_cv = true;
  }
  ours[0].partition_means = {82, 84, 86};
  ours[2].partition_means = {82, 84, 86};
  const auto rows = csv_rows(experiment::paper_comparison_csv(cells, ours));
  CHECK(rows[0].at("se_rule") == "re-partitions 3");
  CHECK(std::stod(rows[0].at("ours_se")) == Approx(2 / std::sqrt(3.0)));
  CHECK(std::stod(rows[0].at("paper_se")) == Approx(2.0));  // one partition of the paper: s_P
  CHECK(rows[0].at("paper_se_source") == "ours");
  CHECK(std::stod(rows[0].at("z")) == Approx(4 / std::sqrt(4.0 / 3 + 4)));  // 1.73: within 2 SE ...
  // ... where the folds' spread (std 10.06 over 6, and the paper's 10.06 / sqrt(10)) said within 1 SE.
  CHECK(rows[1].at("se_rule") == "one partition");
  CHECK(rows[1].at("verdict") == "within_1se");
  CHECK(rows[2].at("paper_se_source") == "paper");
  CHECK(std::stod(rows[2].at("paper_se")) == Approx(2.0));
}

TEST_CASE("partitions: partition 0 is the single partition's split; collect measures the spread across them",
          "[paper][tasks]") {
  write_file("partitions.published.csv", kHeader + "T,acc,all,g,,OneNormSVM,accuracy,1,0.8,,none,5,\n");
  const auto config_text = [](const std::string& partitions) {
    return fmt::format(R"(name: partitions
seed: 7
datasets:
  - {{name: g, generator: dca_gaussians, params: {{n: 50}}}}
methods: [OneNormSVM]
grid: {{lambda: [0.5]}}
protocol:
  outer: {{type: kfold, folds: 5{}}}
  inner: {{type: none}}
tables:
  published: partitions.published.csv
)", partitions);
  };
  const auto one = experiment::load_config(write_file("partitions1.yaml", config_text("")));
  const auto three = experiment::load_config(write_file("partitions3.yaml", config_text(", partitions: 3")));
  const auto tasks_one = experiment::plan_tasks(one), tasks_three = experiment::plan_tasks(three);
  REQUIRE(tasks_three.size() == 15);
  const std::string directory = (testing::scratch_directory() / "partitions_run").string();
  std::filesystem::remove_all(directory);
  experiment::run_tasks(three, tasks_three, {directory, 1, {}});
  experiment::collect(three, {directory}, directory, false);
  const auto results = csv_rows(experiment::read_whole_file(directory + "/results.csv"));
  REQUIRE(results.size() == 15);
  // Partition 0 (reps 0-4) fits what the single partition's folds fit.
  const std::vector<std::string> columns = experiment::result_columns(one);
  const auto objective_column = static_cast<std::size_t>(std::find(columns.begin(), columns.end(), "objective") - columns.begin());
  std::map<std::string, std::string> objective_of_rep;
  for (const auto& row : results) objective_of_rep[row.at("rep")] = row.at("objective");
  for (std::size_t rep = 0; rep < 5; ++rep) {
    const auto single = experiment::run_group(one, 0, rep, experiment::repetition_sample(one, one.datasets[0], rep));
    CHECK(objective_of_rep.at(std::to_string(rep)) == single.front().row.at(objective_column));
  }
  CHECK(objective_of_rep.at("5") != objective_of_rep.at("0"));  // partition 1 is another partition
  std::vector<double> means(3, 0.0);
  for (const auto& row : results) means[std::stoul(row.at("rep")) / 5] += std::stod(row.at("accuracy")) / 5;
  const double average = (means[0] + means[1] + means[2]) / 3;
  double spread = 0;
  for (const double m : means) spread += (m - average) * (m - average) / 2;
  const auto comparison = csv_rows(experiment::read_whole_file(directory + "/paper_comparison.csv"));
  CHECK(comparison.at(0).at("se_rule") == "re-partitions 3");
  CHECK(std::stod(comparison.at(0).at("ours_se")) == Approx(std::sqrt(spread / 3)));
  CHECK(std::stod(comparison.at(0).at("paper_se")) == Approx(std::sqrt(spread)));
}
