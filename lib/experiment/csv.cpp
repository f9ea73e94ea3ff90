#include "experiment/csv.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
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

std::string format_number(double value) {
  if (std::isnan(value)) return "";
  char buffer[64];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return error == std::errc{} ? std::string(buffer, end) : fmt::format("{}", value);
}

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::filesystem::path target(path);
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path());
  const std::string temporary = fmt::format("{}.tmp.{}", path, ::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << content;
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      throw core::InputError(fmt::format("{}: cannot write file", path));
    }
  }
  std::error_code error;
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

std::string read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace sparsesvm::experiment
