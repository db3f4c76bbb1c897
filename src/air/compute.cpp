// The compute policy: from Slurm's nodes and GPUs to an accelerator shape.
//
// AI Runtime offers whole nodes of fixed shapes (GPU_1xA10, GPU_1xH100,
// GPU_8xH100); the total must be a multiple of the GPUs per node. The policy
// (documented in docs/mapping.md) keeps the node count and the GPUs per node
// wherever a shape allows it, and says so whenever it cannot.
#include "air/compute.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "air/launch.hpp"
#include "directives/text_util.hpp"
#include "slurm/body.hpp"
#include "source/ascii.hpp"

namespace s2a::air {

using namespace std::string_view_literals;
namespace {

constexpr uint64_t kMaxAccelerators = 1'000'000;  // far beyond any cluster; guards overflow
constexpr std::array<std::string_view, 9> kGpuWords = {"gpu",       "cuda",
                                                       "nccl",      "nvidia",
                                                       "torchrun",  "torch.distributed",
                                                       "deepspeed", "accelerate launch",
                                                       "horovod"};

/// GPU models that are small inference/development parts: the 1-GPU A10 shape
/// is their nearest equivalent. Everything else maps to H100.
bool is_small_gpu(std::string_view model) {
  static constexpr std::array kSmall = {"a10", "a10g", "a16", "a30", "a40", "l4", "l40",
                                        "l40s", "t4", "rtx", "p100", "k80", "a2"};
  return std::any_of(kSmall.begin(), kSmall.end(),
                     [&](std::string_view small) { return model == small; });
}

/// Finds a GPU model name in free text such as a partition or a constraint.
std::string model_in_text(std::string_view text) {
  const std::string lower = ascii_lower(text);
  static constexpr std::array kModels = {"h200", "h100", "b300", "b200", "gh200", "a100", "v100",
                                         "a10g", "a10",  "l40s", "l40",  "l4",    "t4",   "a40",
                                         "a30",  "p100"};
  for (std::string_view model : kModels) {
    if (lower.find(model) != std::string::npos) return std::string(model);
  }
  return {};
}

/// Whether an --exclusive job ran on GPU nodes: its partition or constraint
/// names them (`gpu`, `a100`, ...), or the script mentions GPUs or a GPU
/// launcher anywhere. Otherwise it was a CPU job, with no GPUs to take.
/// The script's lines that are not comments: a licence header naming NVIDIA
/// or a commented-out `##SBATCH --gres=gpu:3` says nothing of the job.
std::string without_comment_lines(std::string_view script) {
  std::string out;
  out.reserve(script.size());
  while (!script.empty()) {
    const size_t end = std::min(script.find('\n'), script.size());
    const std::string_view line = script.substr(0, end);
    const size_t first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && line[first] != '#') {
      out.append(line);
      out.push_back('\n');
    }
    script.remove_prefix(std::min(script.size(), end + 1));
  }
  return out;
}

bool runs_on_gpu_nodes(const slurm::Job& job, std::string_view script) {
  for (const auto* text : {job.partition ? &job.partition->value : nullptr,
                           job.constraint ? &job.constraint->value : nullptr}) {
    if (text == nullptr) continue;
    if (!model_in_text(*text).empty() || ascii_lower(*text).find("gpu") != std::string::npos) {
      return true;
    }
  }
  const std::string lower = ascii_lower(without_comment_lines(script));
  return std::any_of(kGpuWords.begin(), kGpuWords.end(),
                     [&](std::string_view word) { return lower.find(word) != std::string::npos; });
}

Span span_of(const directives::Option* option) { return option ? option->span : Span{}; }

struct ModelChoice {
  std::string model;
  Span from;
};

ModelChoice gpu_model(const slurm::Job& job) {
  if (!job.gpu_type().empty()) return {job.gpu_type(), span_of(job.gpus->from)};
  if (job.constraint) {
    if (auto model = model_in_text(job.constraint->value); !model.empty()) {
      return {model, span_of(job.constraint->from)};
    }
  }
  if (job.partition) {
    if (auto model = model_in_text(job.partition->value); !model.empty()) {
      return {model, span_of(job.partition->from)};
    }
  }
  return {};
}

const AcceleratorType& shape_for(uint64_t gpus_per_node, std::string_view model) {
  if (gpus_per_node >= 2) return *find_accelerator_type(model == "b300" ? "GPU_8xB300" : "GPU_8xH100");
  return *find_accelerator_type(is_small_gpu(model) ? "GPU_1xA10" : "GPU_1xH100");
}

/// The GPUs the job's srun steps ask for when its directives ask for none
/// (`#SBATCH -N 2` then `srun --gpus-per-node=8 ...`): the allocation held
/// them, as whole nodes do on many clusters.
struct StepGpus {
  uint64_t per_node = 0;  // the most any step asks for on a node; 0 when none does
  std::string model;      // the largest step's type, else the first step's that names one
  Span from;              // the option of the largest step, in the file
  uint64_t fewest = 0;    // the fewest any step asks for (less than per_node: steps differ)
  size_t steps = 0;       // how many steps ask for GPUs
  Span unread;            // what the script computes of a step's GPUs (`--gpus=$N`, `-n $N`)
};

bool is_step_gpu_option(std::string_view name) {
  return name == "gpus-per-node" || name == "gres" || name == "gpus" || name == "gpus-per-task" ||
         name == "tres-per-task";
}

/// The most GPUs one node of the step holds: Slurm spreads a total
/// (`--gpus=3` on 2 nodes) as evenly as it can, and a step with no task
/// count starts one task a node.
uint64_t step_gpus_on_a_node(const slurm::Job& step) {
  if (const auto per_node = step.gpus_per_node()) return *per_node;
  const uint64_t nodes = std::max<uint64_t>(1, step.node_count().value_or(1));
  const uint64_t count = std::min(step.gpus->count, kMaxAccelerators);
  if (step.gpus->scope == slurm::GpuScope::total) return (count + nodes - 1) / nodes;
  const uint64_t tasks = std::min(step.total_tasks().value_or(nodes), kMaxAccelerators);
  return count * ((tasks + nodes - 1) / nodes);
}

/// `$?` stands for an expansion in a parsed srun word.
bool computed_by_the_script(const directives::Option& option) {
  return option.value && option.value->find("$?") != std::string::npos;
}

/// The option of a step whose value the script computes and which decides
/// how its GPUs per task or in total fall on a node (`srun -n $ntasks
/// --gpus-per-task=1`), or nullptr. A literal --ntasks-per-node settles
/// GPUs per task whatever the node count.
const directives::Option* unread_count(const slurm::Job& step,
                                       const std::vector<directives::Option>& options) {
  const slurm::GpuScope scope = step.gpus->scope;
  if (scope == slurm::GpuScope::per_node) return nullptr;
  const directives::Option* per_node = step.final_option("ntasks-per-node");
  if (scope == slurm::GpuScope::per_task && per_node && !computed_by_the_script(*per_node)) {
    return nullptr;
  }
  for (const directives::Option& option : options) {
    const std::string_view name = option.name();
    const bool count = name == "nodes" || (scope == slurm::GpuScope::per_task &&
                                           (name == "ntasks" || name == "ntasks-per-node"));
    if (count && !option.overridden && computed_by_the_script(option)) return &option;
  }
  return nullptr;
}

/// The step options whose computed value can decide its GPUs on a node.
bool decides_step_gpus(std::string_view name) {
  return is_step_gpu_option(name) || name == "nodes" || name == "ntasks" ||
         name == "ntasks-per-node";
}

/// The expansions of `parts` from offset `from` on, inside double quotes too,
/// in the order the parsed option value shows them as `$?`.
void expansions_from(std::span<const ast::WordPart> parts, uint32_t from,
                     std::vector<const ast::WordPart*>& out) {
  for (const ast::WordPart& part : parts) {
    if (part.span.end <= from) continue;
    if (part.kind == ast::PartKind::double_quoted) {
      expansions_from(part.parts, from, out);
    } else if (slurm::is_expansion(part)) {
      out.push_back(&part);
    }
  }
}

/// What the batch script itself assigns (`GPUS_PER_NODE=${GPUS_PER_NODE:-8}`,
/// `readonly NGPU=8`), read by the launch mapper's value reader in its
/// literal-only mode: the shape it would also read is what this file
/// computes. Read once, and only for a script whose step GPUs are computed.
class LiteralValues {
 public:
  explicit LiteralValues(const slurm::Body& body) : body_(body) {}

