// Masking secrets in everything slurm2air writes: the workload, the YAML and
// the messages that quote the script. The translation records where secrets
// are (redaction spans); these helpers replace their text wherever it was
// copied to.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "source/source_file.hpp"

namespace s2a::emit {

/// Secrets shorter than this are only masked in place: replacing them
/// everywhere would mangle unrelated text.
inline constexpr size_t kMinMaskedSecret = 4;

/// The secret strings behind the redaction spans, longest first, without the
/// short ones.
[[nodiscard]] std::vector<std::string> secret_strings(const SourceFile& file,
                                                      const std::vector<Span>& spans);

/// Replaces each whole occurrence of a secret (kMinMaskedSecret bytes or
/// more) in any number of texts. One embedded in a longer name (the value
/// API_KEY inside ${WANDB_API_KEY}) is other text, not the secret. Each text
/// is read once, whatever the number of secrets: a script that holds many
/// (scripts concatenated, each with its token) would otherwise cost secrets ×
/// bytes for the YAML and again for every message.
class SecretMasker {
 public:
  explicit SecretMasker(std::vector<std::string> secrets);
  SecretMasker(const SourceFile& file, const std::vector<Span>& spans)
      : SecretMasker(secret_strings(file, spans)) {}

  [[nodiscard]] bool empty() const { return secrets_.empty(); }
  /// `text` with every occurrence replaced by `with`; overlapping ones become
  /// one `with`.
  [[nodiscard]] std::string mask(std::string text, std::string_view with) const;

 private:
  /// The longest whole secret at `at`, or 0.
  [[nodiscard]] size_t match_at(std::string_view text, size_t at) const;

  std::vector<std::string> secrets_;       // longest first
  std::array<bool, 256> starts_secret_{};  // first bytes, to skip most of a text cheaply
  // Indexes into secrets_ by their first 8 bytes, or 4 for those shorter
  // than 8: few secrets share either (tokens differ early), so few are
  // compared at each place.
  std::unordered_map<uint64_t, std::vector<uint32_t>> by_head8_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> by_head4_;
};

/// SecretMasker(secrets).mask(text, with), for one text.
[[nodiscard]] std::string mask_secrets(std::string text, const std::vector<std::string>& secrets,
                                       std::string_view with);

}  // namespace s2a::emit
