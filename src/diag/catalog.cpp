#include "diag/catalog.hpp"

#include <algorithm>

#include "diag/diagnostic.hpp"

namespace s2a {
namespace {

std::string_view band_title(uint16_t number) {
  if (number < 1100) return "Input file (S2A10xx)";
  if (number < 2000) return "Shell parse (S2A11xx)";
  if (number < 2100) return "Directive syntax (S2A20xx)";
  if (number < 3000) return "Directive values and semantics (S2A21xx)";
  if (number < 4000) return "Mapping to AI Runtime (S2A3xxx)";
  if (number < 5000) return "Launchers and where commands run (S2A4xxx)";
  if (number < 6000) return "Environment, containers and secrets (S2A5xxx)";
  if (number < 7000) return "Workflows and bundles (S2A6xxx)";
  return "Batch conversion and review (S2A7xxx)";
}

void append_example(std::string& out, const char* label, std::string_view script) {
  if (script.empty()) return;
  out += label;
  out += "\n\n```bash\n";
  // Long examples (a 1,000-line command) show their first lines only.
  constexpr size_t kShownLines = 12;
  size_t at = 0;
  size_t lines = 0;
  while (at < script.size() && lines < kShownLines) {
    at = std::min(script.find('\n', at), script.size()) + 1;
    ++lines;
  }
  // Control bytes (the nul_byte example) are shown escaped: docs stay text.
  for (char c : script.substr(0, std::min(at, script.size()))) {
    const auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7F) {
      out += "\\x" + std::string(1, "0123456789abcdef"[u >> 4]) + "0123456789abcdef"[u & 15];
    } else {
      out.push_back(c);
    }
  }
  if (out.back() != '\n') out += "\n";
  if (at < script.size()) {
    out += "# ... " + std::to_string(std::count(script.begin(), script.end(), '\n') - lines) +
           " more lines\n";
  }
  out += "```\n\n";
}

}  // namespace

std::string diagnostics_markdown() {
  std::string out =
      "# Diagnostics\n\n"
      "<!-- Generated from src/diag/codes*.def by `slurm2air --diagnostics-markdown`; "
      "do not edit by hand. -->\n\n"
      "Every construct slurm2air does not carry over exactly is reported with one of these "
      "codes. Codes are stable: a published number never changes meaning. "
      "`slurm2air --explain S2Axxxx` prints one entry.\n";
  std::string_view current_band;
  for (const CodeInfo& info : all_codes()) {
    if (band_title(info.number) != current_band) {
      current_band = band_title(info.number);
      out += "\n## " + std::string(current_band) + "\n";
    }
    out += "\n### " + code_id(info.code) + " `" + std::string(info.name) + "` (" +
           std::string(severity_name(info.severity)) + ")\n\n" + std::string(info.title) + ".\n\n";
    append_example(out, "Reported for:", info.positive);
    append_example(out, "Not reported for:", info.negative);
  }
  return out;
}

}  // namespace s2a
