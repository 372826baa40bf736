# bench_power (bench/bench_power.c): pwr_create cold/warm time, pwr_eval time
# from memoised state, and the V100 average component breakdown over the
# suite next to AccelWattch's published Volta breakdown.
add_executable(bench_power ${CMAKE_SOURCE_DIR}/bench/bench_power.c ${CMAKE_SOURCE_DIR}/tests/power/pwr_suite_run.c)
target_link_libraries(bench_power PRIVATE gpuest_power gpuest_sampler gpuest_suite gpuest_ptx)
target_include_directories(bench_power PRIVATE ${CMAKE_SOURCE_DIR}/tests/power)
set_target_properties(bench_power PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
