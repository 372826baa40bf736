# bench_cacti: accuracy against CACTI 7 (MAPE table) and cold/memoised solve times.
add_executable(bench_cacti ${CMAKE_SOURCE_DIR}/bench/bench_cacti.c
  ${CMAKE_SOURCE_DIR}/tests/cacti/cacti_ref.c)
target_include_directories(bench_cacti PRIVATE ${CMAKE_SOURCE_DIR}/tests/cacti)
target_link_libraries(bench_cacti PRIVATE gpuest_cacti)
set_target_properties(bench_cacti PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
target_compile_definitions(bench_cacti PRIVATE CACTI_DATA_DIR="${CMAKE_SOURCE_DIR}/tests/data/cacti7")
