#include "data_source_options.hpp"

#include <fmt/format.h>

#include "core/errors.hpp"
#include "data/load.hpp"

namespace sparsesvm::app {

std::pair<std::string, std::string> split_key_value(const std::string& item, const std::string& option) {
  const std::size_t equals = item.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw CLI::ValidationError(option, fmt::format("expected key=value, found '{}'", item));
  }
  return {item.substr(0, equals), item.substr(equals + 1)};
}

void DataSourceOptions::add_to(CLI::App& command) {
  command.add_option("file", location,
                     "data file (UCI-style delimited text or LIBSVM), or DIR/NAME for the NIPS 2003 format");
  command.add_option("-g,--generator", generator,
                     "a generator spec instead of a file, e.g. dca_gaussians:noise_dims=10,seed=3");
  command.add_option("-f,--format", format, "auto, delimited, libsvm or nips2003")
      ->check(CLI::IsMember({"auto", "delimited", "libsvm", "nips2003"}));
  command.add_option("-o,--option", loader_options,
                     "loader option key=value, repeatable (e.g. -o positive=M -o drop_columns=0 -o missing=keep); "
                     "see docs/user-guide.md, \"Loader options\", for the keys")
      ->allow_extra_args(false);
}

core::Dataset DataSourceOptions::load() const {
  if (generator.empty() == location.empty()) {
    throw CLI::ValidationError("data", "give either a file or --generator, not both or neither");
  }
  data::DataSource source = generator.empty() ? data::DataSource{location, format, {}, classes}
                                              : data::DataSource{generator, "generator", {}, classes};
  for (const std::string& item : loader_options) {
    const auto [key, value] = split_key_value(item, "--option");
    if (!source.options.emplace(key, value).second) {
      throw core::InputError(fmt::format("--option: '{}' is given twice ({}={} and {}={}); give it once", key, key,
                                         source.options.at(key), key, value));
    }
  }
  return data::load_dataset(source);
}

}  // namespace sparsesvm::app
