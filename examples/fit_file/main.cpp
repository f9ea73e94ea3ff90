// Fits one method on a data file through sparsesvm's C++ API and prints what the fit proved.
//   fit_file DATA [METHOD [LAMBDA]]     (defaults: OneNormSVM, lambda 1)
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "core/errors.hpp"
#include "core/status.hpp"
#include "data/load.hpp"
#include "models/methods.hpp"
#include "models/workspace.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DATA [METHOD [LAMBDA]]\n", argv[0]);
    return 1;
  }
  const std::string method = argc > 2 ? argv[2] : "OneNormSVM";
  const double lambda = argc > 3 ? std::atof(argv[3]) : 1.0;
  try {
    // Any format the command line reads (CSV with the class last, LIBSVM, NIPS 2003), detected by name.
    const sparsesvm::core::Dataset data = sparsesvm::data::load_dataset(sparsesvm::data::DataSource{argv[1], "auto", {}});
    sparsesvm::models::Workspace workspace(data);
    const sparsesvm::models::FitReport report = sparsesvm::models::fit_method(method, {{"lambda", lambda}}, workspace);
    std::printf("%s on %s (n = %zu, d = %zu): status %s, objective %.10g, %zu nonzero weights, training accuracy %.4f\n",
                method.c_str(), data.name().c_str(), data.n(), data.d(), sparsesvm::core::to_string(report.status).c_str(),
                report.objective, report.model.count_nonzeros(), report.model.accuracy(data));
    return report.has_solution() ? 0 : 1;
  } catch (const sparsesvm::core::InputError& error) {
    std::fprintf(stderr, "%s\n", error.what());
    return 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
}
