// Picking a translation's diagnostics of one code, for rule tests.
#pragma once

#include <vector>

#include "translate.hpp"

namespace s2a::testing {

inline std::vector<Diagnostic> diagnostics_with(const Translation& t, Code code) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : t.diagnostics) {
    if (d.code == code) out.push_back(d);
  }
  return out;
}

}  // namespace s2a::testing
