// The C++ core as the Python module sparsesvm._core: the method registry, one fit on numpy or CSR arrays
// (the GIL released while it runs; with verbose, its progress lines on Python's sys.stderr), and the loaders. The estimator in sparsesvm/estimator.py is the
// public face; this module converts arrays and reports, nothing else. InputError becomes ValueError.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/closest_name.hpp"
#include "core/errors.hpp"
#include "core/progress.hpp"
#include "core/status.hpp"
#include "data/load.hpp"
#include "experiment/manifest.hpp"
#include "models/methods.hpp"
#include "models/scoring.hpp"
#include "models/workspace.hpp"

namespace py = pybind11;
using namespace sparsesvm;

namespace {

using DenseArray = py::array_t<double, py::array::f_style | py::array::forcecast>;
using IndexArray = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using ValueArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A 1-d array of n values (`name`: y, sample_weight) as a vector.
core::Vector vector_of(const ValueArray& values, std::size_t n, const char* name) {
  if (values.ndim() != 1 || static_cast<std::size_t>(values.shape(0)) != n) {
    throw core::InputError(fmt::format("{} has shape {} where {} values were expected", name,
                                       values.ndim() == 1 ? values.shape(0) : -1, n));
  }
  return Eigen::Map<const core::Vector>(values.data(), static_cast<Eigen::Index>(n));
}

core::Dataset dense_dataset(const DenseArray& x, const ValueArray& y) {
  if (x.ndim() != 2) throw core::InputError(fmt::format("X has {} dimensions, expected 2", x.ndim()));
  const auto n = static_cast<Eigen::Index>(x.shape(0)), d = static_cast<Eigen::Index>(x.shape(1));
  // One copy from Fortran-ordered input; a C-ordered array is first converted by numpy (forcecast).
  core::DenseMatrix features = Eigen::Map<const core::DenseMatrix>(x.data(), n, d);
  return core::Dataset("python", std::move(features), vector_of(y, static_cast<std::size_t>(n), "y"), {},
                       core::Provenance{"python", "numpy array", "", {}});
}

// A CSR matrix (scipy's data, indices, indptr) copied into the core's row-major sparse storage.
core::Dataset csr_dataset(const ValueArray& values, const IndexArray& indices, const IndexArray& indptr,
                          std::size_t n, std::size_t d, const ValueArray& y) {
  if (static_cast<std::size_t>(indptr.size()) != n + 1 || indices.size() != values.size()) {
    throw core::InputError("a CSR matrix needs indptr of n + 1 entries and one index per value");
  }
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(static_cast<std::size_t>(values.size()));
  for (std::size_t i = 0; i < n; ++i) {
    for (std::int64_t k = indptr.at(i); k < indptr.at(i + 1); ++k) {
      const std::int64_t j = indices.at(k);
      if (j < 0 || static_cast<std::size_t>(j) >= d) throw core::InputError(fmt::format("column index {} outside 0..{}", j, d - 1));
      entries.emplace_back(static_cast<int>(i), static_cast<int>(j), values.at(k));
    }
  }
  core::SparseMatrix features(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(d));
  features.setFromTriplets(entries.begin(), entries.end());
  return core::Dataset("python", std::move(features), vector_of(y, n, "y"), {}, core::Provenance{"python", "CSR matrix", "", {}});
}

py::dict report_dict(const models::FitReport& report) {
  py::dict out;
  out["status"] = core::to_string(report.status);
  out["has_solution"] = report.has_solution();
  out["objective"] = report.objective;
  out["message"] = report.message;
  out["stop_reason"] = report.stop_reason;
  out["certificate"] = report.certificate;
  out["certificate_kind"] = report.certificate_kind;
  out["iterations"] = report.iterations;
  out["inner_iterations"] = report.inner_iterations;
  out["inner_solves"] = report.inner_solves;
  out["seconds"] = report.seconds;
  out["parameters"] = report.hyperparameters;
  out["statistics"] = report.statistics;
  out["text_statistics"] = report.text_statistics;
  out["objective_trace"] = report.objective_trace;
  const core::Vector& w = report.model.w();
  out["coef"] = py::array_t<double>(w.size(), w.data());
  out["intercept"] = report.model.b();
  return out;
}

// Progress lines (core/progress.hpp) on Python's sys.stderr, as `fit -v` prints them, while at least one
// verbose fit runs: the process has one sink, so the first verbose fit sets it and the last one to end
// removes it (a fit running beside them meanwhile has its lines printed too; the seconds count from the
// sink's making). Made and ended with the GIL released, since a line takes the GIL while the sink's lock is
// held. A line that cannot be written (sys.stderr closed or replaced by something without write) is
// dropped: a sink must not throw.
class VerboseFit {
 public:
  VerboseFit() {
    const std::lock_guard<std::mutex> lock(mutex());
    if (running()++ == 0) core::set_progress_sink(python_stderr_sink());
  }
  ~VerboseFit() {
    const std::lock_guard<std::mutex> lock(mutex());
    if (--running() == 0) core::set_progress_sink({});
  }
  VerboseFit(const VerboseFit&) = delete;
  VerboseFit& operator=(const VerboseFit&) = delete;

