# bench_trace: Accel-Sim trace reading speed (warp instructions per second)
# for plain and xz traces.  Included from workloads/accelsim/CMakeLists.txt.
# Run from the repository root: ./build/bench_trace [--insts N]
add_executable(bench_trace ${CMAKE_SOURCE_DIR}/bench/bench_trace.c)
target_link_libraries(bench_trace PRIVATE gpuest_accelsim gpuest_common)
set_target_properties(bench_trace PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
