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

// A CR only as the end of a CRLF line end: yaml-cpp reads a lone CR as a line break, which the scanner
// here does not (fuzzing: "&\re," looped).
void refuse_control_characters(const std::string& line, const std::string& where, std::size_t number) {
  const std::size_t crlf = !line.empty() && line.back() == '\r' ? line.size() - 1 : line.size();
  const auto end = line.begin() + static_cast<std::ptrdiff_t>(crlf);
  const auto control = std::find_if(line.begin(), end, [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\t') || byte == 0x7f;
  });
  if (control != end) {
    throw core::ConfigError(fmt::format("{}:{}: control character 0x{:02x} in the text (a config is YAML text)", where,
                                        number, static_cast<unsigned char>(*control)));
  }
}

// UTF-8 (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF); a config is UTF-8 text.
void refuse_invalid_utf8(const std::string& line, const std::string& where, std::size_t number) {
  for (std::size_t i = 0; i < line.size();) {
    const auto byte = static_cast<unsigned char>(line[i]);
    std::size_t length = byte < 0x80 ? 1 : (byte >> 5) == 0x6 ? 2 : (byte >> 4) == 0xe ? 3 : (byte >> 3) == 0x1e ? 4 : 0;
    bool valid = length > 0 && i + length <= line.size();
    char32_t code = length == 1 ? byte : length == 2 ? byte & 0x1f : length == 3 ? byte & 0x0f : byte & 0x07;
    for (std::size_t k = 1; valid && k < length; ++k) {
      const auto next = static_cast<unsigned char>(line[i + k]);
      valid = (next >> 6) == 0x2;
      code = (code << 6) | (next & 0x3f);
    }
    const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    valid = valid && code >= smallest[length] && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    if (!valid) {
      throw core::ConfigError(fmt::format("{}:{}: not UTF-8 text (byte 0x{:02x} at column {})", where, number, byte, i + 1));
    }
    i += length;
  }
}

class Scanner {
 public:
  explicit Scanner(std::string where) : where_(std::move(where)) {}

  void line(const std::string& text, std::size_t number) {
    number_ = number;
    const std::size_t indent = std::min(text.find_first_not_of(' '), text.size());
    const bool blank = text.find_first_not_of(" \t\r") == std::string::npos;  // CRLF files too
    if (in_block_scalar_) {
      if (blank || indent > block_parent_indent_) return;  // block scalar content
      in_block_scalar_ = false;
    }
    std::size_t i = 0;
    if (depth_ == 0 && !in_double_ && !in_single_) {
      last_ = Last::node_start;
      // A document marker "---" or "..." may carry a node on its line: scan what follows as one.
      const bool marker = (text.rfind("---", 0) == 0 || text.rfind("...", 0) == 0) && (text.size() == 3 || is_space(text[3]));
      if (marker) i = 3;
    }
    bool after_space = true;
    for (; i < text.size(); ++i) {
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
    } else if (c == '!') {
      fail(number_, "a tag ('!...'): tags are not part of the config format (and yaml-cpp loops on some)");
    } else if (c == '&' || c == '*') {  // anchor or alias: up to a space or a flow indicator
      while (i + 1 < text.size() && !is_space(text[i + 1]) && std::string_view(",[]{}").find(text[i + 1]) == std::string_view::npos) ++i;
      last_ = c == '*' ? Last::node_end : Last::property;
    } else if (c == '?' && is_space(next)) {
      fail(number_, "an explicit key ('? '): not part of the config format (and yaml-cpp loops on some)");
    } else if ((c == '-' && is_space(next)) || (c == ':' && (is_space(next) || last_ == Last::node_end || depth_ > 0))) {
      // ':' right after a quoted key ("k":"v") is an indicator too
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
    fail(number, "a ',' outside [...] or {...} that is not part of a value (at the start of a line, or after a "
                 "quoted value, an anchor or alias, or a closed bracket); yaml-cpp cannot parse this");
  }

  [[noreturn]] void fail(std::size_t number, const std::string& what) const {
    throw core::ConfigError(fmt::format("{}:{}: {}", where_, number, what));
  }

  std::string where_;
  std::size_t number_ = 0;
  Last last_ = Last::node_start;
  int depth_ = 0;
  bool in_double_ = false;
  bool in_single_ = false;
  bool in_block_scalar_ = false;
  std::size_t block_parent_indent_ = 0;
};

}  // namespace

void check_yaml_text(const std::string& text, const std::string& where) {
  const bool bom = text.rfind("\xef\xbb\xbf", 0) == 0;  // a UTF-8 byte order mark is no text
  std::istringstream lines(bom ? text.substr(3) : text);
  Scanner scanner(where);
  std::size_t number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    refuse_control_characters(line, where, number);
    refuse_invalid_utf8(line, where, number);
    scanner.line(line, number);
  }
}

}  // namespace sparsesvm::experiment
