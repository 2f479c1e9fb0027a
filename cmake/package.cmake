# The installed package: the public headers, libjitser.so (the target jitser::jitser) and
# libjitser.a (jitser::jitser_static, with `find_package(jitser COMPONENTS static)`), the .proto
# importer libjitser_proto.so and .a (jitser::proto and jitser::proto_static, with the component
# `proto`), their CMake files, jitser.pc and jitser-proto.pc for pkg-config, the jitser tool, and
# `cpack -G DEB` for a Debian package of all of it. Every installed path is relative to the prefix, so the package can be moved.

install(DIRECTORY include/jitser DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(TARGETS jitser EXPORT jitserTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS jitser_static EXPORT jitserStaticTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS jitser_proto EXPORT jitserProtoTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS jitser_proto_static EXPORT jitserProtoStaticTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS jitser_tool RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(JITSER_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/jitser)
install(EXPORT jitserTargets NAMESPACE jitser:: DESTINATION ${JITSER_CMAKE_DIR})
install(EXPORT jitserStaticTargets NAMESPACE jitser:: DESTINATION ${JITSER_CMAKE_DIR})
install(EXPORT jitserProtoTargets NAMESPACE jitser:: DESTINATION ${JITSER_CMAKE_DIR})
install(EXPORT jitserProtoStaticTargets NAMESPACE jitser:: DESTINATION ${JITSER_CMAKE_DIR})
configure_package_config_file(cmake/jitserConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/jitserConfig.cmake INSTALL_DESTINATION ${JITSER_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/jitserConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/jitserConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/jitserConfigVersion.cmake
        DESTINATION ${JITSER_CMAKE_DIR})

# jitser.pc finds its prefix from its own place, as the CMake files do.
file(RELATIVE_PATH JITSER_PC_TO_PREFIX /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" JITSER_PC_TO_PREFIX "${JITSER_PC_TO_PREFIX}")
configure_file(cmake/jitser.pc.in ${CMAKE_CURRENT_BINARY_DIR}/jitser.pc @ONLY)
configure_file(cmake/jitser-proto.pc.in ${CMAKE_CURRENT_BINARY_DIR}/jitser-proto.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/jitser.pc ${CMAKE_CURRENT_BINARY_DIR}/jitser-proto.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME jitser)
set(CPACK_PACKAGE_VENDOR jitser)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "C++20 serializers compiled at run time with LLVM")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "jitser developers")
set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
# The runtime packages of what libjitser.so, libjitser_proto.so and the tool link; naming them here rather than
# through dpkg-shlibdeps keeps dpkg-dev off the build machine.
set(JITSER_DEB_DEPENDS
    "libllvm19, libsimdjson14, libxxhash0, libprotobuf32, libprotoc32, libstdc++6, libc6" CACHE STRING
    "The Debian packages the .deb depends on")
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${JITSER_DEB_DEPENDS}")
include(CPack)
