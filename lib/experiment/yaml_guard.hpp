#pragma once
// Text that Debian 12's yaml-cpp 0.7 cannot parse safely is refused before it reaches the parser (config
// files and overrides alike), with `where` and the line number in the error:
//   - control characters other than tab and a CRLF line end (not YAML text: YAML 1.2, 5.1; a lone CR is
//     a line break to yaml-cpp, and "&\re," looped), and text that is not UTF-8;
//   - tags ('!t', '!!str') and explicit keys ('? k', a '?' before a space): the config format has no use for them, and
//     yaml-cpp loops on a non-ASCII tag before a '?' line ("!\xe9\n?") and on '?' lines after quoted
//     scalars ("\"\"\"\"ae\n?\n?\"\"") (both found by fuzzing);
//   - a ',' outside flow collections that is not part of a plain scalar: at the start of a line, after
//     an anchor or alias, after a quoted scalar, after a closed [..] or {..}, or after another such
//     comma. yaml-cpp never returns on these, allocating without end (fuzzing found ", a", "&a, b",
//     "\0\0\0,", and '"",'); YAML itself rejects all of them. A comma inside a plain scalar
//     ("description: a, b"), a quoted scalar, a comment, a block scalar or a flow collection is text.
#include <string>

namespace sparsesvm::experiment {

// core::ConfigError "WHERE:LINE: ..." for the first such place.
void check_yaml_text(const std::string& text, const std::string& where);

}  // namespace sparsesvm::experiment
