# Included from common/CMakeLists.txt: compiles every configs/*.cfg into
# gpuest_common as C arrays (see common/config_registry.h), so installed
# binaries carry the shipped configs.  Re-globbed at build time, so adding a
# config needs no CMake edit.
file(GLOB GPUEST_CONFIG_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/configs/*.cfg)
list(SORT GPUEST_CONFIG_FILES)
set(GPUEST_CONFIGS_C ${CMAKE_CURRENT_BINARY_DIR}/configs_embedded.c)
string(REPLACE ";" "|" _gpuest_cfg_list "${GPUEST_CONFIG_FILES}")
add_custom_command(
  OUTPUT ${GPUEST_CONFIGS_C}
  COMMAND ${CMAKE_COMMAND} "-DOUT=${GPUEST_CONFIGS_C}" "-DFILES=${_gpuest_cfg_list}"
          -P ${CMAKE_SOURCE_DIR}/configs/embed_configs.cmake
  DEPENDS ${GPUEST_CONFIG_FILES} ${CMAKE_SOURCE_DIR}/configs/embed_configs.cmake
  COMMENT "Embedding shipped GPU configs (configs/*.cfg)"
  VERBATIM)
target_sources(gpuest_common PRIVATE ${GPUEST_CONFIGS_C})
