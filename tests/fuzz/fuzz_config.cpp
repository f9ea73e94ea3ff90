// libFuzzer harness: the experiment config loader (YAML schema, checks against the parameter tables,
// generator specs). Seeds: the repository's configs (tests/fuzz/run_fuzz.sh).
#include "core/errors.hpp"
#include "experiment/config.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sparsesvm::fuzz::limit_live_heap();
  const std::string path = sparsesvm::fuzz::write_input("config.yaml", sparsesvm::fuzz::as_text(data, size));
  try {
    sparsesvm::experiment::load_config(path);
  } catch (const sparsesvm::core::InputError&) {
  }
  return 0;
}
