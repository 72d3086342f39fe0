# sarek_layout CMake package: find_package(sarek_layout CONFIG) and sarek_layout_generate().
#
# Ships inside the sarek-layout Python package; `sarek-layout --cmakedir` prints this folder:
#
#   cmake -S . -B build -Dsarek_layout_DIR="$(sarek-layout --cmakedir)"
#
#   find_package(sarek_layout 0.1 CONFIG REQUIRED)
#   add_library(mylib mylib.c)
#   sarek_layout_generate(TARGET mylib SCHEMAS schemas/geometry.toml TARGETS c cuda)
#
# The headers are regenerated when a schema, or a schema it uses, changes (a depfile written
# by `sarek-layout generate --depfile`), and only the sources that include a header whose
# content changed are recompiled: generate rewrites a file only when its content changes.
# See docs/build-integration.md.

if(CMAKE_VERSION VERSION_LESS 3.20)
  # DEPFILE on add_custom_command with the Makefile generators, and the depfile path
  # handling of policy CMP0116, both need CMake 3.20.
  set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)
  set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE
      "sarek_layout needs CMake 3.20 or newer (this is ${CMAKE_VERSION})")
  return()
endif()

# find_package() loads this file in its own policy scope, and functions keep the policies in
# force where they are defined: CMP0116 NEW (Ninja rewrites the depfile's paths relative to
# the build tree) whatever the calling project asks for.
cmake_policy(VERSION 3.20...3.31)

set(_sarek_layout_cmake_dir "${CMAKE_CURRENT_LIST_DIR}")

# The executable installed with this package: <prefix>/bin next to
# <prefix>/lib/pythonX.Y/site-packages/sarek_layout/cmake (Scripts/ on Windows), else PATH.
find_program(SAREK_LAYOUT_EXECUTABLE
  NAMES sarek-layout
  HINTS "${CMAKE_CURRENT_LIST_DIR}/../../../../../bin"
        "${CMAKE_CURRENT_LIST_DIR}/../../../../Scripts"
  DOC "the sarek-layout command")
if(NOT SAREK_LAYOUT_EXECUTABLE)
  set(${CMAKE_FIND_PACKAGE_NAME}_FOUND FALSE)
  set(${CMAKE_FIND_PACKAGE_NAME}_NOT_FOUND_MESSAGE
      "the sarek-layout command was not found: install it (pipx install /path/to/sarek-layout) "
      "or set SAREK_LAYOUT_EXECUTABLE")
  return()
endif()

# Output file suffix of each target, after the schema file's stem (geometry.toml -> geometry.h).
# Mirrors sarek_layout/targets/registry.py; tests/integration/test_integration_cmake.py checks they agree.
set(_sarek_layout_suffix_c ".h")
set(_sarek_layout_suffix_cuda ".cuh")
set(_sarek_layout_suffix_opencl ".clh")
set(_sarek_layout_suffix_python "_layout.py")
set(_sarek_layout_suffix_glsl ".glsl")
set(_sarek_layout_suffix_wgsl ".wgsl")
set(_sarek_layout_suffix_metal "_metal.h")
set(_sarek_layout_suffix_hlsl ".hlsl")
set(_sarek_layout_suffix_zig ".zig")
set(_sarek_layout_suffix_rust ".rs")
set(_sarek_layout_suffix_typescript ".ts")
set(_sarek_layout_targets c cuda opencl python glsl wgsl metal hlsl zig rust typescript)
set(_sarek_layout_default_targets c cuda opencl)

#[=======================================================================[
sarek_layout_generate(TARGET <target> SCHEMAS <file>...
                      [TARGETS <c|cuda|opencl|python|glsl|wgsl|metal|hlsl|zig|rust|typescript>...]
                      [OUT_DIR <dir>]
                      [INCLUDE_SCOPE <PUBLIC|PRIVATE|INTERFACE>] [OUTPUTS_VAR <var>])

