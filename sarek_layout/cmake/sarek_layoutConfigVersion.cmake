# The version of the sarek_layout CMake package: the Python package's own, read from
# sarek_layout/_version.py beside this folder, so that it cannot drift.
# Compatibility: 0.x releases may change the CMake function, so a request for 0.1 is met by
# any 0.1.z at least as new; from 1.0 on, by the same major version.

file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/../_version.py" _sarek_layout_version_line
     REGEX "^__version__ = ")
string(REGEX REPLACE "^__version__ = [\"']([^\"']*)[\"'].*" "\\1" PACKAGE_VERSION
       "${_sarek_layout_version_line}")
unset(_sarek_layout_version_line)

if(NOT PACKAGE_VERSION MATCHES "^([0-9]+)\\.([0-9]+)")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)  # no readable version: refuse rather than guess
  return()
endif()
set(_sarek_layout_major "${CMAKE_MATCH_1}")
set(_sarek_layout_minor "${CMAKE_MATCH_2}")

if(NOT PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE TRUE)  # find_package(sarek_layout CONFIG): any version
elseif(PACKAGE_FIND_VERSION_RANGE)
  # find_package(sarek_layout 0.1...<0.3): the range decides.
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
  if(PACKAGE_VERSION VERSION_GREATER_EQUAL PACKAGE_FIND_VERSION_MIN
     AND ((PACKAGE_FIND_VERSION_RANGE_MAX STREQUAL "INCLUDE"
           AND PACKAGE_VERSION VERSION_LESS_EQUAL PACKAGE_FIND_VERSION_MAX)
          OR (PACKAGE_FIND_VERSION_RANGE_MAX STREQUAL "EXCLUDE"
              AND PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION_MAX)))
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  endif()
elseif(PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif(NOT PACKAGE_FIND_VERSION_MAJOR STREQUAL _sarek_layout_major)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
elseif(_sarek_layout_major EQUAL 0 AND NOT PACKAGE_FIND_VERSION_MINOR STREQUAL _sarek_layout_minor
       AND NOT PACKAGE_FIND_VERSION_COUNT LESS 2)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
  if(PACKAGE_VERSION VERSION_EQUAL PACKAGE_FIND_VERSION)
    set(PACKAGE_VERSION_EXACT TRUE)
  endif()
endif()
unset(_sarek_layout_major)
unset(_sarek_layout_minor)
