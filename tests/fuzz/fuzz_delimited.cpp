// libFuzzer harness: the UCI-style delimited reader, with the first byte choosing loader options
// (header, missing policy, a dropped column, one-vs-rest) so that their code paths are fuzzed too.
#include "core/errors.hpp"
#include "data/load.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sparsesvm::fuzz::limit_live_heap();
  if (size == 0) return 0;
  const std::uint8_t choice = data[0];
  sparsesvm::data::DataSource source{sparsesvm::fuzz::write_input("input.csv", sparsesvm::fuzz::as_text(data + 1, size - 1)),
                                     "delimited", {}};
  static const char* const headers[] = {"auto", "true", "false"};
  static const char* const missing[] = {"error", "drop_row", "keep"};
  source.options["header"] = headers[choice % 3];
  source.options["missing"] = missing[(choice / 3) % 3];
  if (choice & 0x10) source.options["drop_columns"] = "0";
  if (choice & 0x20) source.options["most_frequent"] = "true";
  if (choice & 0x40) source.options["delimiter"] = "whitespace";
  try {
    sparsesvm::data::load_dataset(source);
  } catch (const sparsesvm::core::InputError&) {
  }
  return 0;
}
