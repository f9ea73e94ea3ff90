#include "data/load.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <set>

#include "core/errors.hpp"
#include "core/sha256.hpp"
#include "data/delimited_reader.hpp"
#include "data/generators/generator_registry.hpp"
#include "data/libsvm_reader.hpp"
#include "data/nips2003_reader.hpp"
#include "data/text_reader.hpp"

namespace sparsesvm::data {

using core::InputError;

std::vector<std::string> loader_formats() { return {"auto", "delimited", "libsvm", "nips2003", "generator"}; }

namespace {

// Typed reads of the option map; every error names the option and the data source.
class OptionReader {
 public:
  OptionReader(const DataSource& source, std::set<std::string> known) : source_(source), known_(std::move(known)) {
    for (const auto& entry : source.options) {
      if (!known_.contains(entry.first)) {
        throw InputError(fmt::format("{}: unknown {} loader option '{}' (known: {})", source.location, source.format,
                                     entry.first, fmt::join(known_, ", ")));
      }
    }
  }

  const std::string* find(const std::string& key) const {
    const auto found = source_.options.find(key);
    return found == source_.options.end() ? nullptr : &found->second;
  }

  long integer(const std::string& key, long fallback) const {
    const std::string* text = find(key);
    if (!text) return fallback;
    return parse_integer(key, *text);
  }

  std::optional<bool> boolean(const std::string& key) const {
    const std::string* text = find(key);
    if (!text || *text == "auto") return std::nullopt;
    if (*text == "true" || *text == "yes" || *text == "1") return true;
    if (*text == "false" || *text == "no" || *text == "0") return false;
    throw InputError(fmt::format("{}: option {} must be true, false or auto, found '{}'", source_.location, key, *text));
  }

  std::vector<std::string> list(const std::string& key, char separator) const {
    std::vector<std::string> items;
    if (const std::string* text = find(key)) {
      for (const Field& field : split_fields(*text, separator)) items.emplace_back(field.text);
    }
    return items;
  }

  std::vector<int> integer_list(const std::string& key) const {
    std::vector<int> values;
    for (const std::string& item : list(key, ',')) values.push_back(column_number(key, parse_integer(key, item)));
    return values;
  }

  LabelMap label_map() const {
    LabelMap map;
    map.positive = list("positive", '|');
    map.negative = list("negative", '|');
    if (const std::string* text = find("threshold")) {
      map.threshold = parse_number(*text, Location{source_.location, 0, 0}, "option threshold");
    }
    map.most_frequent = boolean("most_frequent").value_or(false);
    const int rules = (map.positive.empty() && map.negative.empty() ? 0 : 1) + (map.threshold ? 1 : 0) +
                      (map.most_frequent ? 1 : 0);
    if (rules > 1) {
      throw InputError(fmt::format("{}: loader options positive/negative, threshold and most_frequent are "
                                   "alternatives; give one", source_.location));
    }
    return map;
  }

  std::string text(const std::string& key, const std::string& fallback) const {
    const std::string* value = find(key);
    return value ? *value : fallback;
  }

  // A column number (negative from the end) within int's range: no silent wrap of 2^32 to 0.
  int column_number(const std::string& key, long value) const {
    constexpr long kLimit = 1'000'000'000;
    if (value > kLimit || value < -kLimit) {
      throw InputError(fmt::format("{}: option {} is {}, not a column number", source_.location, key, value));
    }
    return static_cast<int>(value);
  }

 private:
  long parse_integer(const std::string& key, const std::string& text) const {
    long value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size()) {
      throw InputError(fmt::format("{}: option {} must be an integer, found '{}'", source_.location, key, text));
    }
    return value;
  }

