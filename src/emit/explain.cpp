// Line-by-line explanation of a translation.
//
// Facts come from the Translation only: directive statuses, the workload's
// provenance spans, the log of command edits and the diagnostics; this file
// decides nothing, it lines those facts up with the source lines. Secret
// values are masked exactly as in reports.
#include "emit/explain.hpp"

#include <algorithm>

#include "emit/report.hpp"

namespace s2a::emit {
namespace {

using Kind = LineFate::Kind;

bool overlaps(Span a, Span b) {
  if (a.empty() || b.empty()) return false;
  return a.begin < b.end && b.begin < a.end;
}

void raise(LineFate& fate, Kind kind) {
  if (static_cast<int>(kind) > static_cast<int>(fate.kind)) fate.kind = kind;
}

/// The workload fields an option's text fed.
std::vector<std::string> fields_from(const air::Workload& w, Span span) {
  std::vector<std::string> fields;
  if (overlaps(w.experiment_name_from, span)) fields.push_back("experiment_name");
  for (Span from : w.compute.from) {
    if (overlaps(from, span)) {
      fields.push_back("compute (" + std::to_string(w.compute.num_accelerators) + " x " +
                       w.compute.accelerator_type + ")");
      break;
    }
  }
  if (overlaps(w.timeout_from, span)) {
    fields.push_back("timeout_minutes: " + std::to_string(w.timeout_minutes.value_or(0)));
  }
  if (overlaps(w.max_retries_from, span)) {
    fields.push_back("max_retries: " + std::to_string(w.max_retries));
  }
  for (const air::NamedValue& v : w.env_variables) {
    if (overlaps(v.from, span)) fields.push_back("env_variables." + v.name);
  }
  for (const air::NamedValue& v : w.secrets) {
    if (overlaps(v.from, span)) fields.push_back("secrets." + v.name);
  }
  return fields;
}

/// Source text with secret bytes masked and control bytes made visible.
uint32_t line_of_offset(const Translation& t, uint32_t offset) {
  return t.file->line_col(offset).line;
}

std::string shown(const Translation& t, Span span) {
  std::string text(t.file->slice(span));
  for (Span secret : t.redactions) {
    for (uint32_t i = std::max(secret.begin, span.begin); i < std::min(secret.end, span.end); ++i) {
      text[i - span.begin] = '*';
    }
  }
  for (char& c : text) {
    if (c == '\n') {
      c = ' ';
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      c = '?';
    }
  }
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

void explain_directive(const Translation& t, const DirectiveOutcome& outcome, LineFate& fate) {
  const directives::Option& option = *outcome.option;
  std::string phrase = "--" + std::string(option.name()) + ": ";
  if (option.overridden) {
    fate.phrases.push_back(phrase + "dropped, a later occurrence wins");
    raise(fate, Kind::dropped);
    return;
  }
  const std::vector<std::string> fields =
      t.workload ? fields_from(*t.workload, option.span) : std::vector<std::string>{};
  std::string into;
  for (const std::string& field : fields) into += (into.empty() ? "" : ", ") + field;
  switch (outcome.status) {
    case DirectiveStatus::mapped:
      phrase += into.empty() ? "mapped" : "mapped to " + into;
      raise(fate, Kind::mapped);
      break;
    case DirectiveStatus::approximated:
      phrase += into.empty() ? "approximated" : "approximated by " + into;
      raise(fate, Kind::changed);
      break;
    case DirectiveStatus::reported:
      phrase += "not carried over (reported)";
      raise(fate, Kind::dropped);
      break;
    case DirectiveStatus::no_effect:
      phrase += "dropped, no effect on the run";
      raise(fate, Kind::dropped);
      break;
  }
  fate.phrases.push_back(phrase);
}

/// A replacement as one short line.
std::string one_line(std::string text) {
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  }
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

void explain_edit(const Translation& t, const air::LoggedEdit& edit, LineFate& fate) {
  const uint32_t first = t.file->line_col(edit.span.begin).line;
  const uint32_t last = t.file->line_col(edit.span.end > 0 ? edit.span.end - 1 : 0).line;
  std::string phrase;
  if (last > first) {
    // A rewrite of several lines: its inner lines say what became of them.
    phrase = "lines " + std::to_string(first) + "-" + std::to_string(last) + " rewritten";
  } else if (edit.replacement.empty()) {
    phrase = "removed `" + shown(t, edit.span) + "`";
  } else if (edit.span.empty()) {
    phrase = "inserted `" + one_line(edit.replacement) + "`";
  } else {
    phrase = "`" + shown(t, edit.span) + "` -> `" + one_line(edit.replacement) + "`";
  }
  if (!edit.reason.empty()) phrase += ": " + edit.reason;
  fate.phrases.push_back(phrase);
  raise(fate, Kind::changed);
}

/// Inside a multi-line rewrite, a line whose text survives in the
/// replacement was kept; otherwise the rewrite dropped it.
std::string fate_inside_rewrite(const Translation& t, Span line) {
  for (const air::LoggedEdit& edit : t.edits) {
    if (!(edit.span.begin < line.begin && line.begin < edit.span.end)) continue;
    std::string_view text = t.file->slice(line);
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    if (edit.replacement.find(text) != std::string::npos) return "kept in command";
    return "dropped by the rewrite of lines " + std::to_string(line_of_offset(t, edit.span.begin)) +
           "-" + std::to_string(line_of_offset(t, edit.span.end - 1));
  }
  return "kept in command";
}

bool line_in(const std::vector<Span>& lines, Span line) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](Span s) { return s.begin <= line.begin && line.begin < s.end + 1; });
}

