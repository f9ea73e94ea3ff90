#pragma once
// "Did you mean": the known name closest to a misspelled one, for error messages (unknown methods,
// penalties, losses, algorithms, generators). Case is ignored, then names are compared by edit distance
// (insertions, deletions, substitutions and swaps of neighbours: Damerau-Levenshtein, optimal string
// alignment; a look-alike substitution such as O for 0 counts half); a name is suggested only within
// max(1, length / 4) edits, the nearest (first listed on ties).
#include <optional>
#include <string>
#include <vector>

namespace sparsesvm::core {

std::optional<std::string> closest_name(const std::string& name, const std::vector<std::string>& known);

// "did you mean 'X'? " or "".
std::string did_you_mean(const std::string& name, const std::vector<std::string>& known);

}  // namespace sparsesvm::core