  /// `options` with each computed value that decides the step's GPUs
  /// (`--gres=gpu:${GPUS_PER_NODE}`) written with the numbers it holds,
  /// where every expansion in it holds one.
  std::vector<directives::Option> resolved(const slurm::Site& site,
                                           const std::vector<directives::Option>& options) {
    std::vector<directives::Option> out = options;
    if (site.view != 0) return out;  // the assignments are the batch script's
    for (directives::Option& option : out) {
      if (option.overridden || !computed_by_the_script(option) ||
          !decides_step_gpus(option.name())) {
        continue;
      }
      if (auto value = resolved_value(site, option)) option.value = std::move(*value);
    }
    return out;
  }

 private:
  std::optional<std::string> resolved_value(const slurm::Site& site,
                                            const directives::Option& option) {
    const Span span = option.value_span;
    if (span.empty()) return std::nullopt;  // from a variable holding srun options
    const auto word = std::find_if(
        site.command->words.begin(), site.command->words.end(),
        [&](const ast::Word& w) { return w.span.begin <= span.begin && span.end <= w.span.end; });
    if (word == site.command->words.end()) return std::nullopt;
    std::vector<const ast::WordPart*> parts;
    expansions_from(word->parts, span.begin, parts);
    const ValueReader reader = ValueReader::literal_values(variables());
    std::string value = *option.value;
    size_t next = 0;
    for (size_t at = value.find("$?"); at != std::string::npos; at = value.find("$?", at)) {
      if (next == parts.size()) return std::nullopt;
      const ShellValue held = reader.parts(std::span(parts[next++], 1));
      // A variable holding 0 is a default the script overrides when it runs
      // (`SBATCH_GPUS=0`, then `--gpus N` on its command line), not a request.
      if (held.meaning != Meaning::number || !held.number || *held.number == 0) {
        return std::nullopt;
      }
      const std::string digits = std::to_string(*held.number);
      value.replace(at, 2, digits);
      at += digits.size();
    }
    if (next != parts.size()) return std::nullopt;
    return value;
  }

