#include "data/libsvm_reader.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/huge_pages.hpp"
#include "data/delimited_reader.hpp"

namespace sparsesvm::data {

using core::InputError;

Storage parse_storage(const std::string& text) {
  for (Storage s : {Storage::automatic, Storage::dense, Storage::sparse}) {
    if (to_string(s) == text) return s;
  }
  throw InputError(fmt::format("unknown storage '{}' (known: automatic, dense, sparse)", text));
}

std::string to_string(Storage storage) {
  switch (storage) {
    case Storage::automatic: return "automatic";
    case Storage::dense: return "dense";
    case Storage::sparse: return "sparse";
  }
  return "automatic";
}

std::size_t parse_sparse_tokens(const std::vector<Field>& tokens, std::size_t row, std::size_t n_features,
                         const std::string& file, std::size_t line, std::vector<Entry>& entries) {
  std::size_t previous = 0;
  for (const Field& token : tokens) {
    const std::size_t colon = token.text.find(':');
    if (colon == std::string_view::npos) {
      core::throw_at(file, line, token.column, fmt::format("expected index:value, found '{}'", token.text));
    }
    const Location at{file, line, token.column};
    const std::size_t index = parse_index(token.text.substr(0, colon), at, "a feature index");
    if (index <= previous) {
      core::throw_at(file, line, token.column,
                     fmt::format("feature index {} after index {}; indices must be strictly increasing", index,
                                 previous));
    }
    check_feature_index(index, n_features, at);
    const std::string_view value_text = token.text.substr(colon + 1);
    double value = 0.0;
    if (!parse_finite_number(value_text, value)) {
      // Only a bad value pays for the message that names its feature (a million tokens would format it a
      // million times): parse_number throws it.
      value = parse_number(value_text, Location{file, line, token.column + colon + 1}, fmt::format("feature {}", index));
    }
    if (value != 0.0) entries.push_back(Entry{row, index - 1, value});
    previous = index;
  }
  return previous;
}

core::Dataset read_libsvm(const std::string& path, const LibsvmOptions& options) {
  std::vector<RawLabel> raw_labels;
  std::vector<Entry> entries;
  entries.reserve(count_byte_in_file(path, ':'));
  core::advise_huge_pages(entries.data(), entries.capacity() * sizeof(Entry));
  std::size_t max_index = 0;
  std::vector<Field> tokens;  // of the current line

  const std::string sha256 = for_each_line_of_file(path, [&](std::size_t line, std::string_view text) {
    text = text.substr(0, text.find('#'));
    split_fields(text, 0, tokens);
    if (tokens.empty()) return;  // a comment line
    const bool starts_with_label = tokens.front().text.find(':') == std::string_view::npos;
    if (!starts_with_label && options.labelled) {
      core::throw_at(path, line, tokens.front().column,
                     fmt::format("expected a class label first, found '{}'", tokens.front().text));
    }
    raw_labels.push_back(RawLabel{starts_with_label ? std::string(tokens.front().text) : "", line});
    if (starts_with_label) tokens.erase(tokens.begin());
    max_index = std::max(max_index,
                         parse_sparse_tokens(tokens, raw_labels.size() - 1, options.n_features, path, line, entries));
  });

  if (raw_labels.empty()) throw InputError(fmt::format("{}: no data rows", path));
  const std::size_t d = options.n_features != 0 ? options.n_features : max_index;
  LabelMap resolved;
  core::Vector labels = options.labelled ? map_labels(raw_labels, options.labels, path, &resolved)
                                         : core::Vector::Ones(static_cast<Eigen::Index>(raw_labels.size()));
  core::Provenance provenance{"file", path, sha256,
                              {{"format", "libsvm"},
                               {"labels", options.labelled ? resolved.describe() : "none"},
                               {"n_features", std::to_string(d)}}};
  return core::Dataset(options.name.empty() ? file_stem(path) : options.name,
                       features_from_entries(raw_labels.size(), d, entries, options.storage),
                       std::move(labels), {}, std::move(provenance));
}

}  // namespace sparsesvm::data
