# Install rules (docs/building.md, "Installing"): a relocatable tree
#   bin/sparsesvm                          the program
#   lib/libsparsesvm_*.a, include/sparsesvm/  the libraries and their headers
#   lib/cmake/sparsesvm/                   find_package(sparsesvm): sparsesvm::sparsesvm
#   share/sparsesvm/                       scripts/plot.py, configs, datasets, docs: the program finds them
#                                          from its own location (apps/sparsesvm/resources.hpp)
# and a Debian package of it: `cpack -G DEB` in the build folder.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS sparsesvm RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS sparsesvm_core sparsesvm_data sparsesvm_optim sparsesvm_models sparsesvm_experiment sparsesvm_all
        EXPORT sparsesvmTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY lib/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/sparsesvm FILES_MATCHING PATTERN "*.hpp"
        PATTERN "config_reader.hpp" EXCLUDE)  # the config reader's parts: internal, and they need yaml-cpp

set(package_dir ${CMAKE_INSTALL_LIBDIR}/cmake/sparsesvm)
install(EXPORT sparsesvmTargets NAMESPACE sparsesvm:: DESTINATION ${package_dir})
configure_package_config_file(cmake/sparsesvmConfig.cmake.in ${CMAKE_BINARY_DIR}/sparsesvmConfig.cmake
                              INSTALL_DESTINATION ${package_dir})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/sparsesvmConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/sparsesvmConfig.cmake ${CMAKE_BINARY_DIR}/sparsesvmConfigVersion.cmake
        DESTINATION ${package_dir})

set(share_dir ${CMAKE_INSTALL_DATADIR}/sparsesvm)
install(PROGRAMS scripts/plot.py scripts/fetch_datasets.sh DESTINATION ${share_dir}/scripts)  # configs name the fetch script
install(DIRECTORY configs datasets docs examples DESTINATION ${share_dir})
install(FILES README.md DESTINATION ${share_dir})

# The Debian package: runtime libraries from dpkg-shlibdeps (Clp, Cbc, yaml-cpp, fmt, spdlog), Python with
# matplotlib for the figures, and the development packages that find_package(sparsesvm) needs.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sparsesvm)
set(CPACK_PACKAGE_CONTACT "sparsesvm developers <sparsesvm@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Sparse linear classifiers of five papers on sparse SVMs, with certificates")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3, python3-matplotlib")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "coinor-libclp-dev, coinor-libcbc-dev, libeigen3-dev, libyaml-cpp-dev, libfmt-dev, pkg-config")
include(CPack)