/// Lines shown: a final newline does not start another line.
uint32_t shown_lines(const Translation& t) {
  const uint32_t count = t.file->line_count();
  const bool trailing = !t.file->text().empty() && t.file->text().back() == '\n';
  return std::max<uint32_t>(trailing ? count - 1 : count, 1);
}

/// 1-based line of an offset, clamped to the lines shown.
uint32_t line_of(const Translation& t, uint32_t offset) {
  return std::clamp<uint32_t>(t.file->line_col(offset).line, 1, shown_lines(t));
}

}  // namespace

std::vector<LineFate> explain_lines(const Translation& t) {
  const uint32_t count = shown_lines(t);
  std::vector<LineFate> fates(count);
  for (const DirectiveOutcome& outcome : t.directives) {
    explain_directive(t, outcome, fates[line_of(t, outcome.option->span.begin) - 1]);
  }
  for (const air::LoggedEdit& edit : t.edits)
    explain_edit(t, edit, fates[line_of(t, edit.span.begin) - 1]);
  for (uint32_t line = 1; line <= count; ++line) {
    LineFate& fate = fates[line - 1];
    const Span span = t.file->line_span(line);
    const std::string_view text = t.file->slice(span);
    const bool blank = text.find_first_not_of(" \t\r") == std::string_view::npos;
    if (line == 1 && text.substr(0, 2) == "#!") {
      fate.phrases.insert(fate.phrases.begin(),
                          "interpreter line: dropped (AI Runtime runs the "
                          "command with bash)");
      raise(fate, Kind::dropped);
    } else if (line_in(t.scan.ignored_directive_lines, span)) {
      fate.phrases.push_back("ignored: sbatch stops reading directives at the first command");
      raise(fate, Kind::dropped);
    } else if (span.begin < t.scan.body_offset && !line_in(t.scan.directive_lines, span) &&
               !blank) {
      fate.phrases.push_back("comment before the body: not carried over");
    } else if (span.begin >= t.scan.body_offset && !blank && fate.phrases.empty()) {
      fate.phrases.push_back(t.workload ? fate_inside_rewrite(t, span) : "not converted");
      raise(fate, t.workload ? Kind::mapped : Kind::problem);
    }
    if (t.workload && span.begin >= t.scan.body_offset) {
      for (const air::NamedValue& v : t.workload->env_variables) {
        if (overlaps(v.from, span)) fate.phrases.push_back("moved to env_variables." + v.name);
      }
      for (const air::NamedValue& v : t.workload->secrets) {
        if (overlaps(v.from, span)) fate.phrases.push_back("moved to secrets." + v.name);
      }
    }
  }
  for (const Diagnostic& d : t.diagnostics) {
    LineFate& fate = fates[line_of(t, d.span.begin) - 1];
    fate.phrases.push_back(code_id(d.code) + " " + std::string(severity_name(d.severity())) + ": " +
                           d.message);
    if (d.severity() != Severity::note) raise(fate, Kind::problem);
  }
  return fates;
}

