# bench_sim: speed of the detailed simulator (bench/bench_sim.c) on traces and
# suite workloads.  Included from sampler/CMakeLists.txt.
add_executable(bench_sim ${CMAKE_SOURCE_DIR}/bench/bench_sim.c)
target_link_libraries(bench_sim PRIVATE gpuest_sampler gpuest_accelsim gpuest_suite)
set_target_properties(bench_sim PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
