// The option pairs sbatch and srun refuse outright (spec/slurm-sbatch.md §1.7).
//
// Slurm checks whether each option was *set* (any occurrence) and, for
// --gres and --tres-per-task, looks at the final value; so do we.
#include <algorithm>
#include <string>

#include "directives/directives.hpp"
#include "directives/text_util.hpp"

namespace s2a::directives {
namespace {

/// _validate_gres_vs_gpus_per_node(): Slurm prefixes each entry with `gres/`
/// and looks for `gres/gpu`, so any entry whose name starts with `gpu` counts.
bool gres_requests_gpu(std::string_view gres) {
  if (detail::iequals(gres, "none")) return false;
  size_t start = 0;
  while (start <= gres.size()) {
    size_t end = gres.find(',', start);
    if (end == std::string_view::npos) end = gres.size();
    std::string_view entry = gres.substr(start, end - start);
    if (entry.starts_with("gres/")) entry.remove_prefix(5);
    if (entry.starts_with("gpu")) return true;
    start = end + 1;
  }
  return false;
}

bool contains_icase(std::string_view text, std::string_view needle) {
  for (size_t i = 0; i + needle.size() <= text.size(); ++i) {
    if (detail::iequals(text.substr(i, needle.size()), needle)) return true;
  }
  return false;
}

constexpr size_t kShownValue = 40;  // characters of a value quoted in the message

/// One diagnostic at whichever of the two comes later in the file.
Diagnostic conflict(const Option& a, const Option& b, std::string_view slurm_message) {
  const Option& later = a.span.begin > b.span.begin ? a : b;
  const Option& earlier = &later == &a ? b : a;
  return {Code::exclusive_options, later.span,
          "`" + later.text(kShownValue) + "` conflicts with `" + earlier.text(kShownValue) +
              "`: sbatch and srun refuse them together (\"" + std::string(slurm_message) + "\")",
          "keep only one of them"};
}

}  // namespace

Diagnostics check_exclusive_options(std::span<const Option> options) {
  Diagnostics out;
  // The last occurrence of `name`: a dozen lookups in a handful of options,
  // cheaper than building a map for each script.
  auto get = [&](std::string_view name) -> const Option* {
    const auto it = std::find_if(options.rbegin(), options.rend(),
                                 [&](const Option& option) { return option.name() == name; });
    return it == options.rend() ? nullptr : &*it;
  };

  // Memory: report each later option against the first one present.
  const Option* first_memory = nullptr;
  for (std::string_view name : {"mem", "mem-per-cpu", "mem-per-gpu"}) {
    const Option* option = get(name);
    if (option == nullptr) continue;
    if (first_memory == nullptr) {
      first_memory = option;
    } else {
      out.push_back(conflict(*first_memory, *option,
                             "--mem, --mem-per-cpu, and --mem-per-gpu are mutually exclusive."));
    }
  }

  const Option* gres = get("gres");
  if (const Option* gpn = get("gpus-per-node");
      gpn != nullptr && gres != nullptr && gres->value && gres_requests_gpu(*gres->value)) {
    out.push_back(conflict(*gpn, *gres, "--gpus-per-node and --gres=gpu are mutually exclusive."));
  }

  if (const Option* exclusive = get("exclusive"), *over = get("oversubscribe");
      exclusive != nullptr && over != nullptr) {
    out.push_back(conflict(*exclusive, *over,
                           "--exclusive and --oversubscribe options are mutually exclusive"));
  }

  if (const Option* cpg = get("cpus-per-gpu"); cpg != nullptr) {
    const Option* cpt = get("cpus-per-task");
    const Option* tpt = get("tres-per-task");
    const char* message =
        "--cpus-per-task, --tres-per-task=cpu:#, and --cpus-per-gpu are mutually exclusive";
    if (cpt != nullptr) out.push_back(conflict(*cpt, *cpg, message));
    if (tpt != nullptr && tpt->value && contains_icase(*tpt->value, "cpu")) {
      out.push_back(conflict(*tpt, *cpg, message));
    }
  }

  if (const Option* npg = get("ntasks-per-gpu"); npg != nullptr) {
    for (std::string_view name :
         {"tres-per-task", "gpus-per-task", "gpus-per-socket", "ntasks-per-node"}) {
      if (const Option* other = get(name)) {
        const std::string message =
            "--" + std::string(name) + " is mutually exclusive with --ntasks-per-gpu";
        out.push_back(conflict(*npg, *other, message));
      }
    }
  }

  if (const Option* core = get("core-spec"), *thread = get("thread-spec");
      core != nullptr && thread != nullptr) {
    out.push_back(conflict(*core, *thread,
                           "-S/--core-spec and --thread-spec options are mutually exclusive"));
  }
  return out;
}

}  // namespace s2a::directives
