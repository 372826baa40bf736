# Helpers for tests, fuzz targets and benchmarks.
#
# gpuest_test(NAME SOURCES a.c b.c LIBS lib1 lib2 [ARGS ...] [TIMEOUT s])
#   A cmocka (or plain) test executable registered with ctest.  Tests run from
#   the source tree root so they can read tests/data and ../shared.
# gpuest_fuzz(NAME SOURCE f.c LIBS ... [CORPUS dir])
#   A libFuzzer target (LLVMFuzzerTestOneInput).  With GPUEST_FUZZ=ON (clang)
#   it links -fsanitize=fuzzer and .ci/run runs it for a bounded time.  Without
#   it, the same source links against tests/fuzz/replay_main.c and ctest
#   replays the seed corpus, so every target is compiled and exercised in
#   every build.
include_guard(GLOBAL)

pkg_check_modules(CMOCKA REQUIRED IMPORTED_TARGET cmocka)

function(gpuest_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS;ARGS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE ${T_LIBS} PkgConfig::CMOCKA)
  add_test(NAME ${name} COMMAND ${name} ${T_ARGS} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
  if(T_TIMEOUT)
    set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT})
  else()
    set_tests_properties(${name} PROPERTIES TIMEOUT 300)
  endif()
  set_property(TEST ${name} APPEND PROPERTY ENVIRONMENT "GPUEST_SHARED=${GPUEST_SHARED_DIR}")
endfunction()

function(gpuest_fuzz name)
  cmake_parse_arguments(F "" "SOURCE;CORPUS" "LIBS" ${ARGN})
  if(GPUEST_FUZZ)
    add_executable(${name} ${F_SOURCE})
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  else()
    add_executable(${name} ${F_SOURCE} ${CMAKE_SOURCE_DIR}/tests/fuzz/replay_main.c)
  endif()
  target_link_libraries(${name} PRIVATE ${F_LIBS})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  if(F_CORPUS)
    set_property(TARGET ${name} PROPERTY GPUEST_CORPUS ${F_CORPUS})
    if(NOT GPUEST_FUZZ)
      add_test(NAME ${name}_replay COMMAND ${name} ${F_CORPUS} WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    endif()
  endif()
  set_property(GLOBAL APPEND PROPERTY GPUEST_FUZZ_TARGETS "${name}|${F_CORPUS}")
endfunction()