  const ShellVariables& variables() {
    if (!variables_) {
      variables_.emplace();
      track_shell_variables(body_, ValueReader::literal_values(*variables_), *variables_);
    }
    return *variables_;
  }

  const slurm::Body& body_;
  std::optional<ShellVariables> variables_;
};

bool has_computed_gpu_value(const std::vector<directives::Option>& options) {
  return std::any_of(options.begin(), options.end(), [](const directives::Option& option) {
    return !option.overridden && decides_step_gpus(option.name()) && computed_by_the_script(option);
  });
}

StepGpus step_gpus(const slurm::Job& job, const slurm::Body& body) {
  StepGpus out;
  LiteralValues literals(body);
  for (const slurm::Site& site : body.sites) {
    if (!site.srun) continue;
    if (std::none_of(site.srun->options.begin(), site.srun->options.end(), [](const auto& option) {
          return !option.overridden && is_step_gpu_option(option.name());
        })) {
      continue;
    }
    // `--gres=gpu:${GPUS_PER_NODE}` counts what the script assigned, as the
    // launch mapper reads it for the step's task count.
    std::vector<directives::Option> resolved;
    if (has_computed_gpu_value(site.srun->options)) {
      resolved = literals.resolved(site, site.srun->options);
    }
    const auto& options = resolved.empty() ? site.srun->options : resolved;
    const auto gpu_option = std::find_if(options.begin(), options.end(), [](const auto& option) {
      return !option.overridden && is_step_gpu_option(option.name());
    });
    if (gpu_option == options.end()) continue;
    const slurm::Job step = slurm::step_view(job, options);
    if (!step.gpus || step.gpus->scope == slurm::GpuScope::exclusive_node) {
      if (out.unread.empty() && computed_by_the_script(*gpu_option)) {
        out.unread = body.file_span(site, gpu_option->span);
      }
      continue;
    }
    if (const directives::Option* unread = unread_count(step, options)) {
      if (out.unread.empty()) out.unread = body.file_span(site, unread->span);
      continue;
    }
    const uint64_t per_node = std::min(step_gpus_on_a_node(step), kMaxAccelerators);
    if (per_node == 0) continue;  // `--gres=gpu:0`
    ++out.steps;
    out.fewest = out.per_node == 0 ? per_node : std::min(out.fewest, per_node);
    if (out.model.empty() || (per_node > out.per_node && !step.gpus->type.empty())) {
      out.model = step.gpus->type;
    }
    if (per_node > out.per_node) {
      out.per_node = per_node;
      out.from = body.file_span(site, step.gpus->from->span);
    }
  }
  return out;
}

}  // namespace