Generates the headers of SCHEMAS (given together, so they may use each other's types) into
OUT_DIR (default: ${CMAKE_CURRENT_BINARY_DIR}/sarek_layout/<target>) before <target> is
built, and adds OUT_DIR to <target>'s include path (PUBLIC by default, build tree only).
OUTPUTS_VAR receives the list of generated files. Call it once per target (it adds the
utility target <target>_sarek_layout); a relative OUT_DIR is taken from the current build
folder.
#]=======================================================================]
function(sarek_layout_generate)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "TARGET;OUT_DIR;INCLUDE_SCOPE;OUTPUTS_VAR"
                        "SCHEMAS;TARGETS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "sarek_layout_generate: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_TARGET)
    message(FATAL_ERROR "sarek_layout_generate: TARGET <target> is required")
  endif()
  if(NOT TARGET "${arg_TARGET}")
    message(FATAL_ERROR "sarek_layout_generate: '${arg_TARGET}' is not a target; "
                        "call it after add_library()/add_executable()")
  endif()
  if(NOT arg_SCHEMAS)
    message(FATAL_ERROR "sarek_layout_generate: SCHEMAS <file>... is required")
  endif()
  if(NOT arg_TARGETS)
    set(arg_TARGETS ${_sarek_layout_default_targets})
  endif()
  if(NOT arg_OUT_DIR)
    set(arg_OUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/sarek_layout/${arg_TARGET}")
  endif()
  if(NOT arg_INCLUDE_SCOPE)
    set(arg_INCLUDE_SCOPE PUBLIC)
  endif()
  cmake_path(ABSOLUTE_PATH arg_OUT_DIR BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
             NORMALIZE OUTPUT_VARIABLE out_dir)

  set(schemas "")
  set(outputs "")
  set(target_flags "")
  foreach(t IN LISTS arg_TARGETS)
    if(NOT DEFINED _sarek_layout_suffix_${t})
      list(JOIN _sarek_layout_targets ", " known)
      message(FATAL_ERROR "sarek_layout_generate: unknown target '${t}'; known targets: ${known}")
    endif()
    list(APPEND target_flags -t ${t})
  endforeach()
  foreach(schema IN LISTS arg_SCHEMAS)
    cmake_path(ABSOLUTE_PATH schema BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
    list(APPEND schemas "${schema}")
    cmake_path(GET schema STEM LAST_ONLY stem)
    foreach(t IN LISTS arg_TARGETS)
      list(APPEND outputs "${out_dir}/${stem}${_sarek_layout_suffix_${t}}")
    endforeach()
  endforeach()

  # One command writes every header; it owns a stamp file, and the headers are its
  # by-products. Ninja (restat) and Make then see a header change only when its content
  # does, so a schema edit recompiles exactly the sources that include a changed header.
  # The depfile (rewritten by sarek_layout_depfile.cmake: see there) makes the command
  # depend on every schema the headers use, and lets Make notice a deleted header.
  set(stamp "${out_dir}/.sarek_layout.stamp")
  set(raw_depfile "${out_dir}/.sarek_layout.raw.d")
  set(depfile "${out_dir}/.sarek_layout.d")
  if(CMAKE_GENERATOR MATCHES "Ninja")
    set(mode ninja)
  else()
    set(mode make)
  endif()
  string(REPLACE ";" "|" outputs_joined "${outputs}")
  add_custom_command(
    OUTPUT "${stamp}"
    BYPRODUCTS ${outputs}
    COMMAND "${SAREK_LAYOUT_EXECUTABLE}" generate ${schemas} -o "${out_dir}" ${target_flags}
            --depfile "${raw_depfile}"
    COMMAND "${CMAKE_COMMAND}" "-DRAW=${raw_depfile}" "-DDEPFILE=${depfile}" "-DSTAMP=${stamp}"
            "-DOUTPUTS=${outputs_joined}" "-DMODE=${mode}"
            -P "${_sarek_layout_cmake_dir}/sarek_layout_depfile.cmake"
    DEPENDS ${schemas} "${_sarek_layout_cmake_dir}/sarek_layout_depfile.cmake"
    DEPFILE "${depfile}"
    COMMENT "sarek-layout: generating headers of ${arg_TARGET}"
    VERBATIM)
  add_custom_target("${arg_TARGET}_sarek_layout" DEPENDS "${stamp}")
  add_dependencies("${arg_TARGET}" "${arg_TARGET}_sarek_layout")
  target_include_directories("${arg_TARGET}" ${arg_INCLUDE_SCOPE} "$<BUILD_INTERFACE:${out_dir}>")
  if(arg_OUTPUTS_VAR)
    set(${arg_OUTPUTS_VAR} ${outputs} PARENT_SCOPE)
  endif()
endfunction()
