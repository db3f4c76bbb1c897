// #PBS and #BSUB lines as sbatch translates them (spec/slurm-sbatch.md §1.6).
//
// sbatch reads these after the #SBATCH pass and turns the options it knows
// into sbatch options, so they override #SBATCH values. Each translated
// option carries the span of what was written in the #PBS/#BSUB line.
#pragma once

#include <string_view>
#include <vector>

#include "diag/diagnostic.hpp"
#include "directives/directives.hpp"

namespace s2a::directives::detail {

enum class BatchFamily : uint8_t { pbs, bsub };

struct ForeignTranslation {
  std::vector<Option> options;      // sbatch options, in the order sbatch applies them
  std::vector<std::string> unused;  // words of options sbatch ignores ("-j oe")
  Diagnostics diagnostics;          // tokenizer problems
};

/// Translates the body of one `#PBS`/`#BSUB` line (the text after the magic
/// word); `base` is the body's file offset.
[[nodiscard]] ForeignTranslation translate_foreign_line(BatchFamily family, std::string_view body,
                                                        uint32_t base);

}  // namespace s2a::directives::detail
