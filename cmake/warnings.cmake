# Strict warnings for our own code only; third-party headers come in as SYSTEM.
add_library(slurm2air_warnings INTERFACE)
target_compile_options(slurm2air_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough)
# GCC 12 reports std::optional<std::string> copies as "maybe uninitialized"
# (a known false positive at -O2), and at -O3 flags inlined `"x" + std::string`
# as an overlapping memcpy (-Wrestrict, GCC bug 105329); both would break
# -Werror release builds at random.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(slurm2air_warnings INTERFACE -Wno-maybe-uninitialized -Wno-restrict)
endif()
if(SLURM2AIR_WERROR)
  target_compile_options(slurm2air_warnings INTERFACE -Werror)
endif()
