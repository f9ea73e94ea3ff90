# Run at every build (cmake -P): writes OUTPUT with the current git commit, touching it only when the
# commit changed, so run manifests name the commit the binary was built from.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
# Reference results and documentation do not change the binary: a tree dirty only there is not uncommitted.
execute_process(COMMAND git status --porcelain --untracked-files=no -- . :!results :!*.md WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT commit)
  set(commit "unknown")
elseif(dirty)
  set(commit "${commit}+uncommitted")
endif()
set(content "#pragma once\n#define SPARSESVM_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT "${old}" STREQUAL "${content}")
  file(WRITE ${OUTPUT} "${content}")
endif()
