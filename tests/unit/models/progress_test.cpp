// Progress lines (core/progress.hpp): a sink set receives a line per objective trace entry, per LP
// generation round, per full LP, Clp's status every kProgressSimplexInterval simplex iterations and every
// kProgressFirstOrderInterval first-order iterations; with or without a sink a fit computes the same.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "data/generators/generator_registry.hpp"
#include "models/lp_crossover.hpp"
#include "models/methods.hpp"
#include "models/workspace.hpp"
#include "optim/clp_lp.hpp"
#include "toy_problems.hpp"

using namespace sparsesvm;
using namespace sparsesvm::models;

namespace {

// The lines a sink receives while `work` runs; the sink is off again afterwards, also where `work` throws.
template <class Work>
std::vector<std::string> lines_during(const Work& work) {
  std::vector<std::string> lines;
  struct SinkOff {
    ~SinkOff() { core::set_progress_sink({}); }
  } sink_off;
  const core::ProgressSink before = core::set_progress_sink([&](const std::string& line) { lines.push_back(line); });
  REQUIRE_FALSE(before);
  work();
  return lines;
}

std::size_t count_starting(const std::vector<std::string>& lines, const std::string& prefix) {
  std::size_t count = 0;
  for (const std::string& line : lines) count += line.rfind(prefix, 0) == 0 ? 1 : 0;
  return count;
}

FitReport fit(const std::string& method, const core::Dataset& data, const Hyperparameters& h) {
  Workspace workspace(data);
  return fit_method(method, h, workspace);
}

}  // namespace

TEST_CASE("a progress sink sees each trace entry and generation round, and changes no number", "[progress]") {
  const core::Dataset data = data::generate("text_shaped:n=400,d=3000,nnz_per_row=20,informative=30,seed=5");
  const Hyperparameters options = {{"lambda", 0.1}, {"lp_form", static_cast<double>(LpForm::generation)}};
  for (const std::string method : {"OneNormSVM", "RLSVM0"}) {
    INFO(method);
    const FitReport quiet = fit(method, data, options);
    REQUIRE(quiet.has_solution());
    CHECK_FALSE(core::progress_wanted());
    FitReport watched;
    const std::vector<std::string> lines = lines_during([&] { watched = fit(method, data, options); });
    CHECK_FALSE(core::progress_wanted());
    // The same fit, bit for bit.
    CHECK(watched.status == quiet.status);
    CHECK(watched.objective == quiet.objective);
    CHECK(watched.model.w() == quiet.model.w());
    CHECK(watched.model.b() == quiet.model.b());
    CHECK(watched.objective_trace == quiet.objective_trace);
    // A line per trace entry (a DCA start's entry counted in its own fit and again as DCA's first), at
    // least one per generation round.
    const std::size_t trace_lines = count_starting(lines, "objective ");
    CHECK(trace_lines >= watched.objective_trace.size());
    CHECK(trace_lines <= watched.objective_trace.size() + 1);
    CHECK(count_starting(lines, "LP generation round 1:") >= 1);
    // The fit's own first and last lines (RLSVM0's start, OneNormSVM, has its own between them).
    REQUIRE(lines.size() >= 2);
    CHECK(lines.front().rfind(method + " (", 0) == 0);
    CHECK(lines.back().rfind(method + " (", 0) == 0);
    const std::string ends = " ends: " + watched.brief();
    CHECK(lines.back().size() > ends.size());
    CHECK(lines.back().compare(lines.back().size() - ends.size(), ends.size(), ends) == 0);
  }
}

TEST_CASE("a generation round stopped by the simplex iteration limit has its line", "[progress]") {
  const core::Dataset data = data::generate("text_shaped:n=400,d=3000,nnz_per_row=20,informative=30,seed=5");
  const Hyperparameters options = {
      {"lambda", 0.1}, {"lp_form", static_cast<double>(LpForm::generation)}, {"simplex_iteration_limit", 100.0}};
  FitReport limited;
  const std::vector<std::string> lines = lines_during([&] { limited = fit("OneNormSVM", data, options); });
  REQUIRE(limited.stop_reason == kSimplexLimitStop);
  const auto stopped = std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
    return line.rfind("LP generation round 1: ", 0) == 0 && line.find("ended iteration_limit") != std::string::npos;
  });
  CHECK(stopped != lines.end());
}

