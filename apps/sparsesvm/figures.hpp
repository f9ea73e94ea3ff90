#pragma once
// Drawing a collected run's figures: scripts/plot.py (found by resources.hpp; the figures: list of its
// config, written by collect to DIR/figures.json) under Debian's python3, /usr/bin/python3, whatever
// python3 comes first on PATH (a pyenv or venv interpreter may lack matplotlib). SPARSESVM_PYTHON names
// another interpreter.
#include <string>

namespace sparsesvm::app {

struct DrawnFigures {
  bool drawn = false;
  std::string message;  // where index.html is, or in one line why nothing was drawn and how to fix it
};

// Nothing to do (drawn false, message empty) when DIR has no figures.json. The script's output goes to
// DIR/plot.log.
DrawnFigures draw_figures(const std::string& directory);

}  // namespace sparsesvm::app