const std::vector<AcceleratorType>& accelerator_types() {
  static const std::vector<AcceleratorType> kTypes = {
      {"GPU_1xA10", 1, "a10"},
      {"GPU_1xH100", 1, "h100"},
      {"GPU_8xH100", 8, "h100"},
      {"GPU_8xB300", 8, "b300"},
  };
  return kTypes;
}

const AcceleratorType* find_accelerator_type(std::string_view name) {
  for (const AcceleratorType& type : accelerator_types()) {
    if (type.name == name) return &type;
  }
  return nullptr;
}

namespace {

/// `rocm/5.7`, `rocm-5.4.2/ucx`: a ROCm name, not spack's `~rocm` (built
/// without it) nor a longer word. One pass, without case, in place: asked of
/// every word of every `module` command.
bool names_rocm(std::string_view text) {
  for (size_t at = 0; at < text.size(); ++at) {
    const char first = directives::detail::to_lower(text[at]);
    if (first != 'r' && first != 'm') continue;  // each name starts with one of them
    const std::string_view rest = text.substr(at);
    const bool name = directives::detail::istarts_with(rest, "rocm") ||
                      directives::detail::istarts_with(rest, "rccl") ||
                      directives::detail::istarts_with(rest, "miopen");
    const char before = at == 0 ? ' ' : text[at - 1];
    if (name && before != '~' && !std::isalnum(static_cast<unsigned char>(before))) return true;
  }
  return false;
}

/// ROCm's and HIP's own variables: ROCR_VISIBLE_DEVICES, HIP_VISIBLE_DEVICES,
/// MIOPEN_USER_DB_PATH, ...
bool is_rocm_variable(std::string_view name) {
  return name == "ROCR_VISIBLE_DEVICES" || name == "HIP_VISIBLE_DEVICES" ||
         name.starts_with("MIOPEN_");
}

/// A command that shows the job ran on ROCm: loads it, compiles with HIP,
/// runs a container with --rocm, or sets ROCm's variables.
bool uses_rocm(const slurm::Site& site) {
  const ast::Command& command = *site.command;
  for (const ast::Assignment& a : command.assignments) {
    if (is_rocm_variable(a.name)) return true;
  }
  const std::string_view program = site.program;
  if (program == "hipcc") return true;
  const bool modules = program == "module" || program == "ml";
  const bool container = program == "singularity" || program == "apptainer";
  const bool declares = slurm::is_declaration_builtin(program);
  if (!modules && !container && !declares) return false;
  for (size_t i = 1; i < command.words.size(); ++i) {
    std::string storage;
    const std::string_view word = slurm::literal_prefix(command.words[i], storage);
    if ((modules && names_rocm(word)) || (container && word == "--rocm") ||
        (declares && is_rocm_variable(word.substr(0, word.find('='))))) {
      return true;
    }
  }
  return false;
}

bool names_amd_instinct(std::string_view text) {
  const std::string lower = ascii_lower(text);
  for (const std::string_view model : {"mi50"sv, "mi100"sv, "mi2"sv, "mi300"sv}) {
    if (lower.find(model) != std::string::npos) return true;
  }
  return false;
}

/// `--gres=dcu:4`, `--gres=gpu:1,dcu:2`: Hygon DCUs, which run ROCm's HIP.
bool names_dcu(std::string_view gres) {
  for (size_t at = gres.find("dcu"); at != std::string_view::npos; at = gres.find("dcu", at + 1)) {
    const bool starts = at == 0 || gres[at - 1] == ',' || gres[at - 1] == '/';
    const size_t end = at + 3;
    if (starts && (end == gres.size() || gres[end] == ':' || gres[end] == ',')) return true;
  }
  return false;
}

/// Where the job first shows it ran on AMD GPUs: an AMD Instinct model in
/// --constraint or --partition, DCUs in --gres, or a command that uses ROCm.
std::optional<Span> amd_evidence(const slurm::Job& job, const slurm::Body& body) {
  if (const directives::Option* gres = job.final_option("gres");
      gres != nullptr && gres->value && names_dcu(*gres->value)) {
    return gres->span;
  }
  for (const auto* field : {&job.constraint, &job.partition}) {
    if (*field && (*field)->from && names_amd_instinct((*field)->value)) {
      return (*field)->from->span;
    }
  }
  for (const slurm::Site& site : body.sites) {
    if (uses_rocm(site)) return body.file_span(site, site.command->span);
  }
  return std::nullopt;
}

/// "an srun step asks for 8 GPUs per node (--gpus-per-node=8)", and what the
/// directives said instead, for S2A3009.
std::string gpus_from_steps_message(const slurm::Job& job, const StepGpus& steps,
                                    std::string_view script) {
  std::string message = job.gpus ? "--exclusive gives the job every GPU of its nodes but says not "
                                   "how many"
                                 : "the #SBATCH lines request no GPUs";
  const bool differ = steps.fewest < steps.per_node;
  message += steps.steps == 1 ? "; an srun step asks for "
             : differ         ? "; the srun steps ask for up to "
                              : "; the srun steps ask for ";
  message += std::to_string(steps.per_node);
  message += steps.per_node == 1 ? " GPU per node (" : " GPUs per node (";
  message += script.substr(steps.from.begin, steps.from.size());
  message +=
      differ ? "), others for as few as " + std::to_string(steps.fewest) + "; the largest is used"
             : "), which the shape follows";
  return message;
}

}  // namespace

