# Run by sarek_layout_generate()'s custom command (cmake -P) right after
# `sarek-layout generate --depfile RAW`: turns that depfile into the one CMake reads, then
# touches the stamp.
#
#   -DRAW=<file>      the depfile sarek-layout wrote: one rule per header, naming the schema
#                     files it depends on, and an empty rule per schema (like gcc -MP)
#   -DDEPFILE=<file>  the depfile to write: one rule, STAMP: <every schema file>
#   -DSTAMP=<file>    the command's one declared OUTPUT
#   -DOUTPUTS=<a|b>   the headers (the command's BYPRODUCTS), '|'-separated
#   -DMODE=ninja|make the CMake generator family
#
# Why a rewrite: Ninja accepts a depfile only when its first target is the build
# statement's first output (here the stamp), and the headers cannot be that output, since
# Make would then re-touch every unchanged header after each run. With Make (MODE=make) the
# headers are also listed as prerequisites of the stamp, each with an empty rule: a deleted
# header then reruns the command instead of failing with "No such file". Ninja needs no such
# help: it reruns a command whose by-product is missing.
#
# Paths stay in the escaped form sarek-layout wrote them in (Make syntax: '\ ' for a space,
# '\#', '\:', '$$'); only the stamp and the headers are escaped here.

cmake_minimum_required(VERSION 3.20)

function(_sarek_make_escape path out)
  string(REPLACE "$" "$$" path "${path}")
  string(REPLACE "#" "\\#" path "${path}")
  string(REPLACE " " "\\ " path "${path}")
  string(REPLACE ":" "\\:" path "${path}")
  set(${out} "${path}" PARENT_SCOPE)
endfunction()

file(READ "${RAW}" raw)
# Joined continuation lines; escaped spaces and colons hidden so that ' ' splits words and
# the first ':' ends the targets.
string(REPLACE "\\\n" " " raw "${raw}")
string(REPLACE "\\ " "<SAREK_SPACE>" raw "${raw}")
string(REPLACE "\\:" "<SAREK_COLON>" raw "${raw}")
string(REPLACE ";" "<SAREK_SEMICOLON>" raw "${raw}")
string(REPLACE "\n" ";" lines "${raw}")

set(prerequisites "")
foreach(line IN LISTS lines)
  string(FIND "${line}" ":" colon)
  if(colon EQUAL -1)
    continue()
  endif()
  math(EXPR start "${colon} + 1")
  string(SUBSTRING "${line}" ${start} -1 deps)
  string(STRIP "${deps}" deps)
  if(deps STREQUAL "")
    continue()
  endif()
  string(REGEX REPLACE "[ \t]+" ";" deps "${deps}")
  list(APPEND prerequisites ${deps})
endforeach()
list(REMOVE_DUPLICATES prerequisites)

set(empty_rules "")
if(MODE STREQUAL "make")
  string(REPLACE "|" ";" outputs "${OUTPUTS}")
  foreach(output IN LISTS outputs)
    _sarek_make_escape("${output}" output)
    list(APPEND prerequisites "${output}")
  endforeach()
  foreach(p IN LISTS prerequisites)
    string(APPEND empty_rules "${p}:\n")
  endforeach()
endif()

_sarek_make_escape("${STAMP}" stamp)
list(JOIN prerequisites " " joined)
set(text "${stamp}: ${joined}\n${empty_rules}")
string(REPLACE "<SAREK_SPACE>" "\\ " text "${text}")
string(REPLACE "<SAREK_COLON>" "\\:" text "${text}")
string(REPLACE "<SAREK_SEMICOLON>" ";" text "${text}")

# Written only when it changes, like the headers; the stamp is always touched.
set(old "")
if(EXISTS "${DEPFILE}")
  file(READ "${DEPFILE}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${DEPFILE}" "${text}")
endif()
file(TOUCH "${STAMP}")
