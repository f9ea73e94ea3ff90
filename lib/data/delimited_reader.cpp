#include "data/delimited_reader.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <limits>

#include "core/closest_name.hpp"
#include "core/errors.hpp"
#include "data/text_reader.hpp"

namespace sparsesvm::data {

using core::InputError;

std::string to_string(MissingPolicy policy) {
  switch (policy) {
    case MissingPolicy::error: return "error";
    case MissingPolicy::drop_row: return "drop_row";
    case MissingPolicy::keep: return "keep";
  }
  return "error";
}

MissingPolicy parse_missing_policy(const std::string& text) {
  for (MissingPolicy p : {MissingPolicy::error, MissingPolicy::drop_row, MissingPolicy::keep}) {
    if (to_string(p) == text) return p;
  }
  throw InputError(fmt::format("unknown missing-value policy '{}' (known: error, drop_row, keep)", text));
}

std::string file_stem(const std::string& path) { return std::filesystem::path(path).stem().string(); }

namespace {

// Resolves a possibly negative 0-based column against the row width; throws when out of range.
std::size_t resolve_column(int column, std::size_t width, const std::string& file, std::size_t line,
                           const char* role) {
  const long resolved = column < 0 ? static_cast<long>(width) + column : column;
  if (resolved < 0 || resolved >= static_cast<long>(width)) {
    core::throw_at(file, line, 0, fmt::format("{} column {} does not exist in a row of {} fields", role, column, width));
  }
  return static_cast<std::size_t>(resolved);
}

struct Layout {
  std::size_t width = 0;
  std::size_t label = 0;
  std::vector<bool> is_feature;  // per field
};

Layout make_layout(std::size_t width, const DelimitedOptions& options, const std::string& file, std::size_t line) {
  Layout layout{width, options.has_label_column ? resolve_column(options.label_column, width, file, line, "label") : width,
                std::vector<bool>(width, true)};
  if (options.has_label_column) layout.is_feature[layout.label] = false;
  for (int column : options.drop_columns) {
    const std::size_t dropped = resolve_column(column, width, file, line, "dropped");
    if (dropped == layout.label) {
      throw InputError(fmt::format("{}:{}: drop_columns names column {}, the label column; drop only features", file,
                                   line, column));
    }
    layout.is_feature[dropped] = false;
  }
  return layout;
}

// header: auto. A first row whose feature fields are all names is a header; all numbers (or missing),
// data. A mix is ambiguous (a typo in the first example, or a header with numeric names): an error
// asking for header true or false, rather than a guess that silently drops an example.
bool looks_like_header(const std::vector<Field>& fields, const Layout& layout, const std::string& missing_token,
                       const std::string& path, std::size_t line) {
  std::size_t names = 0, numbers = 0;
  const Field* name = nullptr;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (!layout.is_feature[k] || fields[k].text == missing_token) continue;
    if (is_number(fields[k].text)) {
      ++numbers;
    } else {
      ++names;
      name = name ? name : &fields[k];
    }
  }
  if (names > 0 && numbers > 0) {
    core::throw_at(path, line, name->column,
                   fmt::format("'{}' is not a number, but {} other fields of this first row are; is it a header? set "
                               "loader option header to true or false",
                               name->text, numbers));
  }
  return names > 0;
}

// For a file whose delimiter was not given: `fallback` (',') when the first line holds one, else ';' or a
// tab when it holds one of those (European CSV exports, TSV), else `fallback`.
char sniffed_delimiter(std::string_view first_line, char fallback) {
  if (first_line.find(fallback) != std::string_view::npos) return fallback;
  for (const char candidate : {';', '\t'}) {
    if (first_line.find(candidate) != std::string_view::npos) return candidate;
  }
  return fallback;
}

// The options with the class column named by the header `fields` (label_column given as a name).
DelimitedOptions with_named_label_column(DelimitedOptions options, const std::vector<Field>& fields,
                                         const std::string& path, std::size_t line) {
  std::vector<std::string> names;
  for (const Field& field : fields) names.emplace_back(field.text);
  const auto found = std::find(names.begin(), names.end(), options.label_column_name);
  if (found == names.end()) {
    const std::optional<std::string> suggestion = core::closest_name(options.label_column_name, names);
    core::throw_at(path, line, 0,
                   fmt::format("label_column '{}' is not a field of the first line (the header){}", options.label_column_name,
                               suggestion ? fmt::format("; did you mean '{}'?", *suggestion) : ""));
  }
  options.label_column = static_cast<int>(found - names.begin());
  options.header = true;
  return options;
}

}  // namespace