Compute map_compute(const slurm::Job& job, const slurm::Body& body, std::string_view script,
                    const std::optional<std::string>& forced_type, Diagnostics& diagnostics) {
  Compute compute;
  const uint64_t nodes = std::max<uint64_t>(1, std::min(job.node_count().value_or(1), kMaxAccelerators));
  const Span gpu_span = span_of(job.gpus ? job.gpus->from : nullptr);
  if (job.nodes) compute.from.push_back(job.nodes->from->span);
  if (job.gpus) compute.from.push_back(gpu_span);
  if (job.nodes && job.nodes->value.min != job.nodes->value.max) {
    diagnostics.push_back({Code::node_range, job.nodes->from->span,
                           "a node range lets Slurm choose between " +
                               std::to_string(job.nodes->value.min) + " and " +
                               std::to_string(job.nodes->value.max) +
                               " nodes; AI Runtime runs a fixed count, so the minimum is used",
                           "set a fixed --nodes, or change num_accelerators with --override"});
  }

  // Without a GPU request the smallest shape is used (S2A3001). --exclusive
  // takes every GPU of its nodes, and on a CPU partition there are none. A
  // job whose directives do not count its GPUs takes the count its srun
  // steps ask for (S2A3009).
  const bool counted = job.gpus && job.gpus->scope != slurm::GpuScope::exclusive_node;
  const StepGpus steps = counted ? StepGpus{} : step_gpus(job, body);
  const bool from_steps = steps.per_node > 0;
  const bool exclusive_cpu_nodes = !from_steps && job.gpus &&
                                   job.gpus->scope == slurm::GpuScope::exclusive_node &&
                                   !runs_on_gpu_nodes(job, script);
  const bool requests_gpus = from_steps || (job.gpus && !exclusive_cpu_nodes);
  // Where the count came from, for the findings about the shape.
  const Span request_span = from_steps ? steps.from : gpu_span;
  ModelChoice model = requests_gpus ? gpu_model(job) : ModelChoice{"a10", Span{}};
  if (from_steps && !steps.model.empty()) model = {steps.model, steps.from};
  std::optional<uint64_t> per_node = job.gpus_per_node();
  if (from_steps) {
    if (job.gpus) compute.from.pop_back();  // --exclusive: the steps say how many
    compute.from.push_back(steps.from);
    diagnostics.push_back(
        {Code::gpus_from_step, steps.from, gpus_from_steps_message(job, steps, script),
         "request the GPUs in the #SBATCH lines (--gpus-per-node), or choose a shape with "
         "--accelerator-type"});
    per_node = steps.per_node;
  } else if (!requests_gpus) {
    std::string message = exclusive_cpu_nodes
                              ? "the script requests no GPUs (--exclusive takes every GPU of its "
                                "nodes, and nothing in the script names GPUs: a CPU job)"
                              : "the script requests no GPUs";
    if (!steps.unread.empty()) {
      message += " (an srun step's GPUs per node depend on ";
      message += script.substr(steps.unread.begin, steps.unread.size());
      message += ", a count the script computes, which cannot be read)";
    }
    diagnostics.push_back(
        {Code::no_gpu_request,
         steps.unread.empty() && exclusive_cpu_nodes ? gpu_span : steps.unread,
         message + "; AI Runtime runs workloads on GPU nodes only, so one GPU_1xA10 node per Slurm "
                   "node is used",
         "request GPUs with --gpus-per-node, or choose a shape with --accelerator-type"});
    per_node = 1;
  } else if (job.gpus->scope == slurm::GpuScope::exclusive_node) {
    diagnostics.push_back({Code::gpus_from_exclusive, gpu_span,
                           "--exclusive gives the job every GPU of its nodes but says not how "
                           "many; a full node of 8 GPUs is assumed",
                           "state the count with --gpus-per-node, or use --accelerator-type"});
    per_node = 8;
  } else if (!per_node && job.total_gpus() && *job.total_gpus() % nodes == 0) {
    per_node = *job.total_gpus() / nodes;  // `--ntasks=4 --gpus-per-task=1`: 4 on the one node
  } else if (!per_node) {
    const uint64_t total = job.total_gpus().value_or(job.gpus->count);
    diagnostics.push_back({Code::gpus_not_per_node, gpu_span,
                           std::to_string(total) + " GPUs cannot be spread evenly over " +
                               std::to_string(nodes) + " nodes; the GPUs per node are rounded up",
                           "request GPUs per node (--gpus-per-node) so the shape is exact"});
    per_node = (total + nodes - 1) / nodes;
  }
  const uint64_t wanted_per_node = std::min<uint64_t>(*per_node, kMaxAccelerators);

  const AcceleratorType* type = nullptr;
  if (forced_type) {
    type = find_accelerator_type(*forced_type);
  } else {
    type = &shape_for(wanted_per_node, model.model);
  }
  if (type == nullptr) type = find_accelerator_type("GPU_8xH100");  // CLI validated the name

  // Keep the node count; a shape with more GPUs per node leaves some idle.
  uint64_t node_count = nodes;
  if (wanted_per_node > type->gpus_per_node) {
    // More GPUs per node than the shape has: spread over more nodes.
    const uint64_t total = nodes * wanted_per_node;
    node_count = (total + type->gpus_per_node - 1) / type->gpus_per_node;
  }
  compute.accelerator_type = std::string(type->name);
  compute.gpus_per_node = type->gpus_per_node;
  compute.nodes = std::min(node_count, kMaxAccelerators);
  compute.num_accelerators = compute.nodes * type->gpus_per_node;
  if (counted && job.gpus_per_node() && wanted_per_node < type->gpus_per_node) {
    compute.narrower_gpus_per_node = static_cast<uint32_t>(wanted_per_node);
  }

  if (!forced_type && (counted || from_steps) && wanted_per_node != type->gpus_per_node) {
    diagnostics.push_back(
        {Code::gpus_per_node_inexact, request_span,
         std::to_string(wanted_per_node) + " GPUs per node has no AI Runtime shape; using " +
             compute.accelerator_type + " (" + std::to_string(type->gpus_per_node) +
             " per node) on " + std::to_string(compute.nodes) + " node(s)",
         "adapt the job to 1 or 8 GPUs per node, or choose a shape with --accelerator-type"});
  }
  if (forced_type && job.total_gpus() && *job.total_gpus() != compute.num_accelerators) {
    diagnostics.push_back({Code::gpus_per_node_inexact, gpu_span,
                           "--accelerator-type " + *forced_type + " gives " +
                               std::to_string(compute.num_accelerators) +
                               " GPUs where the script asked for " +
                               std::to_string(*job.total_gpus()),
                           "check the batch size and the learning rate for the new world size"});
  }
  // An A10G is an A10; any other model on the A10 shape differs in memory
  // (an A40 or L40S has twice its 24 GB) or in numerics.
  if (!forced_type && !model.model.empty() && model.model != type->model &&
      !(type->model == "a10" && model.model == "a10g")) {
    diagnostics.push_back({Code::gpu_model_substituted, model.from,
                           "GPU model \"" + model.model + "\" is not offered by AI Runtime; " +
                               compute.accelerator_type + " is used instead",
                           "check memory per GPU and numerics (for example bf16 support), or "
                           "choose with --accelerator-type"});
  } else if (!forced_type && model.model.empty() && (counted || from_steps)) {
    diagnostics.push_back(
        {Code::gpu_model_assumed, request_span,
         "the script does not name a GPU model; " + compute.accelerator_type + " is assumed",
         "name the model (--gpus-per-node=h100:8) or pass --accelerator-type"});
  }
  return compute;
}

