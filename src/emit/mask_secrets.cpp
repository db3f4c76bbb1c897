#include "emit/mask_secrets.hpp"

#include <algorithm>
#include <cctype>

namespace s2a::emit {
namespace {

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The occurrence at [at, end) is not part of a longer identifier.
bool is_whole(std::string_view text, size_t at, size_t end, std::string_view secret) {
  const bool starts_word =
      at == 0 || !is_identifier_char(text[at - 1]) || !is_identifier_char(secret.front());
  const bool ends_word =
      end == text.size() || !is_identifier_char(text[end]) || !is_identifier_char(secret.back());
  return starts_word && ends_word;
}

}  // namespace

std::vector<std::string> secret_strings(const SourceFile& file, const std::vector<Span>& spans) {
  std::vector<std::string> out;
  for (Span span : spans) {
    if (span.end > file.text().size() || span.size() < 4) continue;
    out.emplace_back(file.slice(span));
  }
  std::sort(out.begin(), out.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  return out;
}

std::string mask_secrets(std::string text, const std::vector<std::string>& secrets,
                         std::string_view with) {
  for (const std::string& secret : secrets) {
    for (size_t at = text.find(secret); at != std::string::npos;) {
      if (!is_whole(text, at, at + secret.size(), secret)) {
        at = text.find(secret, at + 1);
        continue;
      }
      text.replace(at, secret.size(), with);
      at = text.find(secret, at + with.size());
    }
  }
  return text;
}

}  // namespace s2a::emit
