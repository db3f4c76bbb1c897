#include "translate.hpp"

#include <algorithm>

#include "air/directive_policy.hpp"
#include "air/map_workload.hpp"
#include "bundle/workflow.hpp"
#include "emit/validate.hpp"
#include "emit/yaml.hpp"

namespace s2a {
namespace {

void sort_by_position(Diagnostics& diagnostics) {
  std::stable_sort(diagnostics.begin(), diagnostics.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.span.begin < b.span.begin; });
}

/// Text with NUL bytes is binary, and an empty file has no job: neither is
/// translated (sbatch refuses both too).
bool is_a_script(const Diagnostics& diagnostics) {
  return std::none_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) {
    return d.code == Code::nul_byte || d.code == Code::empty_script;
  });
}

air::WorkloadOptions workload_options(const TranslateOptions& options) {
  return {options.accelerator_type, options.env_version, options.dependencies,
          options.requirements, options.experiment_name};
}

}  // namespace

std::string_view status_name(DirectiveStatus status) {
  switch (status) {
    case DirectiveStatus::mapped: return "mapped";
    case DirectiveStatus::approximated: return "approximated";
    case DirectiveStatus::reported: return "reported";
    case DirectiveStatus::no_effect: return "no_effect";
  }
  return "reported";
}

Translation translate(std::string file_name, std::string text, const TranslateOptions& options) {
  Translation t;
  t.file = std::make_unique<SourceFile>(std::move(file_name), std::move(text));
  Diagnostics& diagnostics = t.diagnostics;

  // 1. Directives, exactly as sbatch reads them.
  t.scan = directives::scan_directives(*t.file);
  diagnostics = t.scan.diagnostics;
  if (!is_a_script(diagnostics)) {
    sort_by_position(diagnostics);
    return t;  // binary or empty: nothing to translate, and nothing is written
  }
  // 2. What they mean: typed options with provenance.
  t.job = slurm::build_job(t.scan, diagnostics);
  // 3. What each directive becomes on AI Runtime.
  t.directives = air::apply_directive_policy(t.scan, diagnostics,
                                             options.target == OutputTarget::bundle);
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
  std::string yaml = emit::emit_workload_yaml(mapping.workload, *t.file,
                                              {options.provenance_comments});
  const std::vector<std::string> problems = emit::validate_workload_yaml(yaml, mapping.workload);
  for (const std::string& problem : problems) {
    diagnostics.push_back({Code::internal_error, {}, "the emitted YAML fails its check: " + problem,
                           "please report this script to the slurm2air maintainers"});
  }
  if (problems.empty()) {
    if (options.target == OutputTarget::workload) {
      yaml = bundle::array_submit_comment(t.workflow, options.yaml_name) + yaml;
    }
    t.yaml = std::move(yaml);
    t.workload = std::move(mapping.workload);
  }
  sort_by_position(diagnostics);
  return t;
}

}  // namespace s2a
