#pragma once
// LIBSVM / SVMlight sparse format: "label index:value index:value ... [# comment]", indices 1-based and
// strictly increasing within a line. Labels go through a LabelMap: +1/-1, 0/1 or any two values,
// or one class against the rest (named, or the most frequent).
#include <cstddef>
#include <string>

#include "core/dataset.hpp"
#include "data/label_map.hpp"
#include "data/text_reader.hpp"

namespace sparsesvm::data {

struct LibsvmOptions {
  LabelMap labels;
  bool labelled = true;        // false: a leading label is optional and ignored; labels +1
  std::size_t n_features = 0;  // 0: the largest index found; otherwise a larger index is an error
  Storage storage = Storage::automatic;
  std::string name;            // default: the file stem
};

core::Dataset read_libsvm(const std::string& path, const LibsvmOptions& options);

// Parses the "index:value" tokens of one line into entries of row `row`; checks order and the bound
// n_features (0: unbounded); returns the last index read (0 for none). Shared by the LIBSVM and NIPS
// 2003 sparse readers.
std::size_t parse_sparse_tokens(const std::vector<Field>& tokens, std::size_t row, std::size_t n_features,
                         const std::string& file, std::size_t line, std::vector<Entry>& entries);

// "automatic", "dense", "sparse".
Storage parse_storage(const std::string& text);
std::string to_string(Storage storage);

}  // namespace sparsesvm::data
