# bench_power (bench/bench_power.c): pwr_create cold/warm time, pwr_eval time
# from memoised state, and the V100 average component breakdown over the
# suite next to AccelWattch's published Volta breakdown.  The suite part
# needs the simulator, the PTX front-end and the suite; without them the
# benchmark still builds and says that part is unavailable.
if(EXISTS ${CMAKE_SOURCE_DIR}/bench/bench_power.c)
  set(_bp_src ${CMAKE_SOURCE_DIR}/bench/bench_power.c)
  if(TARGET gpuest_sampler AND TARGET gpuest_suite AND TARGET gpuest_ptx)
    list(APPEND _bp_src ${CMAKE_SOURCE_DIR}/tests/power/pwr_suite_run.c)
  endif()
  add_executable(bench_power ${_bp_src})
  target_link_libraries(bench_power PRIVATE gpuest_power)
  if(TARGET gpuest_sampler AND TARGET gpuest_suite AND TARGET gpuest_ptx)
    target_link_libraries(bench_power PRIVATE gpuest_sampler gpuest_suite gpuest_ptx)
    target_include_directories(bench_power PRIVATE ${CMAKE_SOURCE_DIR}/tests/power)
    target_compile_definitions(bench_power PRIVATE PWR_BENCH_SUITE=1)
  endif()
  set_target_properties(bench_power PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
endif()
