// Suppression comments: finding them in a script and filtering diagnostics.
//
// A comment is recognised where bash would start one: a `#` at the start of a
// line or after a blank. That keeps `echo "x#slurm2air: disable=..."` from
// counting, and lets a #SBATCH line carry a trailing suppression (sbatch's
// own tokenizer stops at an unquoted `#`).
#include "diag/suppress.hpp"

#include <algorithm>
#include <cctype>

namespace s2a {
namespace {

constexpr std::string_view kMarker = "slurm2air:";

/// Whether `text` holds the marker. A string search runs memchr on the first
/// byte, and `s` is everywhere in a script: searching from the `2` calls it
/// about a tenth as often (every script is searched once).
bool has_marker(std::string_view text) {
  constexpr size_t kTwo = kMarker.find('2');
  constexpr std::string_view kFromTwo = kMarker.substr(kTwo);
  for (size_t at = text.find(kFromTwo); at != std::string_view::npos;
       at = text.find(kFromTwo, at + 1)) {
    if (at >= kTwo && text.substr(at - kTwo, kMarker.size()) == kMarker) return true;
  }
  return false;
}

bool is_blank(char c) { return c == ' ' || c == '\t'; }

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

struct Directive {
  bool file_wide = false;
  size_t list_begin = 0;  // offset of the code list in the line
  std::string_view list;
};

/// The suppression in a comment starting at `hash`, if that comment is one.
std::optional<Directive> parse_comment(std::string_view line, size_t hash) {
  size_t i = hash + 1;
  while (i < line.size() && is_blank(line[i])) ++i;
  if (line.substr(i, kMarker.size()) != kMarker) return std::nullopt;
  i += kMarker.size();
  while (i < line.size() && is_blank(line[i])) ++i;
  Directive directive;
  for (std::string_view keyword : {"disable-file=", "disable="}) {
    if (line.substr(i, keyword.size()) == keyword) {
      directive.file_wide = keyword == "disable-file=";
      i += keyword.size();
      size_t end = i;
      // Codes are separated by commas, optionally followed by blanks.
      while (end < line.size()) {
        if (is_blank(line[end])) {
          if (end > i && line[end - 1] == ',') {
            ++end;
            continue;
          }
          break;
        }
        ++end;
      }
      directive.list_begin = i;
      directive.list = line.substr(i, end - i);
      return directive;
    }
  }
  return std::nullopt;
}

void add_codes(const Directive& directive, uint32_t line_number, bool comment_only,
               uint32_t line_offset, Suppressions& out) {
  size_t pos = 0;
  while (pos <= directive.list.size()) {
    size_t comma = directive.list.find(',', pos);
    if (comma == std::string_view::npos) comma = directive.list.size();
    std::string_view word = directive.list.substr(pos, comma - pos);
    const size_t word_offset = directive.list_begin + pos;
    while (!word.empty() && is_blank(word.front())) word.remove_prefix(1);
    const uint32_t begin = line_offset + static_cast<uint32_t>(word_offset);
    const Span span{begin, begin + static_cast<uint32_t>(word.size())};
    pos = comma + 1;
    if (word.empty()) continue;
    const std::optional<Code> code = find_code(word);
    if (!code) {
      out.problems.push_back({Code::suppression_unknown_code, span,
                              "the suppression names no known diagnostic code",
                              "use a code such as S2A3101 or a rule name such as "
                              "directive_not_mapped (see docs/diagnostics.md)"});
      continue;
    }
    if (code_info(*code).severity == Severity::error) {
      out.problems.push_back({Code::suppression_of_error, span,
                              code_id(*code) + " is an error and is never suppressed",
                              "fix the script instead; a script with errors is not translated"});
      continue;
    }
    if (directive.file_wide) {
      out.file_wide.push_back(*code);
    } else {
      out.lines.push_back({line_number, *code});
      // A comment alone on its line speaks about the next line.
      if (comment_only) out.lines.push_back({line_number + 1, *code});
    }
  }
}

bool is_whole_file(Span span) { return span.begin == 0 && span.end == 0; }

}  // namespace

std::optional<Code> find_code(std::string_view id_or_name) {
  for (const CodeInfo& info : all_codes()) {
    if (info.name == id_or_name || iequals(code_id(info.code), id_or_name)) return info.code;
  }
  return std::nullopt;
}

Suppressions find_suppressions(const SourceFile& file) {
  Suppressions out;
  // Few scripts have a suppression: one search of the text spares the rest a
  // look at every line.
  if (!has_marker(file.text())) return out;
  for (uint32_t line = 1; line <= file.line_count(); ++line) {
    const std::string_view text = file.line_text(line);
    if (!has_marker(text)) continue;  // fast path
    for (size_t hash = text.find('#'); hash != std::string_view::npos;
         hash = text.find('#', hash + 1)) {
      if (hash > 0 && !is_blank(text[hash - 1])) continue;
      const std::optional<Directive> directive = parse_comment(text, hash);
      if (!directive) continue;
      const bool comment_only =
          std::all_of(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(hash), is_blank);
      add_codes(*directive, line, comment_only, file.line_span(line).begin, out);
      break;  // the rest of the line is this comment
    }
  }
  return out;
}

Diagnostics apply_suppressions(const SourceFile& file, std::span<const Code> site_wide,
                               Diagnostics& diagnostics) {
  Suppressions found = find_suppressions(file);
  const auto named = [](std::span<const Code> codes, Code code) {
    return std::find(codes.begin(), codes.end(), code) != codes.end();
  };
  const auto suppressed = [&](const Diagnostic& d) {
    if (d.severity() == Severity::error) return false;
    if (named(site_wide, d.code) || named(found.file_wide, d.code)) return true;
    if (is_whole_file(d.span) || found.lines.empty()) return false;
    const uint32_t line = file.line_col(d.span.begin).line;
    return std::any_of(found.lines.begin(), found.lines.end(), [&](const LineSuppression& s) {
      return s.line == line && s.code == d.code;
    });
  };
  const auto by_position = [](const Diagnostic& a, const Diagnostic& b) {
    return a.span.begin < b.span.begin;
  };
  if (site_wide.empty() && found.file_wide.empty() && found.lines.empty() &&
      found.problems.empty()) {
    // Nothing can be suppressed (the usual case): no copy of the list.
    if (!std::is_sorted(diagnostics.begin(), diagnostics.end(), by_position)) {
      std::stable_sort(diagnostics.begin(), diagnostics.end(), by_position);
    }
    return {};
  }
  Diagnostics kept;
  Diagnostics removed;
  for (Diagnostic& d : diagnostics) (suppressed(d) ? removed : kept).push_back(std::move(d));
  for (Diagnostic& problem : found.problems) kept.push_back(std::move(problem));
  std::stable_sort(kept.begin(), kept.end(), by_position);
  diagnostics = std::move(kept);
  return removed;
}

}  // namespace s2a
