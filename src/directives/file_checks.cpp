// Whole-file checks that sbatch's _get_script_buffer() makes before reading
// any directive: empty, no `#!` first, NUL bytes, DOS line breaks. We add a
// UTF-8 check (Slurm does not care, the YAML we emit does) and say precisely
// why a file fails the `#!` test (BOM, leading blank line).
#include "directives/file_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "directives/text_util.hpp"
#include "source/shebang.hpp"
#include "source/utf8.hpp"

namespace s2a::directives::detail {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

Span first_line(std::string_view text) {
  const size_t end = text.find('\n');
  return {0, static_cast<uint32_t>(end == std::string_view::npos ? text.size() : end)};
}

bool only_whitespace(std::string_view text) {
  for (char c : text) {
    if (!is_space(c)) return false;
  }
  return true;
}

void check_shebang(std::string_view text, Diagnostics& out) {
  if (text.starts_with("#!")) return;
  if (text.starts_with(kBom)) {
    out.push_back({Code::byte_order_mark,
                   {0, 3},
                   "the script starts with a UTF-8 byte order mark, so its first two bytes are "
                   "not `#!` and sbatch refuses it (\"This does not look like a batch script\")",
                   "save the file as UTF-8 without a BOM"});
    return;
  }
  size_t first = 0;
  while (first < text.size() && is_space(text[first])) ++first;
  if (text.substr(first).starts_with("#!")) {
    const bool blank_line = text.substr(0, first).find('\n') != std::string_view::npos;
    out.push_back({Code::missing_shebang,
                   {0, static_cast<uint32_t>(first + 2)},
                   blank_line ? "the `#!` line must be the first line, but the script starts "
                                "with a blank line, so sbatch refuses it"
                              : "the `#!` must be the first two bytes, but the script starts "
                                "with whitespace, so sbatch refuses it",
                   "remove everything before `#!`"});
    return;
  }
  out.push_back({Code::missing_shebang, first_line(text),
                 "the script does not start with `#!`, so sbatch refuses it (\"This does not "
                 "look like a batch script\")",
                 "add an interpreter line such as `#!/bin/bash` as the very first line"});
}

/// sbatch runs the script with its `#!` program; AI Runtime runs command.sh
/// with bash. zsh and ksh read most of a job script the same way, with
/// differences that change values (arrays from 1, `$var` not split); csh and
/// non-shells do not read it at all.
void check_interpreter(std::string_view text, Diagnostics& out) {
  const std::optional<Shebang> shebang = read_shebang(text);
  if (!shebang || is_bash_or_sh(shebang->program)) return;
  if (shebang->program.empty()) {
    out.push_back({Code::interpreter_unknown, shebang->line,
                   "the #! line names no program, so the kernel cannot start the script and the "
                   "job fails as it starts",
                   "write `#!/bin/bash` as the first line"});
    return;
  }
  const std::string program(shebang->program);
  auto named = [&](std::initializer_list<std::string_view> names) {
    return std::any_of(names.begin(), names.end(),
                       [&](std::string_view name) { return program.starts_with(name); });
  };
  if (named({"zsh", "ksh", "mksh", "pdksh", "yash"})) {
    out.push_back(
        {Code::interpreter_not_bash, shebang->line,
         "sbatch runs the script with " + program +
             " (its #! line); AI Runtime runs the command with bash, which reads some " + program +
             " syntax differently" +
             (program.starts_with("zsh") ? " (arrays count from 1, `$var` is not split into words, "
                                           "`$arr[1]` indexes)"
                                         : ""),
         "check the translated command under bash and rewrite the lines that are " + program +
             "'s own"});
    return;
  }
  if (named({"csh", "tcsh", "fish", "python", "perl", "ruby", "Rscript", "R", "node", "julia",
             "lua", "php", "awk"})) {
    out.push_back({Code::interpreter_not_a_shell, shebang->line,
                   "sbatch runs the script with " + program +
                       " (its #! line), but AI Runtime runs the command with bash, which cannot "
                       "read " +
                       program + " code",
                   "keep the script as a file under the code root and make the command run it "
                   "(`" +
                       program + " job_script`), with the resources from its #SBATCH lines"});
    return;
  }
  // A typo (`#!/bin/basH`), a directory (`#!/usr/bin bash`), nix-shell, rc:
  // the translation reads the body as bash, which it may not be.
  out.push_back({Code::interpreter_unknown, shebang->line,
                 "sbatch runs the script with `" + program +
                     "` (its #! line), which slurm2air does not know as a shell; AI Runtime runs "
                     "the command with bash",
                 "if the script is a bash script, write `#!/bin/bash`; if not, keep it as a file "
                 "under the code root and make the command run it"});
}

void check_nul(std::string_view text, Diagnostics& out) {
  const size_t at = text.find('\0');
  if (at == std::string_view::npos) return;
  out.push_back({Code::nul_byte,
                 {static_cast<uint32_t>(at), static_cast<uint32_t>(at + 1)},
                 "the script contains a NUL byte, which the Slurm controller refuses",
                 "remove the NUL byte; the file may be binary or saved as UTF-16"});
}

}  // namespace

std::optional<Diagnostic> crlf_line_endings(std::string_view text) {
  const size_t at = text.find("\r\n");
  if (at == std::string_view::npos) return std::nullopt;
  size_t count = 0;
  for (size_t pos = at; pos != std::string_view::npos; pos = text.find("\r\n", pos + 2)) ++count;
  uint32_t begin = 0;
  if (const size_t newline = at == 0 ? std::string_view::npos : text.rfind('\n', at - 1);
      newline != std::string_view::npos) {
    begin = static_cast<uint32_t>(newline + 1);
  }
  // The line without its CR: the same span in the text with the CRs removed.
  return Diagnostic{Code::crlf_line_endings,
                    {begin, static_cast<uint32_t>(at)},
                    std::to_string(count) + (count == 1 ? " line ends" : " lines end") +
                        " with CRLF (DOS line breaks), which sbatch refuses",
                    "convert the file to Unix line endings, e.g. with `dos2unix`"};
}

namespace {

void check_utf8(std::string_view text, Diagnostics& out) {
  for (size_t i = next_non_ascii(text, 0); i < text.size(); i = next_non_ascii(text, i)) {
    const size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out.push_back({Code::invalid_utf8,
                     {static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1)},
                     "the script is not valid UTF-8 (Slurm does not mind, but YAML must be "
                     "UTF-8: the translation shows each invalid byte as U+FFFD)",
                     "re-encode the file as UTF-8, e.g. with `iconv -f latin1 -t utf-8`"});
      return;
    }
    i += length;
  }
}

}  // namespace

Diagnostics check_whole_file(std::string_view text) {
  Diagnostics out;
  if (only_whitespace(text)) {
    out.push_back({Code::empty_script,
                   {},
                   text.empty() ? "the script is empty, so sbatch refuses it"
                                : "the script contains only whitespace, so sbatch refuses it",
                   "write the batch script, starting with `#!/bin/bash`"});
    return out;
  }
  check_shebang(text, out);
  check_interpreter(text, out);
  check_nul(text, out);
  if (std::optional<Diagnostic> crlf = crlf_line_endings(text)) out.push_back(std::move(*crlf));
  check_utf8(text, out);
  return out;
}

}  // namespace s2a::directives::detail
