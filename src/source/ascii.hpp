// ASCII case folding for names that Slurm, shells and the site profile
// compare without case (GPU models, partitions, modules, option names).
// Bytes outside ASCII are left alone, whatever the C locale says.
#pragma once

#include <string>
#include <string_view>

namespace s2a {

[[nodiscard]] inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

[[nodiscard]] inline std::string ascii_upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

}  // namespace s2a
