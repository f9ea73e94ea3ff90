#include "data/text_reader.hpp"

#include <algorithm>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "core/errors.hpp"
#include "core/huge_pages.hpp"
#include "core/sha256.hpp"

namespace sparsesvm::data {

using core::InputError;

namespace {

constexpr std::string_view kUtf8ByteOrderMark = "\xEF\xBB\xBF";

// The file at path, opened for reading; a FIFO, a device (/dev/zero) or a directory is refused before
// reading: reading it could block or never end.
std::ifstream open_regular_file(const std::string& path) {
  std::error_code error;
  if (std::filesystem::exists(path, error) && !std::filesystem::is_regular_file(path, error)) {
    throw InputError(fmt::format("{}: not a regular file (a directory, FIFO or device); give a data file", path));
  }
  std::ifstream stream(path, std::ios::binary);
  if (!stream) throw InputError(fmt::format("{}: cannot open file", path));
  return stream;
}

bool is_all_blank(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

void throw_empty(const std::string& path) { throw InputError(fmt::format("{}: file is empty", path)); }

// Visits one line (its '\n' removed): a trailing '\r' removed, blank lines skipped.
void visit_line(std::size_t line_number, std::string_view line, const LineVisit& visit) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find_first_not_of(" \t") == std::string_view::npos) return;
  visit(line_number, line);
}

// Visits the lines of text that end in '\n', numbered on from line_number; returns what follows the last.
std::string_view visit_complete_lines(std::string_view text, std::size_t& line_number, const LineVisit& visit) {
  for (std::size_t end = text.find('\n'); end != std::string_view::npos; end = text.find('\n')) {
    visit_line(++line_number, text.substr(0, end), visit);
    text.remove_prefix(end + 1);
  }
  return text;
}

std::string_view without_byte_order_mark(std::string_view text) {  // editors' BOM
  return text.starts_with(kUtf8ByteOrderMark) ? text.substr(kUtf8ByteOrderMark.size()) : text;
}

}  // namespace

TextFile read_text_file(const std::string& path) {
  std::ifstream stream = open_regular_file(path);
  // One read into a string of the file's size (a stringstream would copy the bytes twice more).
  stream.seekg(0, std::ios::end);
  const std::streamoff size = stream.tellg();
  stream.seekg(0, std::ios::beg);
  if (size < 0 || !stream) throw InputError(fmt::format("{}: cannot read file", path));
  TextFile file{path, std::string(static_cast<std::size_t>(size), '\0'), ""};
  stream.read(file.content.data(), size);
  if (stream.gcount() != size) throw InputError(fmt::format("{}: cannot read the whole file", path));
  if (is_all_blank(file.content)) throw_empty(path);
  file.sha256 = core::sha256_hex(file.content);
  return file;
}

void for_each_line(const TextFile& file, const LineVisit& visit) {
  std::size_t line_number = 0;
  const std::string_view last = visit_complete_lines(without_byte_order_mark(file.content), line_number, visit);
  if (!last.empty()) visit_line(++line_number, last, visit);
}

