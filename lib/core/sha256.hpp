#pragma once
// SHA-256 (FIPS 180-4), for the provenance of data files: a loaded file records its checksum so that a
// result row can be traced to the exact bytes it came from.
#include <cstdint>
#include <string>
#include <string_view>

namespace sparsesvm::core {

// Lower-case hex digest of the bytes.
std::string sha256_hex(std::string_view bytes);

}  // namespace sparsesvm::core
