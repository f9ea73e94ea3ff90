#pragma once
// SHA-256 (FIPS 180-4), for the provenance of data files: a loaded file records its checksum so that a
// result row can be traced to the exact bytes it came from.
#include <cstdint>
#include <string>
#include <string_view>

namespace sparsesvm::core {

// fastest: on x86-64 processors with the SHA extensions the blocks are compressed by them, else by the
// portable code; portable: the portable code on every processor (tests compare the two).
enum class Sha256Code { fastest, portable };

// Lower-case hex digest of the bytes.
std::string sha256_hex(std::string_view bytes, Sha256Code code = Sha256Code::fastest);

}  // namespace sparsesvm::core
