#include "translate.hpp"

#include <algorithm>

#include "air/directive_policy.hpp"
#include "air/map_workload.hpp"
#include "bundle/workflow.hpp"
#include "diag/suppress.hpp"
#include "directives/file_checks.hpp"
#include "emit/mask_secrets.hpp"
#include "emit/text_scan.hpp"
#include "emit/validate.hpp"
#include "emit/yaml.hpp"
#include "source/utf8.hpp"

namespace s2a {
namespace {

std::string without_crlf(std::string text) {
  size_t out = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    text[out++] = text[i];
  }
  text.resize(out);
  return text;
}

/// Stable, by where each diagnostic starts. A Diagnostic holds two strings:
/// the positions are sorted with their indexes (which keep equal positions
/// in order), then each diagnostic is moved once, where std::stable_sort
/// moved each several times.
void sort_by_position(Diagnostics& diagnostics) {
  std::vector<std::pair<uint32_t, uint32_t>> order;  // span.begin, index
  order.reserve(diagnostics.size());
  for (size_t i = 0; i < diagnostics.size(); ++i) {
    order.emplace_back(diagnostics[i].span.begin, static_cast<uint32_t>(i));
  }
  std::sort(order.begin(), order.end());
  Diagnostics sorted;
  sorted.reserve(diagnostics.size());
  for (const auto& [begin, index] : order) sorted.push_back(std::move(diagnostics[index]));
  diagnostics = std::move(sorted);
}

/// Text with NUL bytes is binary, and an empty file has no job: neither is
/// translated (sbatch refuses both too). Nor is a program in another
/// language (`#!/usr/bin/env python3`): read as bash it is only errors.
bool is_a_script(const Diagnostics& diagnostics) {
  return std::none_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) {
    return d.code == Code::nul_byte || d.code == Code::empty_script ||
           d.code == Code::interpreter_not_a_shell;
  });
}

/// Command-line flags win over the site profile, which wins over defaults.
air::WorkloadOptions workload_options(const TranslateOptions& options) {
  air::WorkloadOptions out;
  out.accelerator_type = options.accelerator_type;
  out.env_version = options.env_version;
  out.dependencies = options.dependencies;
  out.requirements = options.requirements;
  out.experiment_name = options.experiment_name;
  out.bundle = options.target == OutputTarget::bundle;
  const profile::Profile* profile = options.profile ? &*options.profile : nullptr;
  out.profile = profile;
  if (!out.env_version && profile != nullptr) out.env_version = profile->env_version;
  if (options.secret_scope) {
    out.secret_scope = *options.secret_scope;
  } else if (profile != nullptr && profile->secret_scope) {
    out.secret_scope = *profile->secret_scope;
  }
  if (profile != nullptr) {
    out.default_max_retries = profile->max_retries;
    out.code_root = profile->code_root;
  }
  std::optional<air::TargetSchema> target;
  if (options.target_schema) target = parse_target_schema(*options.target_schema);
  if (target) {
    out.target = *target;
    out.code_source_flat = *target == air::TargetSchema::cli_1_20;
  } else {
    if (profile != nullptr && profile->target_schema) {
      out.target = parse_target_schema(*profile->target_schema).value_or(out.target);
    }
    out.code_source_flat = out.target == air::TargetSchema::cli_1_20;
    if (profile != nullptr && profile->code_source) {
      out.code_source_flat = *profile->code_source == "flat";
    }
  }
  return out;
}

/// Text is nearly always ASCII, which a vectorized test tells at a fraction
/// of with_valid_utf8's cost (its scan goes eight bytes at a time).
void make_valid_utf8(std::string& text) {
  if (!emit::is_ascii(text)) text = with_valid_utf8(std::move(text));
}

void make_valid_utf8(air::Workload& w) {
  for (std::string* text : {&w.experiment_name, &w.code_source_root, &w.command}) {
    make_valid_utf8(*text);
  }
  for (std::vector<air::NamedValue>* values : {&w.env_variables, &w.secrets}) {
    for (air::NamedValue& v : *values) {
      make_valid_utf8(v.name);
      make_valid_utf8(v.value);
    }
  }
  for (std::string& dependency : w.environment.dependencies) make_valid_utf8(dependency);
  for (std::optional<std::string>* image :
       {&w.environment.version, &w.environment.docker_image, &w.environment.unity_catalog_image}) {
    if (*image) make_valid_utf8(**image);
  }
}

/// Masks each secret in `text`. Most scripts have none: then no string is
/// moved out and back (redact_messages() does that for every message).
void mask_in_place(std::string& text, const emit::SecretMasker& secrets, std::string_view with) {
  if (!secrets.empty()) text = secrets.mask(std::move(text), with);
}

