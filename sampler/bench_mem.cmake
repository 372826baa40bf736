# bench_mem: speed of the detailed memory hierarchy alone (bench/bench_mem.c),
# driven by the memory tests' synthetic SM side.  Included from
# sampler/CMakeLists.txt.
add_executable(bench_mem ${CMAKE_SOURCE_DIR}/bench/bench_mem.c ${CMAKE_SOURCE_DIR}/tests/sampler/mem/memdrv.c)
target_include_directories(bench_mem PRIVATE ${CMAKE_SOURCE_DIR}/tests/sampler/mem)
target_link_libraries(bench_mem PRIVATE gpuest_sampler)
set_target_properties(bench_mem PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
