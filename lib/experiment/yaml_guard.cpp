#include "experiment/yaml_guard.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <sstream>
#include <string_view>

#include "core/errors.hpp"

namespace sparsesvm::experiment {
namespace {

// What the scanner saw last, outside quotes: the start of a node (line start at block level, after an
// indicator "- ", ": ", "? " or an opening bracket), a plain scalar, a complete node (quoted scalar,
// alias, closed collection), a node property (anchor, tag), or a comma inside a flow collection.
enum class Last { node_start, plain, node_end, property, flow_comma };

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

void refuse_control_characters(const std::string& line, const std::string& where, std::size_t number) {
  const auto control = std::find_if(line.begin(), line.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\t' && c != '\r') || byte == 0x7f;
  });
  if (control != line.end()) {
    throw core::ConfigError(fmt::format("{}:{}: control character 0x{:02x} in the text (a config is YAML text)", where,
                                        number, static_cast<unsigned char>(*control)));
  }
}

class Scanner {
 public:
  explicit Scanner(std::string where) : where_(std::move(where)) {}

  void line(const std::string& text, std::size_t number) {
    const std::size_t indent = std::min(text.find_first_not_of(' '), text.size());
    if (in_block_scalar_) {
      if (indent == text.size() || indent > block_parent_indent_) return;  // block scalar content
      in_block_scalar_ = false;
    }
    if (depth_ == 0 && !in_double_ && !in_single_) last_ = Last::node_start;
    bool after_space = true;
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char c = text[i];
      const char next = i + 1 < text.size() ? text[i + 1] : ' ';
      if (in_double_) {
        if (c == '\\') ++i;
        if (c == '"') close_quote(in_double_);
        continue;
      }
      if (in_single_) {
        if (c == '\'' && next == '\'') ++i;
        else if (c == '\'') close_quote(in_single_);
        continue;
      }
      if (is_space(c)) {
        after_space = true;
        continue;
      }
      if (c == '#' && after_space) return;  // a comment
      after_space = false;
      if (c == ',') {
        if (depth_ > 0) last_ = Last::flow_comma;
        else if (last_ != Last::plain) refuse(number);
        continue;
      }
      if (last_ == Last::plain) {
        if (c == ':' && (is_space(next) || (depth_ > 0 && (next == ',' || next == ']' || next == '}')))) last_ = Last::node_start;
        else if (depth_ > 0 && (c == ']' || c == '}')) close_collection();
        continue;
      }
      i = token(text, i, indent);
      if (in_block_scalar_) return;
    }
  }

 private:
  // A token at the start of a node, from text[i]; returns its last index.
  std::size_t token(const std::string& text, std::size_t i, std::size_t indent) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : ' ';
    if (c == '"') {
      in_double_ = true;
    } else if (c == '\'') {
      in_single_ = true;
    } else if (c == '[' || c == '{') {
      ++depth_;
      last_ = Last::node_start;
    } else if ((c == ']' || c == '}') && depth_ > 0) {
      close_collection();
    } else if (c == '&' || c == '!' || c == '*') {  // anchor, tag or alias: up to a space or a flow indicator
      while (i + 1 < text.size() && !is_space(text[i + 1]) && std::string_view(",[]{}").find(text[i + 1]) == std::string_view::npos) ++i;
      last_ = c == '*' ? Last::node_end : Last::property;
    } else if ((c == '-' || c == '?' || c == ':') && is_space(next)) {
      last_ = Last::node_start;
    } else if ((c == '|' || c == '>') && depth_ == 0) {
      in_block_scalar_ = true;  // the rest of the line is the header; deeper lines are its text
      block_parent_indent_ = indent;
    } else {
      last_ = Last::plain;
    }
    return i;
  }

  void close_quote(bool& flag) {
    flag = false;
    last_ = Last::node_end;
  }

  void close_collection() {
    --depth_;
    last_ = Last::node_end;
  }

  [[noreturn]] void refuse(std::size_t number) const {
    throw core::ConfigError(fmt::format("{}:{}: a ',' outside [...] or {{...}} that is not part of a value (at the start "
                                        "of a line, or after a quoted value, an anchor, tag or alias, or a closed "
                                        "bracket); yaml-cpp cannot parse this",
                                        where_, number));
  }

  std::string where_;
  Last last_ = Last::node_start;
  int depth_ = 0;
  bool in_double_ = false;
  bool in_single_ = false;
  bool in_block_scalar_ = false;
  std::size_t block_parent_indent_ = 0;
};

}  // namespace

void check_yaml_text(const std::string& text, const std::string& where) {
  std::istringstream lines(text);
  Scanner scanner(where);
  std::size_t number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    refuse_control_characters(line, where, number);
    scanner.line(line, number);
  }
}

}  // namespace sparsesvm::experiment
