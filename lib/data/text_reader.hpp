#pragma once
// Shared pieces of the text loaders: reading a file whole (with its checksum), walking its lines with
// their numbers, splitting fields with their columns, and parsing numbers with errors that point at
// file:line:column.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/dataset.hpp"

namespace sparsesvm::data {

struct TextFile {
  std::string path;
  std::string content;
  std::string sha256;
};

// Throws InputError "PATH: cannot open file" or "PATH: file is empty".
TextFile read_text_file(const std::string& path);

using LineVisit = std::function<void(std::size_t, std::string_view)>;

// Calls visit(line_number, line) for every line that is not blank, 1-based, with a trailing '\r' removed.
void for_each_line(const TextFile& file, const LineVisit& visit);

// Large files are read in chunks rather than whole (a 750 MB dense LIBSVM file was held beside its
// parsed entries). Each of these throws as read_text_file does, "file is empty" included.
inline constexpr std::size_t kChunkBytes = std::size_t{1} << 23;

// for_each_line for the file at `path`, read in chunks of chunk_bytes; returns the file's SHA-256.
std::string for_each_line_of_file(const std::string& path, const LineVisit& visit,
                                  std::size_t chunk_bytes = kChunkBytes);

// The file's first line that is not blank ('\r' and a byte-order mark removed), reading no further.
std::string first_line_of_file(const std::string& path);

// How many times `byte` occurs in the file. A reader reserves its entries by it (a LIBSVM file has at
// most one entry per ':'), where a growing vector copied a dense file's 3 x 10^7 entries about twice over.
std::size_t count_byte_in_file(const std::string& path, char byte);

// The file's SHA-256 and line count ('\n's): run's provenance of a data file.
struct FileDigest {
  std::string sha256;
  std::size_t lines = 0;
};
FileDigest digest_file(const std::string& path);

// A field of a line and its 1-based character column.
struct Field {
  std::string_view text;
  std::size_t column;
};

// Splits on one delimiter character (fields keep surrounding blanks trimmed) or, with delimiter 0, on
// runs of blanks.
std::vector<Field> split_fields(std::string_view line, char delimiter);
// The same into `fields` (cleared first), whose capacity a loop over the lines of a file reuses.
void split_fields(std::string_view line, char delimiter, std::vector<Field>& fields);

// Where a token sits, for error messages.
struct Location {
  const std::string& file;
  std::size_t line;
  std::size_t column;
};

// A finite number, or InputError "file:line:column: expected a number for WHAT, found 'TOKEN'" (or naming
// why: beyond the largest double, infinite, NaN). A number below the smallest double reads as its rounding, 0.
double parse_number(std::string_view token, const Location& where, std::string_view what);
// True when the whole token is a number (one beyond the largest double included).
bool is_number(std::string_view token);
// Whether the token is a finite number, stored in value; no message (the fast path of parse_number).
bool parse_finite_number(std::string_view token, double& value);
// A positive integer (1-based index) or InputError.
std::size_t parse_index(std::string_view token, const Location& where, std::string_view what);

// A sparse entry (row, column, value) as read from a file. Row and column are kept in 32 bits: 16 bytes an
// entry, not 24 (a dense 6000 x 5000 LIBSVM file holds 3 x 10^7 of them while it is read).
struct Entry {
  // InputError for a row or column beyond 32 bits (a file of over 4 x 10^9 rows).
  Entry(std::size_t row, std::size_t column, double value);
  std::uint32_t row;
  std::uint32_t column;
  double value;
};

enum class Storage { automatic, dense, sparse };

// Without a declared width (n_features 0), feature indices above this are refused rather than allocated
// for: a typo such as 18451615:1 would otherwise ask for gigabytes.
inline constexpr std::size_t kMaxUndeclaredFeatures = 1'000'000;
// A declared width beyond this is refused (feature names and per-feature state alone would take GBs).
inline constexpr std::size_t kMaxDeclaredFeatures = 10'000'000;

// InputError at `where` when a 1-based feature index exceeds the declared n_features, or, with none
// declared, kMaxUndeclaredFeatures.
void check_feature_index(std::size_t index, std::size_t n_features, const Location& where);

// Dense when asked, or automatically when at least 10% of the entries are non-zero; CSR otherwise.
core::Dataset::Features features_from_entries(std::size_t rows, std::size_t columns,
                                              const std::vector<Entry>& entries, Storage storage);

}  // namespace sparsesvm::data
