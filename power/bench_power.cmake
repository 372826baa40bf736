# bench_power (bench/bench_power.c): pwr_eval time from memoised state,
# pwr_create cold/warm time, and the V100 average component breakdown next
# to AccelWattch's published Volta breakdown.  Links the simulator and the
# suite when they are built, to produce suite activity.
if(EXISTS ${CMAKE_SOURCE_DIR}/bench/bench_power.c)
  add_executable(bench_power ${CMAKE_SOURCE_DIR}/bench/bench_power.c)
  target_link_libraries(bench_power PRIVATE gpuest_power)
  foreach(lib gpuest_sampler gpuest_suite)
    if(TARGET ${lib})
      target_link_libraries(bench_power PRIVATE ${lib})
      string(TOUPPER ${lib} _def)
      target_compile_definitions(bench_power PRIVATE HAVE_${_def}=1)
    endif()
  endforeach()
  set_target_properties(bench_power PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
endif()
