#include <catch2/catch.hpp>

#include <random>
#include <string>

#include "core/sha256.hpp"

using sparsesvm::core::sha256_hex;
using sparsesvm::core::Sha256Code;

TEST_CASE("SHA-256 matches the FIPS 180-4 example vectors", "[sha256]") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // One million 'a': the long-message vector, crossing many blocks.
  CHECK(sha256_hex(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("SHA-256 pads correctly around the 55/56/64-byte boundaries", "[sha256]") {
  // Digests from coreutils sha256sum of the same bytes (printf 'a%.0s' {1..N} | sha256sum).
  CHECK(sha256_hex(std::string(55, 'a')) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  CHECK(sha256_hex(std::string(56, 'a')) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  CHECK(sha256_hex(std::string(64, 'a')) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
}

TEST_CASE("SHA-256 by the processor's SHA extensions equals the portable code on every length and content",
          "[sha256]") {
  // Where the processor has no SHA extensions both are the portable code and this checks nothing more.
  std::mt19937_64 random(37);
  std::string bytes;
  for (std::size_t length = 0; length <= 1000; ++length) {
    INFO(length);
    REQUIRE(sha256_hex(bytes) == sha256_hex(bytes, Sha256Code::portable));
    bytes.push_back(static_cast<char>(random() & 0xff));
  }
  bytes.resize(3'000'017);
  for (char& byte : bytes) byte = static_cast<char>(random() & 0xff);
  CHECK(sha256_hex(bytes) == sha256_hex(bytes, Sha256Code::portable));
}

TEST_CASE("SHA-256 of bytes given in pieces equals that of the whole, wherever the pieces split", "[sha256]") {
  // A file read in chunks is hashed piece by piece: pieces that end inside a block, on its boundary, or
  // are empty must give the digest of the whole bytes (sha256_hex, checked against FIPS above).
  std::mt19937_64 random(38);
  std::string bytes(1000, '\0');
  for (char& byte : bytes) byte = static_cast<char>(random() & 0xff);
  for (std::size_t piece : {1, 7, 55, 63, 64, 65, 128, 333}) {
    INFO(piece);
    sparsesvm::core::Sha256 hash;
    hash.update("");
    for (std::size_t at = 0; at < bytes.size(); at += piece) hash.update(std::string_view(bytes).substr(at, piece));
    CHECK(hash.hex() == sha256_hex(bytes));
  }
}
