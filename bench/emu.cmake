# bench_emu: emulation speed of the PTX front-end over the workload suite
# (thread and warp instructions per second).  Included from
# workloads/ptx/CMakeLists.txt (gpuest_suite is defined later in the same
# configure step, which target_link_libraries allows).
add_executable(bench_emu ${CMAKE_SOURCE_DIR}/bench/bench_emu.c)
target_link_libraries(bench_emu PRIVATE gpuest_ptx gpuest_suite gpuest_common)
set_target_properties(bench_emu PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
