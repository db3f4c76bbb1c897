#include "air/private_addresses.hpp"

#include <array>
#include <cctype>
#include <cstring>

namespace s2a::air {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// A character that may not touch an address: it would make the digits part
/// of a name, a version or a longer number.
bool joins(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
}

/// Reads one decimal part of 0-255 at text[at]; its end, or npos.
size_t read_octet(std::string_view text, size_t at, unsigned& value) {
  value = 0;
  size_t end = at;
  while (end < text.size() && is_digit(text[end]) && end - at < 3) {
    value = value * 10 + static_cast<unsigned>(text[end] - '0');
    ++end;
  }
  if (end == at || value > 255 || (end < text.size() && is_digit(text[end]))) {
    return std::string_view::npos;
  }
  return end;
}

std::string_view private_network(const std::array<unsigned, 4>& octets) {
  if (octets[0] == 10) return "10.0.0.0/8";
  if (octets[0] == 172 && octets[1] >= 16 && octets[1] <= 31) return "172.16.0.0/12";
  if (octets[0] == 192 && octets[1] == 168) return "192.168.0.0/16";
  return {};
}

/// The address that starts at text[at], when there is one: its end.
std::optional<size_t> address_at(std::string_view text, size_t at,
                                 std::array<unsigned, 4>& octets) {
  size_t end = at;
  for (size_t part = 0; part < 4; ++part) {
    if (part > 0) {
      if (end >= text.size() || text[end] != '.') return std::nullopt;
      ++end;
    }
    end = read_octet(text, end, octets[part]);
    if (end == std::string_view::npos) return std::nullopt;
  }
  if (end < text.size() && joins(text[end]) &&
      !(text[end] == '.' && (end + 1 == text.size() || !is_digit(text[end + 1])))) {
    return std::nullopt;  // 10.1.2.3.4, 10.1.2.3a; a sentence's full stop is fine
  }
  // A prefix length belongs to the address: 10.200.0.0/16.
  if (end + 1 < text.size() && text[end] == '/' && is_digit(text[end + 1])) {
    size_t prefix = end + 1;
    while (prefix < text.size() && is_digit(text[prefix])) ++prefix;
    if (prefix - end <= 3) end = prefix;
  }
  return end;
}

/// The second digit of a private network's first octet: 10, 172 or 192.
bool may_start_private_octet(char second) {
  return second == '0' || second == '7' || second == '9';
}

}  // namespace

std::optional<PrivateAddress> find_private_address(std::string_view text, size_t from) {
  // Every private address starts 10., 17x. or 19x.: look for a '1' that
  // begins a number. The byte after it rules out most '1's (`-N 1`, `12:00`)
  // before the byte before it is looked at.
  for (size_t at = from; at < text.size(); ++at) {
    const void* one = std::memchr(text.data() + at, '1', text.size() - at);
    if (one == nullptr) return std::nullopt;
    at = static_cast<size_t>(static_cast<const char*>(one) - text.data());
    if (at + 1 >= text.size() || !may_start_private_octet(text[at + 1])) continue;
    if (at > 0 && joins(text[at - 1])) continue;
    std::array<unsigned, 4> octets{};
    const std::optional<size_t> end = address_at(text, at, octets);
    if (!end) continue;
    const std::string_view network = private_network(octets);
    if (network.empty()) continue;
    return PrivateAddress{at, text.substr(at, *end - at), network};
  }
  return std::nullopt;
}

}  // namespace s2a::air