core::Dataset read_delimited(const std::string& path, const DelimitedOptions& given) {
  DelimitedOptions options = given;
  std::optional<Layout> layout;
  std::vector<std::string> feature_names;
  std::vector<RawLabel> raw_labels;
  std::vector<Entry> entries;
  std::size_t rows = 0;
  std::size_t dropped_rows = 0;

  char delimiter = options.delimiter;
  const std::string sha256 = for_each_line_of_file(path, [&](std::size_t line, std::string_view text) {
    if (!layout && options.sniff_delimiter) delimiter = sniffed_delimiter(text, options.delimiter);
    const std::vector<Field> fields = split_fields(text, delimiter);
    if (!layout) {
      if (!options.label_column_name.empty()) options = with_named_label_column(options, fields, path, line);
      layout = make_layout(fields.size(), options, path, line);
      // Asked only where the option is not given (value_or would ask always, and its guess can throw).
      const bool header = options.header ? *options.header
                                         : looks_like_header(fields, *layout, options.missing_token, path, line);
      if (header) {
        for (std::size_t k = 0; k < fields.size(); ++k) {
          if (layout->is_feature[k]) feature_names.emplace_back(fields[k].text);
        }
        return;
      }
    }
    if (fields.size() != layout->width) {
      core::throw_at(path, line, 0, fmt::format("expected {} fields, found {}", layout->width, fields.size()));
    }
    std::vector<Entry> row_entries;
    bool row_has_missing = false;
    std::size_t feature = 0;
    for (std::size_t k = 0; k < fields.size(); ++k) {
      if (!layout->is_feature[k]) continue;
      double value = 0.0;
      if (fields[k].text == options.missing_token || fields[k].text.empty()) {
        if (options.missing == MissingPolicy::error) {
          core::throw_at(path, line, fields[k].column,
                         fmt::format("missing value '{}' in column {} (counting from 0, as label_column does); set "
                                     "the loader option missing to drop_row or keep (fit: -o missing=drop_row; a "
                                     "config: loader: {{missing: drop_row}})",
                                     fields[k].text, k));
        }
        row_has_missing = true;
        value = std::numeric_limits<double>::quiet_NaN();
      } else {
        value = parse_number(fields[k].text, Location{path, line, fields[k].column},
                             fmt::format("column {} (counting from 0)", k));
      }
      if (value != 0.0) row_entries.push_back(Entry{rows, feature, value});
      ++feature;
    }
    if (row_has_missing && options.missing == MissingPolicy::drop_row) {
      ++dropped_rows;
      return;
    }
    raw_labels.push_back(RawLabel{options.has_label_column ? std::string(fields[layout->label].text) : "", line});
    entries.insert(entries.end(), row_entries.begin(), row_entries.end());
    ++rows;
  });

  if (rows == 0) throw InputError(fmt::format("{}: no data rows", path));
  const std::size_t d = static_cast<std::size_t>(std::count(layout->is_feature.begin(), layout->is_feature.end(), true));
  LabelMap resolved;
  core::Vector labels = options.has_label_column ? map_labels(raw_labels, options.labels, path, &resolved)
                                                 : core::Vector::Ones(static_cast<Eigen::Index>(rows));
  core::Provenance provenance{"file", path, sha256,
                              {{"format", "delimited"},
                               {"label_column", options.has_label_column ? std::to_string(options.label_column) : "none"},
                               {"labels", options.has_label_column ? resolved.describe() : "none"},
                               {"missing", to_string(options.missing)},
                               {"dropped_rows", std::to_string(dropped_rows)}}};
  return core::Dataset(options.name.empty() ? file_stem(path) : options.name,
                       features_from_entries(rows, d, entries, Storage::dense),
                       std::move(labels), std::move(feature_names), std::move(provenance));
}

}  // namespace sparsesvm::data
