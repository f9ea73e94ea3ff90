#pragma once
// The base of solver state that a Workspace (workspace.hpp) keeps for one algorithm family.

namespace sparsesvm::models {

class WorkspaceState {
 public:
  virtual ~WorkspaceState() = default;
};

}  // namespace sparsesvm::models
