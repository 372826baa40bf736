# bench_suite: every suite workload at its default (benchmark) size, verified
# against its CPU reference, with emulation speed.  Included from
# workloads/suite/CMakeLists.txt.
add_executable(bench_suite ${CMAKE_SOURCE_DIR}/bench/bench_suite.c)
target_link_libraries(bench_suite PRIVATE gpuest_suite)
set_target_properties(bench_suite PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
