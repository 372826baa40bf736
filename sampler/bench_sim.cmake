# bench_sim: speed of the detailed simulator (bench/bench_sim.c).  Included
# from sampler/CMakeLists.txt; links the trace reader, and the suite when the
# PTX emulator is in the build.
if(TARGET gpuest_accelsim)
  add_executable(bench_sim ${CMAKE_SOURCE_DIR}/bench/bench_sim.c)
  target_link_libraries(bench_sim PRIVATE gpuest_sampler gpuest_accelsim)
  if(TARGET gpuest_suite)
    target_link_libraries(bench_sim PRIVATE gpuest_suite)
    target_compile_definitions(bench_sim PRIVATE BENCH_HAVE_SUITE=1)
  endif()
  set_target_properties(bench_sim PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
endif()
