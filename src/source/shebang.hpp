// The script's `#!` line: which program sbatch runs it with, and the one
// argument the kernel passes that program (`#!/bin/bash -ex` → "-ex").
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "source/source_file.hpp"

namespace s2a {

struct Shebang {
  std::string_view program;   // basename: "bash", "zsh", "python3"; through `env` (and `env -S`)
  std::string_view argument;  // the rest of the line after the program, trimmed
  Span line;                  // the whole first line
};

/// The `#!` line of `text`, or nullopt when it does not start with one.
[[nodiscard]] std::optional<Shebang> read_shebang(std::string_view text);

/// bash and sh, and the shells that read a POSIX script the same way.
[[nodiscard]] bool is_bash_or_sh(std::string_view program);

/// The `set` options that `#!/bin/bash -ex` turns on ("ex"), in order; empty
/// when the line gives none (or the program is not bash or sh). Invocation-only
/// options (`-l`, `-i`, `--login`) are not `set` options and are left out.
[[nodiscard]] std::string set_options_of(const Shebang& shebang);

}  // namespace s2a
