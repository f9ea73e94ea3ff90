#pragma once
// Progress of a long fit, for a person watching it (`sparsesvm fit --verbose`): a line as each fit begins
// and ends, at each entry of a fit's objective trace (FitReport::trace_objective: a DCA step, an ADMM trace
// sweep, each MILP of a psi loop, RW's iterates when its walk ends), at each RW iterate solved, at each
// candidate of an inner selection, at each round of LP generation, at each full LP, Clp's own status line
// every kProgressSimplexInterval iterations of one of its solves (optim/clp_lp.hpp), every
// kProgressFirstOrderInterval iterations of the first-order method and every kProgressNodeInterval nodes
// of a branch and bound (Cbc's, psi's box search). Off unless an application sets a sink. The lines are
// for reading only: no row, column or file takes a number from them, and a fit computes the same with or
// without one.
#include <fmt/format.h>

#include <chrono>
#include <functional>
#include <string>
#include <utility>

namespace sparsesvm::core {

using ProgressSink = std::function<void(const std::string& line)>;

// Nodes between a branch and bound's progress lines (Cbc's, psi's box search).
constexpr long kProgressNodeInterval = 1000;

// Sets the process's sink (an empty one turns progress off) and returns the one it replaces. Set it
// before fits start: lines from fits running meanwhile may go to either. A sink must not throw: lines
// come from inside solvers' callbacks (Cbc's event handler).
ProgressSink set_progress_sink(ProgressSink sink);
bool progress_wanted();                         // a sink is set
void report_progress(const std::string& line);  // to the sink (after the thread's label), one line at a time

// While it lives, the progress lines of this thread begin with "<label>: " (`run -v`: which data set and
// repetition a line's fit belongs to, among tasks running side by side). Nested labels replace the outer
// one until they end.
class ProgressLabel {
 public:
  explicit ProgressLabel(std::string label);
  ~ProgressLabel();
  ProgressLabel(const ProgressLabel&) = delete;
  ProgressLabel& operator=(const ProgressLabel&) = delete;

 private:
  std::string outer_;  // the label this one replaced, back when it ends
};

const std::string& progress_label();  // this thread's, for a worker thread to carry on its parent's

// A line as a person reads it: "[   12.34 s] <line>\n", the seconds since `began` (fit -v, the Python
// estimator's verbose).
std::string timed_line(std::chrono::steady_clock::time_point began, const std::string& line);

// The line formatted only when a sink wants it. The caller evaluates the arguments: where they cost more
// than a few numbers, it asks progress_wanted() first (a fit pays nothing for progress nobody reads).
template <typename... Args>
void progress(fmt::format_string<Args...> format, Args&&... args) {
  if (progress_wanted()) report_progress(fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace sparsesvm::core
