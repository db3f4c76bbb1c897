// `slurm2air explain job.sh`: the script line by line, beside what became of
// each line (mapped to which field, rewritten how, dropped why), then the
// translation. Plain text that fits the given width; colour only on request.
#pragma once

#include <string>

#include "translate.hpp"

namespace s2a::emit {

struct ExplainOptions {
  unsigned width = 80;  // terminal columns; at least 60 is used
  bool color = false;   // ANSI colours (the CLI enables them on a terminal only)
};

/// What became of one source line, as short phrases.
struct LineFate {
  enum class Kind : uint8_t { plain, mapped, changed, dropped, problem };
  Kind kind = Kind::plain;
  std::vector<std::string> phrases;
};

/// The fate of every line of the script (index 0 is line 1).
[[nodiscard]] std::vector<LineFate> explain_lines(const Translation& t);

[[nodiscard]] std::string render_explain(const Translation& t, const ExplainOptions& options = {});

}  // namespace s2a::emit
