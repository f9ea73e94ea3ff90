#pragma once
// One entry point for every data source, driven by text options so that the command line and the
// YAML configs describe data the same way:
//   format "delimited"  UCI-style text     options: delimiter (a character, or "whitespace"), header
//                                          (true/false/auto), label_column, drop_columns (e.g. "0,3"),
//                                          positive, negative (values separated by '|'), threshold,
//                                          most_frequent, missing (error/drop_row/keep), missing_token, name
//   format "libsvm"     LIBSVM / SVMlight  options: positive, negative, threshold, most_frequent,
//                                          n_features, storage (automatic/dense/sparse), name
//   format "nips2003"   DIR/NAME prefix    options: parts (e.g. "train,valid"), nips_format, n_features, storage
//   format "generator"  a generator spec   (options not used; parameters go in the spec)
//   format "auto"       libsvm when the first line holds an index:value token, else delimited
// An unknown option is an InputError that names it and lists the known ones.
#include <map>
#include <string>
#include <vector>

#include "core/dataset.hpp"

namespace sparsesvm::data {

// What a file's class column must hold. Training needs both classes; applying a model to new data does not
// (`any`: one class is fine), and new data may have no class column at all (`none`: every column is a
// feature; LIBSVM lines may start with a label or not, which is ignored; the labels are placeholders, +1,
// never to be scored). Not a loader option: predict and fit --test choose it.
enum class Classes { both, any, none };

struct DataSource {
  std::string location;  // a file path, a NIPS 2003 DIR/NAME prefix, or a generator spec
  std::string format = "auto";
  std::map<std::string, std::string> options;
  Classes classes = Classes::both;
};

core::Dataset load_dataset(const DataSource& source);

// What a source's examples are, independent of its name and path: for a generator its canonical spec
// (every parameter, defaults included, in one order); for files the
// SHA-256 of the bytes of the file (or of every file of a NIPS 2003 DIR/NAME prefix, sorted by name) and
// their line count, which stands for the number of examples when shards are balanced.
struct SourceContent {
  std::string key;
  std::size_t lines = 0;
};
SourceContent source_content(const DataSource& source);

std::vector<std::string> loader_formats();

}  // namespace sparsesvm::data