namespace {

// Calls visit(chunk) on the file's bytes in order, chunk_bytes at a time, until visit returns false or the
// file ends; InputError if it cannot be opened or read, or (when it was read to its end) has only blanks.
void for_each_chunk(const std::string& path, std::size_t chunk_bytes,
                    const std::function<bool(std::string_view)>& visit) {
  std::ifstream stream = open_regular_file(path);
  std::string chunk(std::max<std::size_t>(chunk_bytes, 1), '\0');
  bool blank = true;
  while (stream) {
    stream.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const std::string_view read(chunk.data(), static_cast<std::size_t>(stream.gcount()));
    if (read.empty()) break;
    blank = blank && is_all_blank(read);
    if (!visit(read)) return;
  }
  if (stream.bad()) throw InputError(fmt::format("{}: cannot read the whole file", path));
  if (blank) throw_empty(path);
}

// Splits a file given in chunks into lines for visit, with for_each_line's numbering and rules.
class LineSplitter {
 public:
  explicit LineSplitter(LineVisit visit) : visit_(std::move(visit)) {}
  void add(std::string_view chunk) {
    pending_.append(chunk);
    if (!mark_checked_) {  // a mark is the file's first 3 bytes: nothing is visited before they are here
      if (pending_.size() < kUtf8ByteOrderMark.size()) return;
      if (pending_.starts_with(kUtf8ByteOrderMark)) pending_.erase(0, kUtf8ByteOrderMark.size());
      mark_checked_ = true;
    }
    // A chunk without '\n' only lengthens the unfinished line: scanning pending_ again for each chunk of
    // a long line would cost its length squared. (Lines held back above are visited by a later chunk's
    // '\n' or by finish, in order.)
    if (chunk.find('\n') == std::string_view::npos) return;
    const std::string_view rest = visit_complete_lines(pending_, line_number_, visit_);
    pending_.erase(0, pending_.size() - rest.size());
  }
  // At the end of the file: its last line, if it has no '\n' (or the whole of a file under 3 bytes).
  void finish() {
    const std::string_view last = visit_complete_lines(pending_, line_number_, visit_);
    if (!last.empty()) visit_line(++line_number_, last, visit_);
    pending_.clear();
  }

 private:
  LineVisit visit_;
  std::string pending_;  // what is not yet visited: the last chunk's unfinished line, then the new chunk
  std::size_t line_number_ = 0;
  bool mark_checked_ = false;
};

}  // namespace

std::string for_each_line_of_file(const std::string& path, const LineVisit& visit, std::size_t chunk_bytes) {
  core::Sha256 hash;
  LineSplitter lines(visit);
  for_each_chunk(path, chunk_bytes, [&](std::string_view chunk) {
    hash.update(chunk);
    lines.add(chunk);
    return true;
  });
  lines.finish();
  return hash.hex();
}

std::string first_line_of_file(const std::string& path) {
  std::optional<std::string> first;
  LineSplitter lines([&](std::size_t, std::string_view line) {
    if (!first) first = std::string(line);
  });
  for_each_chunk(path, kChunkBytes, [&](std::string_view chunk) {
    lines.add(chunk);
    return !first.has_value();
  });
  if (!first) lines.finish();
  return first.value_or("");
}

std::size_t count_byte_in_file(const std::string& path, char byte) {
  std::size_t count = 0;
  for_each_chunk(path, kChunkBytes, [&](std::string_view chunk) {
    count += static_cast<std::size_t>(std::count(chunk.begin(), chunk.end(), byte));
    return true;
  });
  return count;
}

FileDigest digest_file(const std::string& path) {
  core::Sha256 hash;
  FileDigest digest;
  for_each_chunk(path, kChunkBytes, [&](std::string_view chunk) {
    hash.update(chunk);
    digest.lines += static_cast<std::size_t>(std::count(chunk.begin(), chunk.end(), '\n'));
    return true;
  });
  digest.sha256 = hash.hex();
  return digest;
}

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

Field trimmed(std::string_view line, std::size_t begin, std::size_t end) {
  while (begin < end && is_blank(line[begin])) ++begin;
  while (end > begin && is_blank(line[end - 1])) --end;
  return Field{line.substr(begin, end - begin), begin + 1};
}

}  // namespace

std::vector<Field> split_fields(std::string_view line, char delimiter) {
  std::vector<Field> fields;
  split_fields(line, delimiter, fields);
  return fields;
}

void split_fields(std::string_view line, char delimiter, std::vector<Field>& fields) {
  fields.clear();
  if (delimiter == 0) {
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && is_blank(line[i])) ++i;
      const std::size_t begin = i;
      while (i < line.size() && !is_blank(line[i])) ++i;
      if (i > begin) fields.push_back(Field{line.substr(begin, i - begin), begin + 1});
    }
    return;
  }
  std::size_t begin = 0;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == delimiter) {
      fields.push_back(trimmed(line, begin, i));
      begin = i + 1;
    }
  }
}