uint64_t tasks_per_node(const slurm::Job& job, const Compute& compute) {
  if (const auto per_node = job.tasks_per_node()) return *per_node;
  if (job.ntasks && compute.nodes > 0)
    return (job.ntasks->value + compute.nodes - 1) / compute.nodes;
  return 1;
}

void report_amd_gpus(const slurm::Job& job, const slurm::Body& body, const Compute& compute,
                     std::span<const JobImage> images, Diagnostics& diagnostics) {
  std::optional<Span> at = amd_evidence(job, body);
  std::string why = "the job ran on AMD GPUs (ROCm)";
  if (!at) {
    // The image's name is the only sign when the image brings ROCm itself
    // (LUMI's containers: no module, no ROCm variable in the script).
    const auto rocm =
        std::ranges::find_if(images, [](const JobImage& image) { return names_rocm(image.shown); });
    if (rocm == images.end()) return;
    at = rocm->from;
    why = "the container image " + std::string(rocm->shown) +
          " is built for ROCm: the job ran on AMD GPUs";
  }
  diagnostics.push_back(
      {Code::amd_gpus_replaced, *at,
       why + "; AI Runtime's GPUs are NVIDIA's (" + compute.accelerator_type +
           "): programs built for ROCm/HIP and ROCm container images do not run there",
       "use the CUDA build of the program and of its libraries (PyTorch's CUDA wheels, a "
       "CUDA image), and drop ROCm's variables"});
}

}  // namespace s2a::air
