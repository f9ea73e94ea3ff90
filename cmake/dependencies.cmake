# Every dependency comes from a Debian package (see scripts/setup.sh); nothing is fetched.
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(CLP REQUIRED IMPORTED_TARGET clp)
pkg_check_modules(CBC REQUIRED IMPORTED_TARGET cbc)

# yaml-cpp 0.7.0 (bookworm) exports a plain `yaml-cpp` target; give it the namespaced name once.
if(TARGET yaml-cpp AND NOT TARGET yaml-cpp::yaml-cpp)
  add_library(yaml-cpp::yaml-cpp ALIAS yaml-cpp)
endif()
