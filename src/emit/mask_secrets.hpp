// Masking secrets in everything slurm2air writes: the workload, the YAML and
// the messages that quote the script. The translation records where secrets
// are (redaction spans); these helpers replace their text wherever it was
// copied to.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "source/source_file.hpp"

namespace s2a::emit {

/// The secret strings behind the redaction spans, longest first. Short ones
/// (under 4 bytes) are only masked in place: replacing them everywhere would
/// mangle unrelated text.
[[nodiscard]] std::vector<std::string> secret_strings(const SourceFile& file,
                                                      const std::vector<Span>& spans);

/// `text` with each whole occurrence of a secret replaced by `with`. One
/// embedded in a longer name (the value API_KEY inside ${WANDB_API_KEY}) is
/// other text, not the secret.
[[nodiscard]] std::string mask_secrets(std::string text, const std::vector<std::string>& secrets,
                                       std::string_view with);

}  // namespace s2a::emit