 private:
  static std::mutex& mutex() {
    static std::mutex verbose_mutex;
    return verbose_mutex;
  }
  static int& running() {
    static int verbose_fits = 0;
    return verbose_fits;
  }
  static core::ProgressSink python_stderr_sink() {
    return [began = std::chrono::steady_clock::now()](const std::string& line) {
      const std::string text = core::timed_line(began, line);
      const py::gil_scoped_acquire gil;
      try {
        const py::object stderr_stream = py::module_::import("sys").attr("stderr");
        stderr_stream.attr("write")(text);
        stderr_stream.attr("flush")();
      } catch (py::error_already_set& error) {  // the line is dropped
        // Python runs its signal handlers inside write(): a Ctrl-C raised there is passed on, to be raised
        // when the fit returns, as it would be without verbose.
        if (error.matches(PyExc_KeyboardInterrupt)) PyErr_SetInterrupt();
      } catch (const std::exception&) {  // the line is dropped
      }
    };
  }
};

// Fits `method` with `parameters` (the rest at their defaults) on `data`, example i's loss weighted by
// sample_weight[i] (None: 1); the GIL is released meanwhile. verbose: progress lines on sys.stderr.
py::dict fit(const std::string& method, const models::Hyperparameters& parameters, core::Dataset data, std::uint64_t seed,
             const std::optional<ValueArray>& sample_weight, bool verbose) {
  models::find_method(method);  // an unknown name is a ValueError before any work
  const core::Vector weights = sample_weight ? vector_of(*sample_weight, data.n(), "sample_weight") : core::Vector();
  models::FitReport report;
  {
    py::gil_scoped_release release;
    std::optional<VerboseFit> progress;
    if (verbose) progress.emplace();
    models::Workspace workspace(data, seed);
    workspace.set_example_weights(weights);
    report = models::fit_method(method, parameters, workspace);
  }
  return report_dict(report);
}

py::list methods() {
  py::list out;
  for (const models::MethodInfo& method : models::method_registry()) {
    py::list parameters;
    for (const models::ParameterSpec& spec : method.parameters) {
      py::dict p;
      p["name"] = spec.name;
      p["description"] = spec.description;
      p["default"] = spec.default_value;
      p["range"] = spec.range();
      p["kind"] = spec.kind == models::ParameterKind::model ? "model" : "solver";
      p["integer"] = spec.integer;
      parameters.append(p);
    }
    py::dict m;
    m["name"] = method.name;
    m["citation"] = method.citation;
    m["loss"] = method.loss;
    m["penalty"] = method.penalty;
    m["algorithm"] = method.algorithm;
    m["start"] = method.start;
    m["weighting"] = models::to_string(method.weighting);
    m["class_weight_refusal"] = models::class_weight_refusal(method);
    m["parameters"] = parameters;
    out.append(m);
  }
  return out;
}

// A file read by the loaders: {"name", "feature_names", "y" (+-1), "dense"} or the CSR parts.
py::dict load(const std::string& path, const std::string& format, const std::map<std::string, std::string>& options) {
  const core::Dataset data = data::load_dataset(data::DataSource{path, format, options});
  py::dict out;
  out["name"] = data.name();
  out["feature_names"] = data.feature_names();
  out["y"] = py::array_t<double>(data.labels().size(), data.labels().data());
  out["provenance"] = data.provenance().describe();
  if (!data.is_sparse()) {
    const core::DenseMatrix& x = data.dense();
    // numpy reads Eigen's column-major buffer with Fortran strides.
    out["dense"] = py::array_t<double>({x.rows(), x.cols()}, {sizeof(double), sizeof(double) * x.rows()}, x.data());
    return out;
  }
  core::SparseMatrix x = data.sparse();
  x.makeCompressed();  // plain CSR arrays
  out["shape"] = py::make_tuple(x.rows(), x.cols());
  out["data"] = py::array_t<double>(x.nonZeros(), x.valuePtr());
  out["indices"] = py::array_t<int>(x.nonZeros(), x.innerIndexPtr());
  out["indptr"] = py::array_t<int>(x.rows() + 1, x.outerIndexPtr());
  return out;
}

}  // namespace