namespace {

/// Width in terminal cells, approximated by code points.
size_t display_width(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

/// Splits at `width` code points without cutting a UTF-8 sequence.
std::vector<std::string> wrap_hard(std::string_view text, size_t width) {
  std::vector<std::string> rows;
  std::string row;
  size_t cells = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool starts_char = (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    if (starts_char && cells == width) {
      rows.push_back(std::move(row));
      row.clear();
      cells = 0;
    }
    row.push_back(text[i]);
    if (starts_char) ++cells;
  }
  rows.push_back(std::move(row));
  return rows;
}

/// Word wrap; words longer than the width are cut.
std::vector<std::string> wrap_words(const std::string& text, size_t width) {
  std::vector<std::string> rows;
  std::string row;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    start = end + 1;
    const size_t needed = display_width(row) + (row.empty() ? 0 : 1) + display_width(word);
    if (!row.empty() && needed > width) {
      rows.push_back(std::move(row));
      row.clear();
    }
    if (display_width(word) > width) {
      for (std::string& piece : wrap_hard(word, width)) {
        if (!row.empty()) rows.push_back(std::move(row));
        row = std::move(piece);
      }
      continue;
    }
    row += (row.empty() ? "" : " ") + word;
  }
  if (!row.empty() || rows.empty()) rows.push_back(row);
  return rows;
}

std::string pad(const std::string& text, size_t width) {
  const size_t used = display_width(text);
  return used >= width ? text : text + std::string(width - used, ' ');
}

std::string_view color_of(Kind kind) {
  switch (kind) {
    case Kind::plain:
      return "";
    case Kind::mapped:
      return "\x1b[32m";
    case Kind::changed:
      return "\x1b[33m";
    case Kind::dropped:
      return "\x1b[2m";
    case Kind::problem:
      return "\x1b[31m";
  }
  return "";
}

std::string shown_name(const Translation& t) {
  std::string name = t.file->name();
  for (char& c : name) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
  }
  return name;
}

std::string expand_tabs(std::string text) {
  std::string out;
  for (char c : text) out += c == '\t' ? std::string("    ") : std::string(1, c);
  return out;
}

}  // namespace

std::string render_explain(const Translation& t, const ExplainOptions& options) {
  const size_t width = std::max<size_t>(options.width, 60);
  const uint32_t count = shown_lines(t);
  const size_t gutter = std::to_string(std::max<uint32_t>(count, 1)).size();
  const std::vector<LineFate> fates = explain_lines(t);
  const ReportInput masked{*t.file, t.diagnostics, t.redactions};
  // The script column takes what its longest line needs, up to 45%.
  size_t longest = 6;
  for (uint32_t line = 1; line <= count; ++line) {
    longest = std::max(longest, display_width(expand_tabs(redacted_line(masked, line))));
  }
  const size_t room = width - gutter - 6;
  const size_t left = std::clamp<size_t>(longest, 20, room * 45 / 100);
  const size_t right = room - left;

  std::string out = "slurm2air explain: " + shown_name(t) +
                    (t.workload ? " -> train.yaml" : " (not converted)") + "\n\n";
  out += std::string(gutter, ' ') + " | " + pad("script", left) + " | what became of it\n";
  out += std::string(gutter, '-') + "-+-" + std::string(left, '-') + "-+-" +
         std::string(std::min<size_t>(right, 40), '-') + "\n";
  for (uint32_t line = 1; line <= count; ++line) {
    const LineFate& fate = fates[line - 1];
    const std::vector<std::string> source =
        wrap_hard(expand_tabs(redacted_line(masked, line)), left);
    std::vector<std::string> said;
    for (const std::string& phrase : fate.phrases) {
      for (std::string& row : wrap_words(phrase, right)) said.push_back(std::move(row));
      // Continuation rows of one phrase are indented by the wrap already.
    }
    const size_t rows = std::max(source.size(), said.size());
    for (size_t row = 0; row < rows; ++row) {
      const std::string number = row == 0 ? std::to_string(line) : "";
      out += std::string(gutter - number.size(), ' ') + number + " | ";
      const std::string text = row < source.size() ? source[row] : "";
      const std::string fate_text = row < said.size() ? said[row] : "";
      out += pad(text, left) + (fate_text.empty() ? " |" : " | ");
      if (options.color && !color_of(fate.kind).empty() && !fate_text.empty()) {
        out += std::string(color_of(fate.kind)) + fate_text + "\x1b[0m";
      } else {
        out += fate_text;
      }
      out += "\n";
    }
  }
  if (t.workload) {
    out += "\nThe translation (train.yaml):\n\n" + t.yaml;
  } else {
    out += "\nNo translation: the script has errors (run `slurm2air` on it for the report).\n";
  }
  if (!t.suppressed.empty()) {
    out += "\n" + std::to_string(t.suppressed.size()) + " diagnostic(s) suppressed by comments.\n";
  }
  return out;
}

}  // namespace s2a::emit
