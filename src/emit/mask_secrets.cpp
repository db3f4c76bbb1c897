#include "emit/mask_secrets.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>

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

template <class Head>
Head head(const char* at) {
  Head out = 0;
  std::memcpy(&out, at, sizeof out);
  return out;
}

static_assert(kMinMaskedSecret >= sizeof(uint32_t), "a secret's head is at least 4 bytes");

}  // namespace

std::vector<std::string> secret_strings(const SourceFile& file, const std::vector<Span>& spans) {
  std::vector<std::string> out;
  for (Span span : spans) {
    if (span.end > file.text().size() || span.size() < kMinMaskedSecret) continue;
    out.emplace_back(file.slice(span));
  }
  std::sort(out.begin(), out.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  return out;
}

SecretMasker::SecretMasker(std::vector<std::string> secrets) : secrets_(std::move(secrets)) {
  std::erase_if(secrets_, [](const std::string& s) { return s.size() < kMinMaskedSecret; });
  // Longest first within each head, so the first whole match at a place is the longest.
  std::stable_sort(secrets_.begin(), secrets_.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (uint32_t i = 0; i < secrets_.size(); ++i) {
    const std::string& secret = secrets_[i];
    starts_secret_[static_cast<unsigned char>(secret[0])] = true;
    if (secret.size() >= sizeof(uint64_t)) {
      by_head8_[head<uint64_t>(secret.data())].push_back(i);
    } else {
      by_head4_[head<uint32_t>(secret.data())].push_back(i);
    }
  }
}

size_t SecretMasker::match_at(std::string_view text, size_t at) const {
  const auto longest_whole = [&](const auto& index, auto key) -> size_t {
    const auto bucket = index.find(key);
    if (bucket == index.end()) return 0;
    for (const uint32_t i : bucket->second) {
      const std::string& secret = secrets_[i];
      if (text.compare(at, secret.size(), secret) == 0 &&
          is_whole(text, at, at + secret.size(), secret)) {
        return secret.size();
      }
    }
    return 0;
  };
  if (!by_head8_.empty() && at + sizeof(uint64_t) <= text.size()) {
    if (const size_t length = longest_whole(by_head8_, head<uint64_t>(text.data() + at))) {
      return length;
    }
  }
  if (by_head4_.empty()) return 0;
  return longest_whole(by_head4_, head<uint32_t>(text.data() + at));
}

std::string SecretMasker::mask(std::string text, std::string_view with) const {
  if (secrets_.empty() || text.size() < kMinMaskedSecret) return text;
  std::string out;
  size_t copied = 0;      // `text` before this is written to `out` (or masked)
  size_t masked_end = 0;  // the end of the occurrences masked so far
  for (size_t at = 0; at + kMinMaskedSecret <= text.size(); ++at) {
    if (!starts_secret_[static_cast<unsigned char>(text[at])]) continue;
    const size_t length = match_at(text, at);
    if (length == 0) continue;
    if (at >= masked_end) {  // a new occurrence, not one overlapping the last
      out.append(text, copied, at - copied);
      out.append(with);
    }
    masked_end = std::max(masked_end, at + length);
    copied = masked_end;
  }
  if (copied == 0) return text;  // no occurrence
  out.append(text, copied);
  return out;
}

std::string mask_secrets(std::string text, const std::vector<std::string>& secrets,
                         std::string_view with) {
  return SecretMasker(secrets).mask(std::move(text), with);
}

}  // namespace s2a::emit
