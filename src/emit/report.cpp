#include "emit/report.hpp"

#include <algorithm>
#include <charconv>

#include "emit/json_writer.hpp"

namespace s2a::emit {
namespace {

struct Region {
  LineCol start;
  LineCol end;
};

Region region_of(const SourceFile& file, Span span) {
  return {file.line_col(span.begin), file.line_col(std::max(span.begin, span.end))};
}

/// Appends `text` with control bytes shown as '?', so a report never carries
/// terminal escapes from the script.
void append_printable(std::string& out, std::string_view text) {
  const size_t from = out.size();
  out += text;
  for (size_t i = from; i < out.size(); ++i) {
    const auto u = static_cast<unsigned char>(out[i]);
    if ((u < 0x20 && out[i] != '\t') || u == 0x7F) out[i] = '?';
  }
}

void append_number(std::string& out, uint32_t number) {
  char digits[16];
  const auto [end, error] = std::to_chars(digits, digits + sizeof digits, number);
  out.append(digits, end);
}

void append_caret_line(std::string& out, std::string_view line, uint32_t from_col,
                       uint32_t to_col) {
  for (uint32_t col = 1; col < from_col && col <= line.size(); ++col) {
    out.push_back(line[col - 1] == '\t' ? '\t' : ' ');
  }
  out.push_back('^');
  for (uint32_t col = from_col + 1; col < to_col && col <= line.size(); ++col) out.push_back('~');
}

// Reports are built by appending: one is written per script of a batch, and
// the temporaries of `a + b + c` were a tenth of a batch re-run.
void append_gcc_line(std::string& out, const ReportInput& input, const Diagnostic& d,
                     const Region& r) {
  append_printable(out, input.file.name());
  out += ':';
  append_number(out, r.start.line);
  out += ':';
  append_number(out, r.start.col);
  out += ": ";
  out += severity_name(d.severity());
  out += ": ";
  append_printable(out, d.message);
  out += " [";
  out += code_id(d.code);
  out += "]\n";
}

}  // namespace

std::string redacted_line(const ReportInput& input, uint32_t line) {
  const Span line_span = input.file.line_span(line);
  std::string text(input.file.slice(line_span));
  for (Span secret : input.redactions) {
    const uint32_t begin = std::max(secret.begin, line_span.begin);
    const uint32_t end = std::min(secret.end, line_span.end);
    for (uint32_t i = begin; i < end; ++i) text[i - line_span.begin] = '*';
  }
  std::string out;
  append_printable(out, text);
  return out;
}

std::string render_gcc(const ReportInput& input) {
  std::string out;
  for (const Diagnostic& d : input.diagnostics) {
    append_gcc_line(out, input, d, region_of(input.file, d.span));
  }
  return out;
}

std::string render_text(const ReportInput& input) {
  std::string out;
  for (const Diagnostic& d : input.diagnostics) {
    const Region r = region_of(input.file, d.span);
    append_gcc_line(out, input, d, r);
    const std::string line = redacted_line(input, r.start.line);
    if (!line.empty()) {
      const size_t gutter = out.size();
      out += ' ';
      append_number(out, r.start.line);
      const size_t number_width = out.size() - gutter - 1;
      out += " | ";
      out += line;
      out += '\n';
      out += ' ';
      out.append(number_width, ' ');
      out += " | ";
      const uint32_t to_col =
          r.end.line == r.start.line ? r.end.col : static_cast<uint32_t>(line.size() + 1);
      append_caret_line(out, line, r.start.col, to_col);
      out += '\n';
    }
    if (!d.hint.empty()) {
      out += "  hint: ";
      append_printable(out, d.hint);
      out += '\n';
    }
  }
  return out;
}

std::string render_json(const ReportInput& input, int exit_code) {
  size_t counts[3] = {0, 0, 0};
  for (const Diagnostic& d : input.diagnostics) ++counts[static_cast<size_t>(d.severity())];
  JsonWriter json;
  json.begin_object();
  json.field("schema", "slurm2air.report/1");
  json.field("file", input.file.name());
  json.field("exit_code", exit_code);
  json.key("summary").begin_object();
  json.field("errors", static_cast<uint64_t>(counts[0]));
  json.field("warnings", static_cast<uint64_t>(counts[1]));
  json.field("notes", static_cast<uint64_t>(counts[2]));
  json.field("suppressed", static_cast<uint64_t>(input.suppressed ? input.suppressed->size() : 0));
  json.end_object();
  json.key("diagnostics").begin_array();
  for (const Diagnostic& d : input.diagnostics) {
    const Region r = region_of(input.file, d.span);
    json.begin_object();
    json.field("code", code_id(d.code));
    json.field("rule", code_info(d.code).name);
    json.field("severity", severity_name(d.severity()));
    json.field("line", r.start.line);
    json.field("column", r.start.col);
    json.field("end_line", r.end.line);
    json.field("end_column", r.end.col);
    json.field("message", d.message);
    json.field("hint", d.hint);
    json.field("source", redacted_line(input, r.start.line));
    json.end_object();
  }
  json.end_array();
  json.end_object();
  return std::move(json).str();
}

}  // namespace s2a::emit
