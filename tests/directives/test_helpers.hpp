// Shared helpers for the directive tests: build words, scan scripts, and
// look diagnostics up by code.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "directives/directives.hpp"

namespace s2a::directives::testing {

/// Words as a shell would hand them to srun: consecutive spans, no quoting.
inline std::vector<Word> words_of(std::initializer_list<std::string> texts) {
  std::vector<Word> words;
  uint32_t offset = 0;
  for (const std::string& text : texts) {
    words.push_back({text, {offset, offset + static_cast<uint32_t>(text.size())}});
    offset += static_cast<uint32_t>(text.size()) + 1;
  }
  return words;
}

inline size_t count_code(const Diagnostics& diagnostics, Code code) {
  return static_cast<size_t>(std::count_if(diagnostics.begin(), diagnostics.end(),
                                           [&](const Diagnostic& d) { return d.code == code; }));
}

inline const Diagnostic* find_code(const Diagnostics& diagnostics, Code code) {
  const auto it = std::find_if(diagnostics.begin(), diagnostics.end(),
                               [&](const Diagnostic& d) { return d.code == code; });
  return it == diagnostics.end() ? nullptr : &*it;
}

inline std::vector<std::string> code_names(const Diagnostics& diagnostics) {
  std::vector<std::string> names;
  for (const Diagnostic& d : diagnostics) names.emplace_back(code_info(d.code).name);
  return names;
}

/// The final (non-overridden) value of `name` in component 0, or "<unset>".
inline std::string final_value(const ScanResult& result, std::string_view name, int component = 0) {
  for (const Option& option : result.options) {
    if (option.component == component && option.name() == name && !option.overridden) {
      return option.value.value_or("<flag>");
    }
  }
  return "<unset>";
}

inline std::string script(std::string_view directives,
                          std::string_view body = "python train.py\n") {
  return "#!/bin/bash\n" + std::string(directives) + std::string(body);
}

}  // namespace s2a::directives::testing
