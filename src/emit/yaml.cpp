// yaml-cpp places a comment after the scalar on the same line, so provenance
// sits at the end of the line whose value it explains.
#include "emit/yaml.hpp"

#include <yaml-cpp/yaml.h>

#include "emit/text_scan.hpp"
#include "emit/yaml_writer.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <span>

namespace s2a::emit {

namespace {

/// Every typed spelling below starts with one of these bytes: most strings
/// (paths, names) are told apart by their first byte.
constexpr std::array<bool, 256> kMayStartTyped = [] {
  std::array<bool, 256> table{};
  for (char c : std::string_view("tTfFyYnNoO~.-+0123456789")) {
    table[static_cast<unsigned char>(c)] = true;
  }
  return table;
}();

/// The bytes of a YAML 1.1 or 1.2 number after its sign, as a table: a
/// find_first_not_of over this set searched it once per byte of the value.
constexpr std::array<bool, 256> kNumberBytes = [] {
  std::array<bool, 256> table{};
  for (char c : std::string_view("0123456789._:eEoOxX+-abcdefABCDEF")) {
    table[static_cast<unsigned char>(c)] = true;
  }
  return table;
}();

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// ASCII only, inline: std::tolower is a call into the C library per byte.
char lower_ascii_byte(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

bool yaml_plain_is_typed(std::string_view value) {
  if (value.empty()) return true;
  if (!kMayStartTyped[static_cast<unsigned char>(value[0])]) return false;
  const auto spelled = [value](std::string_view lower_word) {
    return value.size() == lower_word.size() &&
           std::equal(value.begin(), value.end(), lower_word.begin(),
                      [](char a, char b) { return lower_ascii_byte(a) == b; });
  };
  for (std::string_view word : {"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~",
                                ".inf", "-.inf", "+.inf", ".nan"}) {
    if (spelled(word)) return true;
  }
  // Numbers in any YAML 1.1 or 1.2 spelling: 12, -1.5, 1e3, 0x1F, 0o17, 1_000, 1:30.
  const size_t start = (value[0] == '-' || value[0] == '+') ? 1 : 0;
  const std::string_view body = value.substr(start);
  return std::any_of(body.begin(), body.end(), is_digit) &&
         std::all_of(body.begin(), body.end(),
                     [](char c) { return kNumberBytes[static_cast<unsigned char>(c)]; }) &&
         (is_digit(body[0]) || body[0] == '.');
}

namespace {

template <class Out>
void emit_string(Out& out, const std::string& value) {
  if (yaml_plain_is_typed(value)) {
    out << YAML::SingleQuoted << value;
  } else {
    out << value;
  }
}

/// A literal block keeps the command readable; control characters, a leading
/// space and the UTF-8 that YAML readers disagree on cannot go in one, so such
/// commands are double-quoted.
bool may_be_literal_block(std::string_view text) {
  return !text.empty() && text.front() != ' ' && text.front() != '\t';
}

bool fits_literal_block(std::string_view text) {
  return may_be_literal_block(text) && is_literal_block_text(text);
}

std::string document_text(YamlWriter& out) { return out.take_document(); }
std::string document_text(YAML::Emitter& out) { return std::string(out.c_str()) + "\n"; }

void write_text(YamlWriter& out, std::string_view text) { out << text; }
void write_text(YAML::Emitter& out, std::string_view text) { out << std::string(text); }

/// "line N: TEXT" with TEXT the span's first line(s), secrets masked, cut to
/// 60 characters. Only the part shown is copied: a span can be a whole
/// here-document.
std::string where(const SourceFile& file, Span span, const std::vector<Span>* redactions) {
  constexpr uint32_t kMaxShown = 60;
  constexpr uint32_t kCut = 57;  // then "..."
  const std::string_view whole = file.slice(span);
  const bool cut = whole.size() > kMaxShown;
  std::string text = "line " + std::to_string(file.line_col(span.begin).line) + ": ";
  const size_t shown_at = text.size();
  text += whole.substr(0, cut ? kCut : whole.size());
  const std::span<char> shown(text.data() + shown_at, text.size() - shown_at);
  if (redactions != nullptr) {
    const uint32_t shown_end = span.begin + static_cast<uint32_t>(shown.size());
    for (Span secret : *redactions) {
      const uint32_t begin = std::max(secret.begin, span.begin);
      const uint32_t end = std::min(secret.end, shown_end);
      for (uint32_t i = begin; i < end; ++i) shown[i - span.begin] = '*';
    }
  }
  std::replace(shown.begin(), shown.end(), '\n', ' ');
  replace_unsafe_comment_bytes(shown);
  if (cut) text += "...";
  return text;
}

// Out is YamlWriter (fast) or YAML::Emitter (everything else); see yaml_writer.hpp.
/// yaml-cpp double-quotes a string holding U+007F but writes that byte as
/// it is, which YAML forbids; the escape `\x7F` reads back as the same byte.
/// Comments hold none (where() replaced them), so each one left is inside a
/// double-quoted scalar.
std::string escape_delete_characters(std::string yaml) {
  if (yaml.find('\x7F') == std::string::npos) return yaml;
  std::string out;
  out.reserve(yaml.size() + 16);
  for (char c : yaml) {
    if (c == '\x7F') {
      out += "\\x7F";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

template <class Out>
class WorkloadEmitter {
 public:
  WorkloadEmitter(const air::Workload& workload, const SourceFile& file, const YamlOptions& options)
      : w_(workload), file_(file), options_(options) {}

  std::string emit(bool literal_command) {
    out_ << YAML::BeginMap;
    out_ << YAML::Key << "experiment_name" << YAML::Value;
    emit_string(out_, w_.experiment_name);
    comment_from(w_.experiment_name_from);
    emit_environment();
    emit_compute();
    emit_code_source();
    emit_named("env_variables", w_.env_variables);
    emit_named("secrets", w_.secrets);
    emit_command(literal_command);
    if (w_.timeout_minutes) {
      out_ << YAML::Key << "timeout_minutes" << YAML::Value << *w_.timeout_minutes;
      comment_from(w_.timeout_from);
    }
    out_ << YAML::Key << "max_retries" << YAML::Value << w_.max_retries;
    comment_from(w_.max_retries_from);
    out_ << YAML::EndMap;
    return document_text(out_);
  }

  [[nodiscard]] bool good() const { return out_.good(); }

 private:
  void comment(const std::string& text) {
    if (options_.provenance_comments && !text.empty()) out_ << YAML::Comment(text);
  }

  void comment_from(Span span) {
    if (!span.empty()) comment(where(file_, span, options_.redactions));
  }

  /// Nested `type: snapshot` works with every CLI; flat needs CLI >= 1.20.0.
  void emit_code_source() {
    out_ << YAML::Key << "code_source" << YAML::Value << YAML::BeginMap;
    if (!w_.code_source_flat) {
      out_ << YAML::Key << "type" << YAML::Value << "snapshot";
      out_ << YAML::Key << "snapshot" << YAML::Value << YAML::BeginMap;
    }
    out_ << YAML::Key << "root_path" << YAML::Value;
    emit_string(out_, w_.code_source_root);
    if (!w_.code_source_flat) out_ << YAML::EndMap;
    out_ << YAML::EndMap;
  }

  void emit_environment() {
    const air::Environment& env = w_.environment;
    // A custom image excludes version and dependencies (spec/air-runtime.md §1.5).
    if (env.unity_catalog_image || env.docker_image) {
      out_ << YAML::Key << "environment" << YAML::Value << YAML::BeginMap;
      if (env.unity_catalog_image) {
        out_ << YAML::Key << "unity_catalog_image" << YAML::Value << *env.unity_catalog_image;
        comment_from(env.image_from);
      } else {
        out_ << YAML::Key << "docker_image" << YAML::Value << YAML::BeginMap;
        out_ << YAML::Key << "url" << YAML::Value << *env.docker_image;
        comment_from(env.image_from);
        out_ << YAML::EndMap;
      }
      out_ << YAML::EndMap;
      return;
    }
    if (!env.version && env.dependencies.empty()) return;
    out_ << YAML::Key << "environment" << YAML::Value << YAML::BeginMap;
    if (env.version)
      out_ << YAML::Key << "version" << YAML::Value << YAML::SingleQuoted << *env.version;
    if (!env.dependencies.empty()) {
      out_ << YAML::Key << "dependencies" << YAML::Value << YAML::BeginSeq;
      for (const std::string& dependency : env.dependencies) emit_string(out_, dependency);
      out_ << YAML::EndSeq;
    }
    out_ << YAML::EndMap;
  }

  void emit_compute() {
    const air::Compute& c = w_.compute;
    out_ << YAML::Key << "compute" << YAML::Value << YAML::BeginMap;
    out_ << YAML::Key << "num_accelerators" << YAML::Value << c.num_accelerators;
    // Both comments are appended in place, not joined from temporaries.
    std::string shape = std::to_string(c.num_accelerators);
    shape += c.num_accelerators == 1 ? " GPU across " : " GPUs across ";
    shape += std::to_string(c.nodes);
    shape += c.nodes == 1 ? " node" : " nodes";
    for (Span span : c.from) {
      shape += "; ";
      shape += where(file_, span, options_.redactions);
    }
    comment(shape);
    out_ << YAML::Key << "accelerator_type" << YAML::Value << c.accelerator_type;
    std::string per_node = std::to_string(c.gpus_per_node);
    per_node += c.gpus_per_node == 1 ? " GPU per node" : " GPUs per node";
    comment(per_node);
    out_ << YAML::EndMap;
  }

  void emit_named(const char* key, const std::vector<air::NamedValue>& values) {
    if (values.empty()) return;
    out_ << YAML::Key << key << YAML::Value << YAML::BeginMap;
    for (const air::NamedValue& v : values) {
      out_ << YAML::Key << v.name << YAML::Value;
      emit_string(out_, v.value);
      comment_from(v.from);
    }
    out_ << YAML::EndMap;
  }

  void emit_command(bool literal) {
    std::string_view command = w_.command;
    // The literal block adds the final newline back when it is read.
    if (literal && !command.empty() && command.back() == '\n') command.remove_suffix(1);
    out_ << YAML::Key << "command" << YAML::Value << (literal ? YAML::Literal : YAML::DoubleQuoted);
    write_text(out_, command);
  }

  const air::Workload& w_;
  const SourceFile& file_;
  const YamlOptions& options_;
  Out out_;
};

}  // namespace

std::string emit_workload_yaml(const air::Workload& workload, const SourceFile& file,
                               const YamlOptions& options) {
  // The fast writer checks a literal block's text itself and gives up on one
  // it cannot carry, as it would on that command double-quoted (it quotes
  // only safe single-line text): offered the block on the cheap test, it
  // leaves the full one to yaml-cpp's turn, and the command is scanned once.
  WorkloadEmitter<YamlWriter> fast(workload, file, options);
  std::string yaml = fast.emit(may_be_literal_block(workload.command));
  if (fast.good()) return yaml;
  return escape_delete_characters(WorkloadEmitter<YAML::Emitter>(workload, file, options)
                                      .emit(fits_literal_block(workload.command)));
}

}  // namespace s2a::emit
