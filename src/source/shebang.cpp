#include "source/shebang.hpp"

namespace s2a {
namespace {

std::string_view next_word(std::string_view& rest) {
  const size_t begin = rest.find_first_not_of(" \t");
  if (begin == std::string_view::npos) {
    rest = {};
    return {};
  }
  rest.remove_prefix(begin);
  const size_t end = std::min(rest.find_first_of(" \t"), rest.size());
  const std::string_view word = rest.substr(0, end);
  rest.remove_prefix(end);
  return word;
}

std::string_view basename(std::string_view path) {
  const size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string_view trimmed(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end + 1 - begin);
}

}  // namespace

std::optional<Shebang> read_shebang(std::string_view text) {
  if (!text.starts_with("#!")) return std::nullopt;
  const size_t newline = text.find('\n');
  const std::string_view line = text.substr(0, newline);
  std::string_view rest = line.substr(2);
  // A CRLF script's `#!/bin/bash\r` (sbatch refuses it; S2A1005 says why).
  if (rest.ends_with('\r')) rest.remove_suffix(1);
  std::string_view program = basename(next_word(rest));
  if (program == "env") {
    program = basename(next_word(rest));
    if (program == "-S") program = basename(next_word(rest));  // env -S "bash -l"
  }
  return Shebang{program, trimmed(rest), {0, static_cast<uint32_t>(line.size())}};
}

bool is_bash_or_sh(std::string_view program) {
  return program.starts_with("bash") || program == "sh" || program == "dash";
}

std::string set_options_of(const Shebang& shebang) {
  if (!is_bash_or_sh(shebang.program)) return {};
  const std::string_view argument = shebang.argument;
  // The kernel passes everything after the program as one argument, so only
  // a single `-letters` word is an option list bash reads.
  if (argument.size() < 2 || argument[0] != '-' || argument[1] == '-' ||
      argument.find_first_of(" \t") != std::string_view::npos) {
    return {};
  }
  constexpr std::string_view kSetLetters = "aefhkmnptuvxBCEHPT";
  std::string letters;
  for (char c : argument.substr(1)) {
    if (kSetLetters.find(c) != std::string_view::npos) letters.push_back(c);
  }
  return letters;
}

}  // namespace s2a
