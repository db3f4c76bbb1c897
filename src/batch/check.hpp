// `slurm2air check` and `batch --check`: is a committed translation current?
//
// The script is translated again with the same flags and the result compared
// byte for byte with the committed YAML; a difference (stale translation or
// a hand edit) is shown as a unified diff computed here, not by diff(1).
#pragma once

#include <string>
#include <string_view>

#include "translate.hpp"

namespace s2a::batch {

/// A unified diff by lines (`context` lines around each change, GNU hunk
/// headers, "\ No newline at end of file" markers); empty when equal.
[[nodiscard]] std::string unified_diff(std::string_view before, std::string_view after,
                                       std::string_view before_label, std::string_view after_label,
                                       int context = 3);

struct CheckResult {
  bool up_to_date = false;
  std::string diff;     // committed -> fresh translation
  std::string problem;  // set when there is nothing to compare (script no longer converts)
};

[[nodiscard]] CheckResult check_translation(const Translation& fresh, std::string_view committed,
                                            std::string_view committed_label);

}  // namespace s2a::batch