namespace {

enum class Parsed { number, not_a_number, overflow };

// The whole token as a double. Below the smallest double it is that rounding (0 or a subnormal), as other
// readers take it (numpy, pandas, strtod); above the largest it is `overflow`, for a message of its own.
Parsed parse_double(std::string_view token, double& value) {
  if (!token.empty() && token.front() == '+') {
    token.remove_prefix(1);
    // "+-2" and "++2" are not numbers (from_chars would read the part after the first sign).
    if (!token.empty() && (token.front() == '+' || token.front() == '-')) return Parsed::not_a_number;
  }
  if (token.empty()) return Parsed::not_a_number;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (end != token.data() + token.size()) return Parsed::not_a_number;
  if (error == std::errc{}) return Parsed::number;
  if (error != std::errc::result_out_of_range) return Parsed::not_a_number;
  // Out of range, over or under: strtod rounds it, to HUGE_VAL or towards zero. It reads by the C locale,
  // "C" in this program but settable by a host process (Python): a token it does not read whole is refused.
  const std::string text(token);
  char* text_end = nullptr;
  value = std::strtod(text.c_str(), &text_end);
  if (text_end != text.c_str() + text.size()) return Parsed::not_a_number;
  return std::isinf(value) ? Parsed::overflow : Parsed::number;
}

}  // namespace

bool parse_finite_number(std::string_view token, double& value) {
  return parse_double(token, value) == Parsed::number && std::isfinite(value);
}

bool is_number(std::string_view token) {
  double value = 0.0;
  return parse_double(token, value) != Parsed::not_a_number;
}

double parse_number(std::string_view token, const Location& where, std::string_view what) {
  double value = 0.0;
  const Parsed parsed = parse_double(token, value);
  if (parsed == Parsed::not_a_number) {
    core::throw_at(where.file, where.line, where.column,
                   fmt::format("expected a number for {}, found '{}'", what, token));
  }
  if (parsed == Parsed::overflow) {
    core::throw_at(where.file, where.line, where.column,
                   fmt::format("{} is '{}', beyond the largest double (about 1.8e308); rescale the data", what, token));
  }
  if (!std::isfinite(value)) {
    core::throw_at(where.file, where.line, where.column,
                   fmt::format("{} is '{}'; values must be finite (write missing values as a token such as "
                               "'?' and set the missing-value policy)",
                               what, token));
  }
  return value;
}

std::size_t parse_index(std::string_view token, const Location& where, std::string_view what) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (error != std::errc{} || end != token.data() + token.size() || value == 0) {
    core::throw_at(where.file, where.line, where.column,
                   fmt::format("expected a positive integer for {} (indices are 1-based), found '{}'", what, token));
  }
  return value;
}

void check_feature_index(std::size_t index, std::size_t n_features, const Location& where) {
  if (n_features > kMaxDeclaredFeatures) {
    throw InputError(fmt::format("{}: n_features {} exceeds the limit of {}", where.file, n_features,
                                 kMaxDeclaredFeatures));
  }
  if (n_features != 0 && index > n_features) {
    core::throw_at(where.file, where.line, where.column,
                   fmt::format("feature index {} exceeds the declared number of features {}", index, n_features));
  }
  if (n_features == 0 && index > kMaxUndeclaredFeatures) {
    core::throw_at(where.file, where.line, where.column,
                   fmt::format("feature index {} exceeds the limit of {} features; if the data really are that wide, "
                               "declare it with loader option n_features",
                               index, kMaxUndeclaredFeatures));
  }
}

Entry::Entry(std::size_t row_index, std::size_t column_index, double entry_value)
    : row(static_cast<std::uint32_t>(row_index)), column(static_cast<std::uint32_t>(column_index)), value(entry_value) {
  constexpr std::size_t kLargest = std::numeric_limits<std::uint32_t>::max();
  if (row_index > kLargest || column_index > kLargest) {
    throw InputError(fmt::format("a data file of more than {} rows or columns (row {}, column {}): not supported",
                                 kLargest, row_index + 1, column_index + 1));
  }
}

