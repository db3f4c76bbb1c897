// libFuzzer target: s2a::fuzz::scanner() (see entry_points.hpp).
#include "entry_points.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  s2a::fuzz::scanner(data, size);
  return 0;
}