  const DataSource& source_;
  std::set<std::string> known_;
};

const std::set<std::string> kLabelOptions = {"positive", "negative", "threshold", "most_frequent", "name"};

std::set<std::string> with_label_options(std::set<std::string> keys) {
  keys.insert(kLabelOptions.begin(), kLabelOptions.end());
  return keys;
}

std::size_t non_negative(long value, const std::string& key, const std::string& location) {
  if (value < 0) throw InputError(fmt::format("{}: option {} must not be negative", location, key));
  return static_cast<std::size_t>(value);
}

core::Dataset load_delimited(const DataSource& source) {
  const OptionReader options(source, with_label_options({"delimiter", "header", "label_column", "drop_columns",
                                                         "missing", "missing_token"}));
  DelimitedOptions parsed;
  const std::string delimiter = options.text("delimiter", "");
  parsed.sniff_delimiter = delimiter.empty();
  if (delimiter.empty()) {
    parsed.delimiter = ',';
  } else if (delimiter == "whitespace") {
    parsed.delimiter = 0;
  } else if (delimiter.size() == 1) {
    parsed.delimiter = delimiter[0];
  } else {
    throw InputError(fmt::format("{}: option delimiter must be one character or 'whitespace', found '{}'",
                                 source.location, delimiter));
  }
  parsed.header = options.boolean("header");
  // label_column: a column number (from 0; negative from the end) or a header name.
  const std::string label_column = options.text("label_column", "-1");
  if (label_column.find_first_not_of("-0123456789") != std::string::npos) {
    parsed.label_column_name = label_column;
  } else {
    parsed.label_column = options.column_number("label_column", options.integer("label_column", -1));
  }
  parsed.drop_columns = options.integer_list("drop_columns");
  parsed.labels = options.label_map();
  parsed.labels.allow_one_class = source.classes != Classes::both;
  parsed.has_label_column = source.classes != Classes::none;
  parsed.missing = parse_missing_policy(options.text("missing", "error"));
  parsed.missing_token = options.text("missing_token", "?");
  parsed.name = options.text("name", "");
  return read_delimited(source.location, parsed);
}

core::Dataset load_libsvm(const DataSource& source) {
  const OptionReader options(source, with_label_options({"n_features", "storage"}));
  LibsvmOptions parsed;
  parsed.labels = options.label_map();
  parsed.labels.allow_one_class = source.classes != Classes::both;
  parsed.labelled = source.classes != Classes::none;
  parsed.n_features = non_negative(options.integer("n_features", 0), "n_features", source.location);
  parsed.storage = parse_storage(options.text("storage", "automatic"));
  parsed.name = options.text("name", "");
  return read_libsvm(source.location, parsed);
}

core::Dataset load_nips2003(const DataSource& source) {
  const OptionReader options(source, {"parts", "nips_format", "n_features", "storage"});
  Nips2003Options parsed;
  if (options.find("parts")) parsed.parts = options.list("parts", ',');
  std::vector<std::string> sorted_parts = parsed.parts;
  std::sort(sorted_parts.begin(), sorted_parts.end());
  if (std::adjacent_find(sorted_parts.begin(), sorted_parts.end()) != sorted_parts.end()) {
    throw InputError(fmt::format("{}: option parts names a part twice: '{}'", source.location, options.text("parts", "")));
  }
  if (parsed.parts.empty() || std::find(parsed.parts.begin(), parsed.parts.end(), "") != parsed.parts.end()) {
    throw InputError(fmt::format("{}: option parts must name parts like train,valid, found '{}'", source.location,
                                 options.text("parts", "")));
  }
  try {
    parsed.format = parse_nips2003_format(options.text("nips_format", "automatic"));
  } catch (const InputError& error) {
    throw InputError(fmt::format("{}: option nips_format: {}", source.location, error.what()));
  }
  parsed.n_features = non_negative(options.integer("n_features", 0), "n_features", source.location);
  parsed.storage = parse_storage(options.text("storage", "automatic"));
  parsed.labelled = source.classes != Classes::none;
  parsed.allow_one_class = source.classes != Classes::both;
  const std::filesystem::path prefix(source.location);
  return read_nips2003(prefix.parent_path().string(), prefix.filename().string(), parsed);
}

// libsvm when the first line has a token "index:value" after the label, delimited otherwise.
std::string detect_format(const std::string& path) {
  const std::string line = first_line_of_file(path);  // the tokens below point into it
  const std::vector<Field> tokens = split_fields(line, 0);
  return tokens.size() >= 2 && tokens[1].text.find(':') != std::string_view::npos ? "libsvm" : "delimited";
}

}  // namespace

core::Dataset load_dataset(const DataSource& source) {
  DataSource resolved = source;
  if (resolved.format == "auto") resolved.format = detect_format(source.location);
  const std::string& format = resolved.format;
  if (format == "delimited") return load_delimited(resolved);
  if (format == "libsvm") return load_libsvm(resolved);
  if (format == "nips2003") return load_nips2003(resolved);
  if (format == "generator") {
    if (!source.options.empty()) {
      throw InputError(fmt::format("generator {}: put parameters in the spec (name:key=value,...), not in options",
                                   source.location));
    }
    return generate(source.location);
  }
  throw InputError(fmt::format("unknown data format '{}' (known: {})", source.format, fmt::join(loader_formats(), ", ")));
}

SourceContent source_content(const DataSource& source) {
  namespace fs = std::filesystem;
  if (source.format == "generator") return {"generator " + canonical_spec(source.location), 0};
  SourceContent content;
  if (source.format != "nips2003") {
    const FileDigest file = digest_file(source.location);
    content.lines = file.lines;
    content.key = "file " + file.sha256;
    return content;
  }
  // A NIPS 2003 prefix: every file beginning with it, each named by what follows the prefix
  // ("_train.data"), so that the digest is the same wherever the files lie and whatever the prefix.
  const fs::path prefix(source.location);
  const std::string stem = prefix.filename().string();
  std::vector<fs::path> files;
  if (fs::is_directory(prefix.parent_path())) {
    for (const auto& entry : fs::directory_iterator(prefix.parent_path())) {
      if (entry.is_regular_file() && entry.path().filename().string().rfind(stem, 0) == 0) files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::string digests;
  for (const fs::path& file : files) {
    const FileDigest digest = digest_file(file.string());
    digests += file.filename().string().substr(stem.size()) + ":" + digest.sha256 + ";";
    content.lines += digest.lines;
  }
  content.key = "nips2003 " + core::sha256_hex(digests);
  return content;
}

}  // namespace sparsesvm::data