PYBIND11_MODULE(_core, module) {
  module.doc() = "sparsesvm's C++ core (use the sparsesvm package, not this module)";
  py::register_exception<core::InputError>(module, "InputError", PyExc_ValueError);
  module.def("methods", &methods, "every registered method with its parameter table");
  module.def(
      "fit_dense",
      [](const std::string& method, const models::Hyperparameters& parameters, const DenseArray& x, const ValueArray& y,
         std::uint64_t seed, const std::optional<ValueArray>& sample_weight, bool verbose) {
        return fit(method, parameters, dense_dataset(x, y), seed, sample_weight, verbose);
      },
      py::arg("method"), py::arg("parameters"), py::arg("X"), py::arg("y"), py::arg("seed"),
      py::arg("sample_weight") = py::none(), py::arg("verbose") = false);
  module.def(
      "fit_csr",
      [](const std::string& method, const models::Hyperparameters& parameters, const ValueArray& values,
         const IndexArray& indices, const IndexArray& indptr, std::size_t n, std::size_t d, const ValueArray& y,
         std::uint64_t seed, const std::optional<ValueArray>& sample_weight, bool verbose) {
        return fit(method, parameters, csr_dataset(values, indices, indptr, n, d, y), seed, sample_weight, verbose);
      },
      py::arg("method"), py::arg("parameters"), py::arg("data"), py::arg("indices"), py::arg("indptr"), py::arg("n"),
      py::arg("d"), py::arg("y"), py::arg("seed"), py::arg("sample_weight") = py::none(), py::arg("verbose") = false);
  module.def("load", &load, py::arg("path"), py::arg("format") = "auto",
             py::arg("options") = std::map<std::string, std::string>{});
  module.def("build_commit", &experiment::build_commit);
  module.def(
      "parameter_value",
      [](const std::string& name, const std::string& text) {
        const models::ParameterSpec* spec = models::registry_parameter(name);
        if (!spec) throw core::InputError(fmt::format("unknown parameter '{}'", name));
        return spec->parse(text, name);
      },
      py::arg("name"), py::arg("text"), "a parameter's value as written (a choice's name, true/false, a number)");
  module.def(
      "score",
      [](const std::string& metric, const ValueArray& decisions, const ValueArray& labels) {
        if (decisions.ndim() != 1 || labels.ndim() != 1 || decisions.shape(0) != labels.shape(0)) {
          throw core::InputError("score: decisions and labels must be 1-d arrays of one length");
        }
        const auto n = static_cast<Eigen::Index>(labels.shape(0));
        const Eigen::Map<const core::Vector> y(labels.data(), n);
        if (((y.array() != 1.0) && (y.array() != -1.0)).any()) throw core::InputError("score: labels must be -1 or +1");
        if (Eigen::Map<const core::Vector>(decisions.data(), n).hasNaN()) {
          throw core::InputError("score: decisions contain NaN");  // as scikit-learn's metrics refuse them
        }
        return models::score(models::parse_metric(metric), Eigen::Map<const core::Vector>(decisions.data(), n), y);
      },
      py::arg("metric"), py::arg("decisions"), py::arg("labels"),
      "the score model selection optimizes (a config's protocol.inner.metric) of decision values against labels");
  module.def("metrics", &models::metric_names, "the metrics model selection can optimize");
  module.def("closest_name", &core::closest_name, py::arg("name"), py::arg("known"),
             "the known name closest to a misspelled one (the command line's 'did you mean'), or None");
}
