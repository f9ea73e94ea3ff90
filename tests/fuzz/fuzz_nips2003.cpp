// libFuzzer harness: the NIPS 2003 reader. The input is split at its first NUL byte into the .data and
// the .labels file of one part; the first byte chooses the data format.
#include <algorithm>

#include "core/errors.hpp"
#include "data/load.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sparsesvm::fuzz::limit_live_heap();
  if (size == 0) return 0;
  static const char* const formats[] = {"automatic", "dense", "sparse_valued", "sparse_binary"};
  const std::string_view text = sparsesvm::fuzz::as_text(data + 1, size - 1);
  const std::size_t split = std::min(text.find('\0'), text.size());
  sparsesvm::fuzz::write_input("f_train.data", text.substr(0, split));
  sparsesvm::fuzz::write_input("f_train.labels", split < text.size() ? text.substr(split + 1) : std::string_view());
  sparsesvm::data::DataSource source{(sparsesvm::fuzz::scratch_directory() / "f").string(), "nips2003", {}};
  source.options["parts"] = "train";
  source.options["nips_format"] = formats[data[0] % 4];
  try {
    sparsesvm::data::load_dataset(source);
  } catch (const sparsesvm::core::InputError&) {
  }
  return 0;
}
