// SARIF 2.1.0 rendering. Field names and required properties follow the
// OASIS SARIF 2.1.0 specification (sections 3.13 run, 3.27 result, 3.49
// reportingDescriptor); tests/review/sarif_test.cpp checks the structure.
#include "emit/sarif.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

#include "emit/json_writer.hpp"

namespace s2a::emit {
namespace {

/// SARIF's levels are spelled like ours (error, warning, note).
std::string_view sarif_level(Severity severity) { return severity_name(severity); }

/// Columns in Unicode code points (run.columnKind): UTF-8 continuation
/// bytes do not start a character.
uint32_t code_point_column(const SourceFile& file, uint32_t offset) {
  const LineCol lc = file.line_col(offset);
  const Span line = file.line_span(lc.line);
  const std::string_view text = file.text();
  uint32_t column = 1;
  for (uint32_t i = line.begin; i < std::min(offset, static_cast<uint32_t>(text.size())); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
  }
  return column;
}

std::string hex64(uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

/// FNV-1a over the rule id and the trimmed (redacted) line text: stable
/// across runs and across edits to other lines.
uint64_t line_hash(std::string_view rule, std::string_view line) {
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
  uint64_t hash = 14695981039346656037ULL;
  const auto mix = [&hash](std::string_view bytes) {
    for (char c : bytes) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ULL;
    }
  };
  mix(rule);
  mix(std::string_view("\0", 1));
  mix(line);
  return hash;
}

void write_rule(JsonWriter& json, const CodeInfo& info, const SarifOptions& options) {
  const std::string title(info.title);
  json.begin_object();
  json.field("id", code_id(info.code));
  json.field("name", info.name);
  json.key("shortDescription").begin_object().field("text", title).end_object();
  json.key("fullDescription")
      .begin_object()
      .field("text",
             title + ". Run `slurm2air --explain " + code_id(info.code) + "` for an example.")
      .end_object();
  json.field("helpUri", options.docs_uri + "#" + diagnostics_anchor(info.code));
  json.key("defaultConfiguration")
      .begin_object()
      .field("level", sarif_level(info.severity))
      .end_object();
  json.end_object();
}

void write_region(JsonWriter& json, const SourceFile& file, Span span) {
  const LineCol start = file.line_col(span.begin);
  const LineCol end = file.line_col(std::max(span.begin, span.end));
  json.key("region").begin_object();
  json.field("startLine", start.line);
  json.field("startColumn", code_point_column(file, span.begin));
  json.field("endLine", end.line);
  json.field("endColumn", code_point_column(file, std::max(span.begin, span.end)));
  json.end_object();
}

void write_result(JsonWriter& json, const SarifFile& file, const Diagnostic& d,
                  const std::string& fingerprint, bool suppressed) {
  const CodeInfo& info = code_info(d.code);
  json.begin_object();
  json.field("ruleId", code_id(d.code));
  json.field("ruleIndex", static_cast<uint64_t>(&info - all_codes().data()));
  json.field("level", sarif_level(info.severity));
  json.key("message").begin_object().field("text", d.message).end_object();
  json.key("locations").begin_array().begin_object();
  json.key("physicalLocation").begin_object();
  json.key("artifactLocation").begin_object();
  json.field("uri", path_to_uri(file.path));
  if (file.path.empty() || file.path.front() != '/') json.field("uriBaseId", "%SRCROOT%");
  json.end_object();
  // An empty span at offset 0 means the whole file: no region.
  if (!(d.span.begin == 0 && d.span.end == 0)) write_region(json, file.report.file, d.span);
  json.end_object();
  json.end_object().end_array();
  json.key("partialFingerprints")
      .begin_object()
      .field("primaryLocationLineHash", fingerprint)
      .end_object();
  if (suppressed) {
    json.key("suppressions").begin_array().begin_object();
    json.field("kind", "inSource");
    json.end_object().end_array();
  }
  if (!d.hint.empty()) json.key("properties").begin_object().field("hint", d.hint).end_object();
  json.end_object();
}

void write_results(JsonWriter& json, const SarifFile& file) {
  std::map<std::string, int> occurrences;  // same hash twice in a file: :1, :2, ...
  const auto write_all = [&](const Diagnostics& diagnostics, bool suppressed) {
    for (const Diagnostic& d : diagnostics) {
      const uint32_t line = file.report.file.line_col(d.span.begin).line;
      const std::string hash = hex64(line_hash(code_id(d.code), redacted_line(file.report, line)));
      const std::string fingerprint = hash + ":" + std::to_string(++occurrences[hash]);
      write_result(json, file, d, fingerprint, suppressed);
    }
  };
  write_all(file.report.diagnostics, false);
  if (file.report.suppressed) write_all(*file.report.suppressed, true);
}

}  // namespace

std::string diagnostics_anchor(Code code) {
  // Heading: "### S2A3006 `gpu_model_assumed` (note)". GitHub lower-cases,
  // drops punctuation other than '-' and '_', and turns spaces into '-'.
  const CodeInfo& info = code_info(code);
  std::string anchor = "s2a" + std::to_string(info.number) + "-" + std::string(info.name) + "-" +
                       std::string(severity_name(info.severity));
  return anchor;
}

std::string path_to_uri(const std::string& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = !path.empty() && path.front() == '/' ? "file://" : "";
  for (char c : path) {
    const auto u = static_cast<unsigned char>(c);
    const bool unreserved =
        std::isalnum(u) != 0 || c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (unreserved) {
      out.push_back(c);
    } else {
      out.push_back('%');
      out.push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 0xF]);
    }
  }
  return out;
}

std::string render_sarif(std::span<const SarifFile> files, const SarifOptions& options) {
  JsonWriter json;
  json.begin_object();
  json.field("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  json.field("version", "2.1.0");
  json.key("runs").begin_array().begin_object();
  json.key("tool").begin_object().key("driver").begin_object();
  json.field("name", "slurm2air");
  json.field("version", SLURM2AIR_VERSION);
  json.field("semanticVersion", SLURM2AIR_VERSION);
  json.key("rules").begin_array();
  for (const CodeInfo& info : all_codes()) write_rule(json, info, options);
  json.end_array();
  json.end_object().end_object();
  json.field("columnKind", "unicodeCodePoints");
  json.key("results").begin_array();
  for (const SarifFile& file : files) write_results(json, file);
  json.end_array();
  json.end_object().end_array();
  json.end_object();
  return std::move(json).str();
}

}  // namespace s2a::emit
