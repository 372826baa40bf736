# bench_emu: emulation speed of the PTX front-end over the workload suite
# (thread and warp instructions per second).  Included from
# workloads/ptx/CMakeLists.txt; the suite library is defined later, so it is
# linked through a generator expression and suite_all is a weak symbol.
add_executable(bench_emu ${CMAKE_SOURCE_DIR}/bench/bench_emu.c)
target_link_libraries(bench_emu PRIVATE gpuest_ptx gpuest_common $<TARGET_NAME_IF_EXISTS:gpuest_suite>)
set_target_properties(bench_emu PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
