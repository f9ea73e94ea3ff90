#include "data/nips2003_reader.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.hpp"
#include "core/sha256.hpp"
#include "data/label_map.hpp"
#include "data/libsvm_reader.hpp"

namespace sparsesvm::data {

using core::InputError;

std::string to_string(Nips2003Format format) {
  switch (format) {
    case Nips2003Format::automatic: return "automatic";
    case Nips2003Format::dense: return "dense";
    case Nips2003Format::sparse_valued: return "sparse_valued";
    case Nips2003Format::sparse_binary: return "sparse_binary";
  }
  return "automatic";
}

Nips2003Format parse_nips2003_format(const std::string& text) {
  for (Nips2003Format f : {Nips2003Format::automatic, Nips2003Format::dense, Nips2003Format::sparse_valued,
                           Nips2003Format::sparse_binary}) {
    if (to_string(f) == text) return f;
  }
  throw InputError(
      fmt::format("unknown NIPS 2003 format '{}' (known: automatic, dense, sparse_valued, sparse_binary)", text));
}

namespace {

Nips2003Format detect_format(const TextFile& file) {
  const std::size_t end = file.content.find('\n');
  return file.content.substr(0, end).find(':') != std::string::npos ? Nips2003Format::sparse_valued
                                                                     : Nips2003Format::dense;
}

// Appends the rows of one .data file to entries, starting at row first_row; returns the row count and
// widens max_columns to the widest row or largest index seen.
std::size_t read_data_rows(const TextFile& file, Nips2003Format format, std::size_t n_features, std::size_t first_row,
                           std::vector<Entry>& entries, std::size_t& max_columns) {
  std::size_t rows = 0;
  for_each_line(file, [&](std::size_t line, std::string_view text) {
    const std::vector<Field> tokens = split_fields(text, 0);
    const std::size_t row = first_row + rows;
    if (format == Nips2003Format::sparse_valued) {
      max_columns = std::max(max_columns, parse_sparse_tokens(tokens, row, n_features, file.path, line, entries));
    } else if (format == Nips2003Format::sparse_binary) {
      std::size_t previous = 0;
      for (const Field& token : tokens) {
        const std::size_t index = parse_index(token.text, Location{file.path, line, token.column}, "a feature index");
        check_feature_index(index, n_features, Location{file.path, line, token.column});
        if (index <= previous) {
          core::throw_at(file.path, line, token.column,
                         fmt::format("feature index {} after index {}; indices must be strictly increasing", index, previous));
        }
        entries.push_back(Entry{row, index - 1, 1.0});
        previous = index;
      }
      max_columns = std::max(max_columns, previous);
    } else {
      if (n_features != 0 && tokens.size() != n_features) {
        core::throw_at(file.path, line, 0, fmt::format("expected {} values, found {}", n_features, tokens.size()));
      }
      if (n_features == 0 && rows > 0 && tokens.size() != max_columns) {
        core::throw_at(file.path, line, 0, fmt::format("expected {} values, found {}", max_columns, tokens.size()));
      }
      for (std::size_t j = 0; j < tokens.size(); ++j) {
        const double value = parse_number(tokens[j].text, Location{file.path, line, tokens[j].column},
                                          fmt::format("feature {}", j + 1));
        if (value != 0.0) entries.push_back(Entry{row, j, value});
      }
      max_columns = std::max(max_columns, tokens.size());
    }
    ++rows;
  });
  return rows;
}

}  // namespace

core::Dataset read_nips2003(const std::string& directory, const std::string& name, const Nips2003Options& options) {
  if (options.parts.empty()) throw InputError(fmt::format("NIPS 2003 set {}: no parts to read", name));
  std::vector<Entry> entries;
  std::vector<RawLabel> raw_labels;
  std::size_t columns = options.n_features;
  std::string checksums;
  Nips2003Format format = options.format;
  for (const std::string& part : options.parts) {
    const std::string stem = (std::filesystem::path(directory) / (name + "_" + part)).string();
    const TextFile data = read_text_file(stem + ".data");
    if (format == Nips2003Format::automatic) format = detect_format(data);
    const std::size_t columns_before = columns;
    const std::size_t rows =
        read_data_rows(data, format, options.n_features, raw_labels.size(), entries, columns);
    // Dense parts of one set have one width; a wider later part would otherwise pad the earlier ones.
    if (format == Nips2003Format::dense && columns_before != 0 && columns != columns_before) {
      throw InputError(fmt::format("{}: {} values per row, but the parts before it have {}", data.path, columns,
                                   columns_before));
    }
    if (!options.labelled) {
      raw_labels.resize(raw_labels.size() + rows, RawLabel{"1", 0});
      checksums += data.sha256;
      continue;
    }
    const TextFile labels = read_text_file(stem + ".labels");
    std::size_t label_rows = 0;
    for_each_line(labels, [&](std::size_t line, std::string_view text) {
      const std::vector<Field> fields = split_fields(text, 0);
      if (line != label_rows + 1) {  // for_each_line skips blank lines: one inside would shift the labels
        throw InputError(fmt::format("{}:{}: a blank line; a labels file has one label on every line", labels.path,
                                     label_rows + 1));
      }
      if (fields.size() != 1) {
        throw InputError(fmt::format("{}:{}: expected one label, found {} fields", labels.path, line, fields.size()));
      }
      const std::string value(fields.front().text);
      if (value != "1" && value != "+1" && value != "-1") {
        throw InputError(fmt::format("{}:{}: class value '{}' is neither 1 nor -1", labels.path, line, value));
      }
      raw_labels.push_back(RawLabel{value, line});
      ++label_rows;
    });
    if (label_rows != rows) {
      throw InputError(fmt::format("{}: {} labels for {} rows in {}", labels.path, label_rows, rows, data.path));
    }
    checksums += data.sha256 + labels.sha256;
  }
  LabelMap plus_minus_one;
  plus_minus_one.positive = {"1"};
  plus_minus_one.negative = {"-1"};
  plus_minus_one.allow_one_class = options.allow_one_class || !options.labelled;
  core::Provenance provenance{"file", (std::filesystem::path(directory) / name).string(), core::sha256_hex(checksums),
                              {{"format", "nips2003"}, {"data_format", to_string(format)},
                               {"parts", fmt::format("{}", fmt::join(options.parts, "+"))}}};
  return core::Dataset(name, features_from_entries(raw_labels.size(), columns, entries, options.storage),
                       map_labels(raw_labels, plus_minus_one, directory + "/" + name + "_*.labels"), {},
                       std::move(provenance));
}

}  // namespace sparsesvm::data
