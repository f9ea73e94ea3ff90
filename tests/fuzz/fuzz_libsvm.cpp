// libFuzzer harness: the LIBSVM / SVMlight reader (storage chosen by the first byte).
#include "core/errors.hpp"
#include "data/load.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sparsesvm::fuzz::limit_live_heap();
  if (size == 0) return 0;
  static const char* const storage[] = {"automatic", "dense", "sparse"};
  sparsesvm::data::DataSource source{
      sparsesvm::fuzz::write_input("input.libsvm", sparsesvm::fuzz::as_text(data + 1, size - 1)), "libsvm", {}};
  source.options["storage"] = storage[data[0] % 3];
  try {
    sparsesvm::data::load_dataset(source);
  } catch (const sparsesvm::core::InputError&) {
  }
  return 0;
}