/// Emits the workload and keeps it only if it reads back valid. No secret
/// byte may reach the YAML: provenance comments mask them, and anything left
/// (a value copied by another rule) is replaced before the check.
void emit_checked(Translation& t, air::Workload workload, const emit::SecretMasker& secrets,
                  const TranslateOptions& options) {
  const auto lines = static_cast<long>(emit::count_newlines(workload.command));
  if (lines > air::kMaxCommandLines) {
    t.diagnostics.push_back(
        {Code::command_too_long,
         {},
         "the command would have " + std::to_string(lines) + " lines; AI Runtime accepts at most " +
             std::to_string(air::kMaxCommandLines),
         "move the body into a script under the code root (e.g. run.sh), then translate a "
         "script that calls it: `bash run.sh`"});
    return;
  }
  // The command and values are masked first, so the YAML below reads back as
  // the workload it came from.
  mask_in_place(workload.command, secrets, "REDACTED");
  for (air::NamedValue& variable : workload.env_variables) {
    mask_in_place(variable.value, secrets, "REDACTED");
  }
  // YAML is UTF-8: a script that is not (reported as S2A1006) has its invalid
  // bytes written as U+FFFD, here rather than inside the YAML writer for the
  // same reason; after masking, which matches the script's own bytes.
  make_valid_utf8(workload);
  std::string yaml =
      emit::emit_workload_yaml(workload, *t.file, {options.provenance_comments, &t.redactions});
  mask_in_place(yaml, secrets, "REDACTED");
  const std::vector<std::string> problems = emit::validate_workload_yaml(yaml, workload);
  for (const std::string& problem : problems) {
    t.diagnostics.push_back({Code::internal_error,
                             {},
                             "the emitted YAML fails its check: " + problem,
                             "please report this script to the slurm2air maintainers"});
  }
  if (!problems.empty()) return;
  if (options.target == OutputTarget::workload) {
    yaml.insert(0, bundle::array_submit_comment(t.workflow, options.yaml_name));
  }
  t.yaml = std::move(yaml);
  t.workload = std::move(workload);
}

/// Messages quote the script (directive values, words): mask secrets there too.
void redact_messages(Translation& t, const emit::SecretMasker& secrets) {
  if (secrets.empty()) return;  // nearly every script: no message is looked at
  for (Diagnostic& d : t.diagnostics) {
    mask_in_place(d.message, secrets, "<redacted>");
    mask_in_place(d.hint, secrets, "<redacted>");
  }
}

}  // namespace

std::optional<air::TargetSchema> parse_target_schema(std::string_view name) {
  if (name == "cli-1.19") return air::TargetSchema::cli_1_19;
  if (name == "cli-1.20") return air::TargetSchema::cli_1_20;
  return std::nullopt;
}

std::string_view status_name(DirectiveStatus status) {
  switch (status) {
    case DirectiveStatus::mapped:
      return "mapped";
    case DirectiveStatus::approximated:
      return "approximated";
    case DirectiveStatus::reported:
      return "reported";
    case DirectiveStatus::no_effect:
      return "no_effect";
  }
  return "reported";
}

Translation translate(std::string file_name, std::string text, const TranslateOptions& options) {
  Translation t;
  // sbatch refuses a CRLF script (S2A1005). Its author meant Unix line ends,
  // so every stage reads the text without the CRs: read as bash, `\` before
  // one is no continuation and `scons\r` is a word of its own. Lines and
  // columns stay the same, as each CR removed ended its line.
  std::optional<Diagnostic> crlf = directives::detail::crlf_line_endings(text);
  if (crlf) text = without_crlf(std::move(text));
  t.file = std::make_unique<SourceFile>(std::move(file_name), std::move(text));
  Diagnostics& diagnostics = t.diagnostics;

  // 1. Directives, exactly as sbatch reads them.
  t.scan = directives::scan_directives(*t.file);
  if (crlf) {
    t.scan.diagnostics.push_back(std::move(*crlf));
    t.scan.fatal = true;
  }
  diagnostics = t.scan.diagnostics;
  if (!is_a_script(diagnostics)) {
    sort_by_position(diagnostics);
    return t;  // binary or empty: nothing to translate, and nothing is written
  }
  // 2. What they mean: typed options with provenance.
  t.job = slurm::build_job(t.scan, diagnostics);
  // 3. What each directive becomes on AI Runtime.
  t.directives =
      air::apply_directive_policy(t.scan, diagnostics, options.target == OutputTarget::bundle);
  // 4. The body: every command and where it runs.
  t.body = slurm::analyze_body(*t.file, t.scan.body_offset, diagnostics);
  // 4b. Workflow constructs: arrays, mail, dependencies, requeue, drivers.
  t.workflow =
      bundle::analyze_workflow(*t.file, t.scan, t.job, t.body, options.target, diagnostics);
  // 5. The workload: compute, limits, environment and the rewritten command.
  air::WorkloadMapping mapping =
      air::map_workload(*t.file, t.job, t.body, workload_options(options), diagnostics);
  t.redactions = std::move(mapping.redactions);
  t.edits = std::move(mapping.edits);
  bundle::adapt_workload(t.workflow, options.target, mapping.workload);
  // 6. Emit, then read it back: nothing leaves that the schema would refuse.
  const emit::SecretMasker secrets(*t.file, t.redactions);
  emit_checked(t, std::move(mapping.workload), secrets, options);
  redact_messages(t, secrets);
  sort_by_position(diagnostics);
  // 7. Last: what the user or the site chose to silence.
  t.suppressed = apply_suppressions(*t.file, options.suppressed_codes, diagnostics);
  return t;
}

}  // namespace s2a