TEST_CASE("Clp's status comes every kProgressSimplexInterval iterations of one solve and changes no number",
          "[progress]") {
  // A full LP of 2885 simplex iterations (about 0.8 s): Clp logs a status at each refactorization.
  const core::Dataset data = data::generate("text_shaped:n=1000,d=3000,nnz_per_row=20,informative=30,seed=5");
  const Hyperparameters options = {{"lambda", 0.1}, {"lp_form", static_cast<double>(LpForm::full)}};
  const FitReport quiet = fit("OneNormSVM", data, options);
  REQUIRE(quiet.status == core::Status::optimal);
  FitReport watched;
  const std::vector<std::string> lines = lines_during([&] { watched = fit("OneNormSVM", data, options); });
  CHECK(watched.status == quiet.status);
  CHECK(watched.objective == quiet.objective);
  CHECK(watched.model.w() == quiet.model.w());
  CHECK(watched.model.b() == quiet.model.b());
  CHECK(watched.inner_iterations == quiet.inner_iterations);
  const std::string prefix = "Clp's simplex, iteration ";
  std::vector<long> iterations;  // of each Clp line, which goes on "<iteration>: Obj <value> ..."
  for (const std::string& line : lines) {
    if (line.rfind(prefix, 0) != 0) continue;
    std::size_t end = 0;
    iterations.push_back(std::stol(line.substr(prefix.size()), &end));
    CHECK(line.compare(prefix.size() + end, 6, ": Obj ") == 0);
  }
  REQUIRE_FALSE(iterations.empty());
  CHECK(iterations.front() >= optim::kProgressSimplexInterval);
  for (std::size_t k = 1; k < iterations.size(); ++k) CHECK(iterations[k] - iterations[k - 1] >= optim::kProgressSimplexInterval);
  CHECK(iterations.back() <= watched.inner_iterations);
}

TEST_CASE("the first-order method reports its gap every kProgressFirstOrderInterval iterations", "[progress]") {
  const core::Dataset data = testing::random_problem(300, 8, 8, 3);
  const StepLpCosts costs = step_lp_costs(testing::one_norm_step(data, 0.5), static_cast<Eigen::Index>(data.d()));
  FirstOrderOptions options;
  options.relative_gap = 0.0;  // never met: it runs out of iterations
  options.max_iterations = 3 * kProgressFirstOrderInterval;
  FirstOrderPoint point;
  const std::vector<std::string> lines = lines_during([&] { point = first_order_point(data, costs, {}, options); });
  CHECK(point.iterations == options.max_iterations);
  CHECK(count_starting(lines, "first-order method (PDHG), iteration ") == 3);
}

TEST_CASE("a MIP's search reports every kProgressNodeInterval nodes and changes nothing", "[progress]") {
  struct Search {
    std::string data, search, line;
    double lp_iteration_limit;  // Cbc: 0, so that only the progress line's handler is passed to it
  };
  for (const Search& search : {Search{"psi_quadratic:n=100,case=3,seed=3", "cbc", "Cbc: 1000 nodes, ", 0.0},
                               Search{"psi_quadratic:n=200,case=2,seed=1", "box", "psi box search: 1000 boxes, ", 200000.0}}) {
    INFO(search.data << ", search " << search.search);
    const core::Dataset data = data::generate(search.data);
    // Past the first line's node: a search the line stopped or changed would end elsewhere.
    const Hyperparameters options = {{"C", 1.0}, {"node_limit", 1200.0}, {"lp_iteration_limit", search.lp_iteration_limit},
                                     {"search", search.search == "cbc" ? 1.0 : 2.0}};
    const FitReport quiet = fit("PSI-1", data, options);
    FitReport watched;
    const std::vector<std::string> lines = lines_during([&] { watched = fit("PSI-1", data, options); });
    REQUIRE(watched.has_solution());
    CHECK(watched.stop_reason == quiet.stop_reason);
    CHECK(watched.objective == quiet.objective);
    CHECK(watched.model.w() == quiet.model.w());
    for (const auto& [name, value] : quiet.statistics) {  // the work and the bound; not the seconds
      INFO(name);
      const double seen = watched.statistics.at(name);
      if (name != "mip_seconds") CHECK((seen == value || (std::isnan(seen) && std::isnan(value))));
    }
    CHECK(count_starting(lines, search.line) == 1);
  }
}
