#pragma once
// SHA-256 (FIPS 180-4), for the provenance of data files: a loaded file records its checksum so that a
// result row can be traced to the exact bytes it came from.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace sparsesvm::core {

// fastest: on x86-64 processors with the SHA extensions the blocks are compressed by them, else by the
// portable code; portable: the portable code on every processor (tests compare the two).
enum class Sha256Code { fastest, portable };

// The digest of bytes given in pieces (a file read in chunks): update with each piece in order, then hex.
class Sha256 {
 public:
  explicit Sha256(Sha256Code code = Sha256Code::fastest) : code_(code) {}
  void update(std::string_view bytes);
  // Lower-case hex digest of all the bytes given; the hash is finished (update no more).
  std::string hex();

 private:
  Sha256Code code_;
  std::array<std::uint32_t, 8> state_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<unsigned char, 64> pending_{};  // bytes of an incomplete block
  std::size_t pending_size_ = 0;
  std::uint64_t length_ = 0;  // bytes given
};

// Lower-case hex digest of the bytes.
std::string sha256_hex(std::string_view bytes, Sha256Code code = Sha256Code::fastest);

}  // namespace sparsesvm::core
