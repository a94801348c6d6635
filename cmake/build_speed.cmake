# Build time (issue 51). Most of a source file's compile time went to the headers it includes (the
# engine's, Abseil's, Boost's, RapidJSON's, GoogleTest's) and to the templates they instantiate
# and optimize again in every file (Item's flat_map, Value's variant). The remedies, each with a
# switch (bench/README.md, "Build time", has the figures):
#
# - PARTSTORE_UNITY: every library, the program, the benchmarks and every test binary compile
#   their files in batches (CMake's unity builds), so that the headers and the templates are
#   compiled and optimized once per batch instead of once per file. By default each is ONE batch
#   (PARTSTORE_UNITY_BATCH_SIZE for the code, PARTSTORE_UNITY_TEST_BATCH_SIZE for the tests; 0:
#   no limit). One batch of the shard library and core took 121 CPU-seconds at g++ -O3 against
#   224 s in batches of 8, and 270 s against 389 s at clang -O2 with ASan + UBSan; a request runs
#   the same instructions within 2% (callgrind). The libraries still compile side by side: an
#   object waits for no other library.
#   So a file-local name (anonymous namespace, static) must be unique in its library, and in its
#   test folder: a helper two files need is one helper in a shared header. tools/unity_check.sh
#   checks it (clang -fsyntax-only on the Unity/unity_*_cxx.cxx files of a tree configured with
#   both sizes 0).
# - PARTSTORE_PCH: the JSON protocol also precompiles the headers its files all include
#   (cmake/pch/protocol.h). It pays only when the protocol compiles as several files: by default
#   it is on when unity builds are off or batched. With the protocol as one batch beside its item
#   writer, the header cost 8.3 s to precompile and saved 1.3 s.
#
# - PARTSTORE_TEST_OPTIMIZE: test files are compiled with less optimization than the code they test
#   (g++ -Og, clang -O0; the folders' *_testutil.cc helpers keep the tree's level). A test body
#   runs once; optimizing GoogleTest's macros cost more than running them: a batch of eight shard
#   test files took 43.8 s at g++ -O3 and 23 s at -Og, 59.3 s at clang -O2 with ASan + UBSan and
#   19.3 s at -O0.
#
# Turn PARTSTORE_UNITY off when editing one file again and again, so that only that file
# recompiles.
option(PARTSTORE_UNITY "Compile the libraries, the program and the tests in batches (unity build)" ON)
set(PARTSTORE_UNITY_BATCH_SIZE 0 CACHE STRING "Source files per unity batch (0: a whole library)")
set(partstore_pch_default ON)
if(PARTSTORE_UNITY AND PARTSTORE_UNITY_BATCH_SIZE EQUAL 0)
  set(partstore_pch_default OFF)
endif()
option(PARTSTORE_PCH "Precompile the JSON protocol's common headers" ${partstore_pch_default})
set(PARTSTORE_UNITY_TEST_BATCH_SIZE 0 CACHE STRING "Test files per unity batch (0: a whole test binary)")
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(partstore_test_optimize_default -O0)
else()
  set(partstore_test_optimize_default -Og)
endif()
set(PARTSTORE_TEST_OPTIMIZE ${partstore_test_optimize_default} CACHE STRING
    "Optimization flags of the test files, as on a command line (empty: the build type's)")

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

# partstore_unity(TARGET [BATCH_SIZE]): TARGET's sources compiled in batches, of
# PARTSTORE_UNITY_BATCH_SIZE files unless BATCH_SIZE says otherwise.
function(partstore_unity target)
  set(batch ${PARTSTORE_UNITY_BATCH_SIZE})
  if(ARGC GREATER 1)
    set(batch ${ARGV1})
  endif()
  if(PARTSTORE_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch})
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      # g++ takes a .cc file a batch includes for a header, and warns when a class there has a
      # member of a type from the file's anonymous namespace (the warning is for headers, which
      # several files include; a batch includes each source once).
      target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
    endif()
  endif()
endfunction()
