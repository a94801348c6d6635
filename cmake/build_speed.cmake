# Build time (issue 51). Most of a source file's compile time went to the headers it includes (the
# engine's, Abseil's, Boost's, RapidJSON's, GoogleTest's) and to the templates they instantiate,
# once per file. Two remedies, each with a switch:
#
# - PARTSTORE_PCH: each big library precompiles the headers nearly all its files include
#   (cmake/pch/<layer>.h), once per library instead of once per file.
# - PARTSTORE_UNITY: each test binary compiles its test files in batches of
#   PARTSTORE_UNITY_BATCH_SIZE (CMake's unity builds), so that GoogleTest, the engine's headers and
#   the Item and Value templates are compiled once per batch. A test file whose file-local helpers
#   clash with a neighbour's is compiled alone (partstore_unity_alone in tests/CMakeLists.txt).
#
# Both are on by default (tools/run test measures them, bench/README.md has the figures); turn
# PARTSTORE_UNITY off when editing one test file again and again, so that only it recompiles.
option(PARTSTORE_PCH "Precompile each big library's common headers" ON)
option(PARTSTORE_UNITY "Compile each test binary's files in batches (unity build)" ON)
set(PARTSTORE_UNITY_BATCH_SIZE 8 CACHE STRING "Test files per unity batch")

# partstore_precompile(TARGET LAYER): TARGET precompiles cmake/pch/LAYER.h.
function(partstore_precompile target layer)
  if(PARTSTORE_PCH)
    target_precompile_headers(${target} PRIVATE ${PROJECT_SOURCE_DIR}/cmake/pch/${layer}.h)
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      # Without a timestamp in the header, ccache can cache the files that use it.
      target_compile_options(${target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
    endif()
  endif()
endfunction()

# partstore_unity(TARGET): TARGET's sources compiled in batches.
function(partstore_unity target)
  if(PARTSTORE_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                          UNITY_BUILD_BATCH_SIZE ${PARTSTORE_UNITY_BATCH_SIZE})
  endif()
endfunction()
