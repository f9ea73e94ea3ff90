#pragma once
// Writing result files: CSV fields quoted when they need it, and whole files written atomically
// (to a temporary name in the same folder, then renamed), so a reader never sees half a file and an
// interrupted run leaves no partial result behind.
#include <filesystem>
#include <string>
#include <vector>

#include "core/errors.hpp"

namespace sparsesvm::experiment {

// RFC 4180: quoted when the text holds a comma, quote, or line break; quotes doubled.
std::string csv_field(const std::string& text);
std::string csv_line(const std::vector<std::string>& fields);
// A header line, then one line per row.
std::string csv_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows);

// Shortest text that reads back to the same double ("0.1", "1e-07"); empty for NaN.
std::string format_number(double value);

// Writes `content` to `path` atomically; InputError naming the path when it cannot.
void write_file_atomically(const std::string& path, const std::string& content);

// The whole content of a file (a task result); an InputError naming it when something other than a file
// stands there (a FIFO would block the read) or it cannot be opened.
std::string read_whole_file(const std::string& path);

// Regular file, or something else in place of one (a directory, a FIFO), or nothing: one stat.
// A link is followed; a link to nothing counts as absent (an atomic write replaces it), a link loop as other
// (a loop or a file on the way, where no file can be: absent).
// A path that cannot be looked at (a folder on the way without permission) is an InputError naming it.
enum class PathKind { file, other, absent };
PathKind path_kind(const std::filesystem::path& path);

// A file of a run directory (a task's row, cv/ or weights/ file) read whole; the error below when
// something other than a regular file stands at `path` (a directory; a FIFO, whose read would block).
std::string read_run_file(const std::string& path);
// The error for a path of a run directory where something other than a file stands: run cannot write the
// task's result there, nor collect read one.
core::InputError not_a_run_file(const std::string& path);

}  // namespace sparsesvm::experiment

namespace sparsesvm::experiment {

// Parses CSV text (RFC 4180 quoting) into rows of fields; InputError naming `file` and the line on an
// unterminated quote.
std::vector<std::vector<std::string>> parse_csv(const std::string& content, const std::string& file);

}  // namespace sparsesvm::experiment
