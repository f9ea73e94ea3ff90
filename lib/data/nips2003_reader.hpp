#pragma once
// The NIPS 2003 feature-selection challenge format: for a data set NAME and a part (train, valid),
// NAME_part.data holds one example a line and NAME_part.labels one label (+1/-1) a line. The .data
// file is dense (values separated by blanks; arcene, gisette, madelon), sparse with values
// ("index:value"; dexter) or sparse binary (the 1-based indices of the ones; dorothea). The DCA paper
// merged the train and valid parts (section 4.4), which is the default here.
#include <cstddef>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "data/text_reader.hpp"

namespace sparsesvm::data {

enum class Nips2003Format { automatic, dense, sparse_valued, sparse_binary };

struct Nips2003Options {
  std::vector<std::string> parts = {"train", "valid"};
  // automatic: sparse_valued when the first line has ':', dense otherwise (say sparse_binary for dorothea).
  Nips2003Format format = Nips2003Format::automatic;
  std::size_t n_features = 0;  // 0: the widest row (dense) or largest index (sparse)
  Storage storage = Storage::automatic;
  bool labelled = true;          // false: no .labels files are read (the test part has none); labels +1
  bool allow_one_class = false;  // applying a model: a part of one class is fine
};

// Reads DIRECTORY/NAME_PART.data and .labels for every part and stacks them in order.
core::Dataset read_nips2003(const std::string& directory, const std::string& name, const Nips2003Options& options);

Nips2003Format parse_nips2003_format(const std::string& text);
std::string to_string(Nips2003Format format);

}  // namespace sparsesvm::data
