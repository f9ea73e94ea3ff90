#include "experiment/csv.hpp"

#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include "core/errors.hpp"

namespace sparsesvm::experiment {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted(1, '"');
  for (char c : text) {
    if (c == '"') quoted.push_back('"');
    quoted.push_back(c);
  }
  quoted.push_back('"');
  return quoted;
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    if (k > 0) line.push_back(',');
    line.append(csv_field(fields[k]));
  }
  line.push_back('\n');
  return line;
}

std::string csv_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::string text = csv_line(header);
  for (const std::vector<std::string>& row : rows) text += csv_line(row);
  return text;
}

std::string format_number(double value) {
  if (std::isnan(value)) return "";
  char buffer[64];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc{} ? std::string(buffer, end) : fmt::format("{}", value);
}

namespace {

// Writes content to path through stdio, so that a failing write (disk full, file too large, no permission)
// keeps errno for the message.
void write_all(const std::string& path, const std::string& content, const std::string& reported_path) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    throw core::InputError(
        fmt::format("{}: cannot write file ({})", reported_path, std::generic_category().message(errno)));
  }
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size() && std::fflush(file) == 0;
  const int write_errno = errno;
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    std::remove(path.c_str());
    throw core::InputError(fmt::format("{}: cannot write file ({})", reported_path,
                                       std::generic_category().message(written ? errno : write_errno)));
  }
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
  std::error_code error;
  // A symbolic link is followed (its target is replaced, not the link); a device, FIFO or directory is
  // refused (the rename below would replace it, as root even /dev/full).
  const std::filesystem::path target = std::filesystem::is_symlink(path, error)
                                           ? std::filesystem::weakly_canonical(path, error)
                                           : std::filesystem::path(path);
  const auto status = std::filesystem::status(target, error);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    throw core::InputError(fmt::format("{}: exists and is not a regular file; give a file path", path));
  }
  error.clear();  // status() of a file not yet there set it
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), error);
  if (error) {
    throw core::InputError(fmt::format("{}: cannot create directory ({})", target.parent_path().string(), error.message()));
  }
  const std::string temporary = fmt::format("{}.tmp.{}", target.string(), ::getpid());
  write_all(temporary, content, path);
  std::filesystem::rename(temporary, target, error);
  if (error) {
    std::remove(temporary.c_str());
    throw core::InputError(fmt::format("{}: cannot write file ({})", path, error.message()));
  }
}

}  // namespace sparsesvm::experiment

namespace sparsesvm::experiment {

std::vector<std::vector<std::string>> parse_csv(const std::string& content, const std::string& file) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  std::size_t line = 1;
  for (std::size_t k = 0; k < content.size(); ++k) {
    const char c = content[k];
    if (quoted) {
      if (c == '"' && k + 1 < content.size() && content[k + 1] == '"') {
        field.push_back('"');
        ++k;
      } else if (c == '"') {
        quoted = false;
      } else {
        if (c == '\n') ++line;
        field.push_back(c);
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
    } else if (c == '\n') {
      row.push_back(std::move(field));
      field.clear();
      rows.push_back(std::move(row));
      row.clear();
      ++line;
    } else if (c != '\r') {
      field.push_back(c);
    }
  }
  if (quoted) throw core::InputError(fmt::format("{}:{}: unterminated quoted field", file, line));
  if (!field.empty() || !row.empty()) {
    row.push_back(std::move(field));
    rows.push_back(std::move(row));
  }
  return rows;
}

core::InputError not_a_run_file(const std::string& path) {
  return core::InputError(fmt::format("{}: exists and is not a file, where run writes a task's result; move it away "
                                      "(a rerun then computes the task)", path));
}

PathKind path_kind(const std::filesystem::path& path) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (std::filesystem::is_regular_file(status)) return PathKind::file;
  if (status.type() == std::filesystem::file_type::not_found) return PathKind::absent;
  if (error == std::errc::too_many_symbolic_link_levels) {
    // A loop at the path itself stands in place of a file; a loop on the way (a folder that is one) is
    // that folder's fault, and nothing can stand here, as below a file.
    std::error_code on_the_way;  // the path's own lstat fails only for a loop on the way
    static_cast<void>(std::filesystem::symlink_status(path, on_the_way));
    return on_the_way ? PathKind::absent : PathKind::other;
  }
  if (error) throw core::InputError(fmt::format("{}: cannot be looked at ({})", path.string(), error.message()));
  return PathKind::other;
}

std::string read_run_file(const std::string& path) {
  if (path_kind(path) != PathKind::file) throw not_a_run_file(path);
  return read_whole_file(path);
}

std::string read_whole_file(const std::string& path) {
  if (path_kind(path) == PathKind::other) {
    throw core::InputError(fmt::format("{}: exists and is not a regular file (a folder, a FIFO or a link loop); give a "
                                       "file", path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw core::InputError(fmt::format("{}: cannot be read ({})", path, std::strerror(errno)));
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace sparsesvm::experiment