namespace {

// The dense matrix of entries. Readers give entries row by row, while the matrix is column-major: written
// one entry at a time, consecutive entries of a row land a column (one page, for a few thousand rows)
// apart. So rows are gathered a block at a time in a row-major buffer of at most 4 MB and copied into the
// matrix column by column, each column in runs of the block's rows (reading a dense 6000 x 5000 LIBSVM
// file of 748 MB: 4.9-5.0 s of user CPU down to 4.4-4.8 s, three interleaved runs). Entries out of row
// order are written one by one.
core::DenseMatrix dense_from_entries(Eigen::Index rows, Eigen::Index columns, const std::vector<Entry>& entries) {
  const bool in_row_order =
      std::is_sorted(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.row < b.row; });
  if (!in_row_order || columns == 0) {
    core::DenseMatrix matrix = core::DenseMatrix::Zero(rows, columns);
    for (const Entry& e : entries) matrix(static_cast<Eigen::Index>(e.row), static_cast<Eigen::Index>(e.column)) = e.value;
    return matrix;
  }
  constexpr Eigen::Index kBufferBytes = Eigen::Index{1} << 22;
  const Eigen::Index block_rows = std::clamp<Eigen::Index>(kBufferBytes / (8 * columns), 1, 64);
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> block(block_rows, columns);
  core::DenseMatrix matrix(rows, columns);  // every row is written below
  core::advise_huge_pages(matrix.data(), static_cast<std::size_t>(matrix.size()) * sizeof(double));
  std::size_t k = 0;
  for (Eigen::Index first = 0; first < rows; first += block_rows) {
    const Eigen::Index count = std::min(block_rows, rows - first);
    block.topRows(count).setZero();
    for (; k < entries.size() && static_cast<Eigen::Index>(entries[k].row) < first + count; ++k) {
      block(static_cast<Eigen::Index>(entries[k].row) - first, static_cast<Eigen::Index>(entries[k].column)) = entries[k].value;
    }
    matrix.middleRows(first, count) = block.topRows(count);
  }
  return matrix;
}

}  // namespace

core::Dataset::Features features_from_entries(std::size_t rows, std::size_t columns,
                                              const std::vector<Entry>& entries, Storage storage) {
  const double cells = static_cast<double>(rows) * static_cast<double>(columns);
  const bool dense = storage == Storage::dense ||
                     (storage == Storage::automatic && static_cast<double>(entries.size()) >= 0.1 * cells);
  const auto r = static_cast<Eigen::Index>(rows);
  const auto c = static_cast<Eigen::Index>(columns);
  if (dense) return dense_from_entries(r, c, entries);
  core::SparseMatrix matrix(r, c);
  const auto in_row_order = [](const Entry& a, const Entry& b) { return a.row < b.row || (a.row == b.row && a.column < b.column); };
  if (std::is_sorted(entries.begin(), entries.end(), in_row_order) &&
      std::adjacent_find(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return a.row == b.row && a.column == b.column;
      }) == entries.end()) {
    // Rows in order with increasing columns (LIBSVM files): filled in place, without triplets or a sort
    // (on the Reuters shape, 1.8 million entries, 70 MB less at the peak).
    matrix.reserve(static_cast<Eigen::Index>(entries.size()));
    std::size_t k = 0;
    for (Eigen::Index i = 0; i < r; ++i) {
      matrix.startVec(i);
      for (; k < entries.size() && static_cast<Eigen::Index>(entries[k].row) == i; ++k) {
        matrix.insertBack(i, static_cast<Eigen::Index>(entries[k].column)) = entries[k].value;
      }
    }
    matrix.finalize();
    return matrix;
  }
  std::vector<Eigen::Triplet<double>> triplets;
  triplets.reserve(entries.size());
  for (const Entry& e : entries) {
    triplets.emplace_back(static_cast<Eigen::Index>(e.row), static_cast<Eigen::Index>(e.column), e.value);
  }
  matrix.setFromTriplets(triplets.begin(), triplets.end());
  return matrix;
}

}  // namespace sparsesvm::data
