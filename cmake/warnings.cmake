# Strict warnings for our own code only; third-party headers come in as SYSTEM.
add_library(slurm2air_warnings INTERFACE)
target_compile_options(slurm2air_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough)
if(SLURM2AIR_WERROR)
  target_compile_options(slurm2air_warnings INTERFACE -Werror)
endif()
