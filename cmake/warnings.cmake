# sparsesvm_warnings: an interface target every project target links to get the warning flags.
add_library(sparsesvm_warnings INTERFACE)
target_compile_options(sparsesvm_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                       -Wno-sign-conversion)
if(SPARSESVM_WARNINGS_AS_ERRORS)
  target_compile_options(sparsesvm_warnings INTERFACE -Werror)
endif()
