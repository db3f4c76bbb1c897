#include "air/variables.hpp"

#include <algorithm>
#include <array>

#include "air/compute.hpp"
#include "bundle/workflow.hpp"
#include "directives/text_util.hpp"
#include "source/ascii.hpp"

namespace s2a::air {

using std::string_view_literals::operator""sv;

namespace {

VariableRule rename(std::string to, std::string reason) {
  return {VariableAction::rename, std::move(to), true, std::move(reason), ""};
}
VariableRule approximate(std::string to, std::string reason, std::string hint) {
  return {VariableAction::rename, std::move(to), false, std::move(reason), std::move(hint)};
}
VariableRule unmapped(std::string reason, std::string hint) {
  return {VariableAction::report, "", true, std::move(reason), std::move(hint)};
}

constexpr uint64_t kMaxCount = 1'000'000;  // far beyond any node; guards a product

/// The CPUs the job had on its node: all of them with a plain --exclusive, as
/// on AI Runtime; else what it asked for, which Slurm may have rounded up.
VariableRule cpus_on_node_rule(const slurm::Job& job, uint64_t tasks_per_node) {
  if (job.exclusive && job.exclusive->value.empty()) {
    return {VariableAction::literal, "$(nproc)", true,
            "the job had the whole node, as it has on AI Runtime", ""};
  }
  if (job.cpus_per_task && job.cpus_per_task->value <= kMaxCount && tasks_per_node <= kMaxCount) {
    return {VariableAction::literal, std::to_string(job.cpus_per_task->value * tasks_per_node),
            false,
            "the CPUs the job asked for on each node (--cpus-per-task times tasks per node); "
            "Slurm may have given more",
            "AI Runtime nodes have a fixed CPU count, all the job's: $(nproc) tells it"};
  }
  // No --cpus-per-task: Slurm gives each task one CPU.
  if ((job.ntasks || job.ntasks_per_node || job.ntasks_per_gpu) && tasks_per_node <= kMaxCount) {
    return {VariableAction::literal, std::to_string(tasks_per_node), false,
            "the CPUs the job asked for on each node (one per task, Slurm's default, times "
            "tasks per node); Slurm may have given more",
            "AI Runtime nodes have a fixed CPU count, all the job's: $(nproc) tells it"};
  }
  return unmapped("has no AI Runtime equivalent: the script asks for no CPU count",
                  "use $(nproc) for the CPUs of the node, all the job's on AI Runtime");
}

/// The array variables the preamble exports.
bool is_array_preamble_variable(std::string_view name) {
  return name == "SLURM_ARRAY_TASK_ID" || name == "SLURM_ARRAY_TASK_COUNT" ||
         name == "SLURM_ARRAY_TASK_MIN" || name == "SLURM_ARRAY_TASK_MAX" ||
         name == "SLURM_ARRAY_TASK_STEP" || name == "SLURM_ARRAY_JOB_ID";
}

/// An array small enough to be written out gets the preamble.
bool has_array_preamble(const slurm::Job& job) {
  if (!job.array) return false;
  const auto parsed = values::parse_array(job.array->value);
  return parsed && parsed->count() <= bundle::kMaxArrayIndexes;
}

}  // namespace

namespace {

// sbatch's and srun's output environment (src/common/env.c and the
// controller's job environment), sorted for binary search.
constexpr std::array<std::string_view, 99> kSlurmSet = {
    "SLURMD_NODENAME",
    "SLURM_ARRAY_JOB_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_STEP",
    "SLURM_CLUSTERS",
    "SLURM_CLUSTER_NAME",
    "SLURM_CONF",
    "SLURM_CPUS_ON_NODE",
    "SLURM_CPUS_PER_GPU",
    "SLURM_CPUS_PER_TASK",
    "SLURM_CPU_BIND",
    "SLURM_CPU_BIND_LIST",
    "SLURM_CPU_BIND_TYPE",
    "SLURM_CPU_BIND_VERBOSE",
    "SLURM_DISTRIBUTION",
    "SLURM_DIST_PLANESIZE",
    "SLURM_EXPORT_ENV",
    "SLURM_GPUS",
    "SLURM_GPUS_ON_NODE",
    "SLURM_GPUS_PER_NODE",
    "SLURM_GPUS_PER_SOCKET",
    "SLURM_GPUS_PER_TASK",
    "SLURM_GPU_BIND",
    "SLURM_GPU_FREQ",
    "SLURM_GTIDS",
    "SLURM_HET_SIZE",
    "SLURM_HINT",
    "SLURM_JOBID",
    "SLURM_JOB_ACCOUNT",
    "SLURM_JOB_CPUS_PER_NODE",
    "SLURM_JOB_DEPENDENCY",
    "SLURM_JOB_END_TIME",
    "SLURM_JOB_EXCLUSIVE",
    "SLURM_JOB_GID",
    "SLURM_JOB_GPUS",
    "SLURM_JOB_GROUP",
    "SLURM_JOB_ID",
    "SLURM_JOB_LICENSES",
    "SLURM_JOB_NAME",
    "SLURM_JOB_NODELIST",
    "SLURM_JOB_NUM_NODES",
    "SLURM_JOB_OVERSUBSCRIBE",
    "SLURM_JOB_PARTITION",
    "SLURM_JOB_QOS",
    "SLURM_JOB_RESERVATION",
    "SLURM_JOB_SEGMENT_SIZE",
    "SLURM_JOB_START_TIME",
    "SLURM_JOB_UID",
    "SLURM_JOB_USER",
    "SLURM_LAUNCH_NODE_IPADDR",
    "SLURM_LOCALID",
    "SLURM_MEM_BIND",
    "SLURM_MEM_PER_CPU",
    "SLURM_MEM_PER_GPU",
    "SLURM_MEM_PER_NODE",
    "SLURM_NETWORK",
    "SLURM_NNODES",
    "SLURM_NODEID",
    "SLURM_NODELIST",
    "SLURM_NODE_ALIASES",
    "SLURM_NPROCS",
    "SLURM_NTASKS",
    "SLURM_NTASKS_PER_CORE",
    "SLURM_NTASKS_PER_GPU",
    "SLURM_NTASKS_PER_NODE",
    "SLURM_NTASKS_PER_SOCKET",
    "SLURM_NTASKS_PER_TRES",
    "SLURM_OPEN_MODE",
    "SLURM_OVERCOMMIT",
    "SLURM_PRIO_PROCESS",
    "SLURM_PROCID",
    "SLURM_PROFILE",
    "SLURM_RESTART_COUNT",
    "SLURM_RUNTIME",
    "SLURM_SRUN_COMM_HOST",
    "SLURM_SRUN_COMM_PORT",
    "SLURM_STEPID",
    "SLURM_STEP_GPUS",
    "SLURM_STEP_ID",
    "SLURM_STEP_LAUNCHER_PORT",
    "SLURM_STEP_NODELIST",
    "SLURM_STEP_NUM_NODES",
    "SLURM_STEP_NUM_TASKS",
    "SLURM_STEP_RESV_PORTS",
    "SLURM_STEP_TASKS_PER_NODE",
    "SLURM_SUBMIT_DIR",
    "SLURM_SUBMIT_HOST",
    "SLURM_TASKS_PER_NODE",
    "SLURM_TASK_PID",
    "SLURM_THREADS_PER_CORE",
    "SLURM_TMPDIR",
    "SLURM_TOPOLOGY_ADDR",
    "SLURM_TOPOLOGY_ADDR_PATTERN",
    "SLURM_TRES_BIND",
    "SLURM_TRES_PER_TASK",
    "SLURM_UMASK",
};
static_assert(std::is_sorted(kSlurmSet.begin(), kSlurmSet.end()));

/// `$SLURM_JOB_ID_0`, `$SLURM_ARRAY_JOB_ID_$SLURM_ARRAY_TASK_ID`: bash reads
/// the longest name, so text meant to follow a Slurm name joins it. That
/// name, when the rest looks like such text (`_` alone, or lower case or
/// digits in it) rather than more of a name (`_PER_NOD`), else empty.
std::string_view slurm_name_before_suffix(std::string_view name) {
  std::string_view longest;
  for (std::string_view known : kSlurmSet) {
    if (name.size() > known.size() && name.starts_with(known) && known.size() > longest.size()) {
      longest = known;
    }
  }
  const std::string_view rest = name.substr(longest.size());
  const bool text_like = rest == "_" || std::any_of(rest.begin(), rest.end(), [](char c) {
                           return std::islower(static_cast<unsigned char>(c)) ||
                                  std::isdigit(static_cast<unsigned char>(c));
                         });
  return text_like ? longest : std::string_view{};
}

/// Levenshtein distance, or `cap` when it is `cap` or more: names are short
/// and this runs only for names Slurm does not set. A shared start (`SLURM_`)
/// and end change nothing and are not compared; once a row has no entry below
/// `cap`, none of the rows after it has either (row minima never decrease).
size_t edit_distance(std::string_view a, std::string_view b, size_t cap) {
  while (!a.empty() && !b.empty() && a.front() == b.front()) {
    a.remove_prefix(1);
    b.remove_prefix(1);
  }
  while (!a.empty() && !b.empty() && a.back() == b.back()) {
    a.remove_suffix(1);
    b.remove_suffix(1);
  }
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    size_t smallest = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
      smallest = std::min(smallest, row[j]);
    }
    if (smallest >= cap) return cap;
  }
  return std::min(row[b.size()], cap);
}

/// The Slurm name `name` misspells (one or two letters off; the closest),
/// else empty. A name whose length differs by as much as the best distance so
/// far cannot be closer, and is not compared.
std::string_view misspelled_slurm_name(std::string_view name) {
  std::string_view closest;
  size_t best = 3;
  for (std::string_view known : kSlurmSet) {
    const size_t length_gap =
        name.size() > known.size() ? name.size() - known.size() : known.size() - name.size();
    if (length_gap >= best) continue;
    const size_t distance = edit_distance(name, known, best);
    if (distance < best) {
      best = distance;
      closest = known;
    }
  }
  return closest;
}

/// A SLURM* name Slurm does not set: a suffix read into a Slurm name, a
/// misspelling (both empty under Slurm too), or a variable of the site or the
/// submitting shell. Which one is the author's to say; the report names each.
VariableRule rule_for_name_slurm_does_not_set(std::string_view name) {
  const std::string elsewhere =
      "the site or the submitting shell set it, and neither exists on AI Runtime, where it is "
      "empty";
  const std::string joined(slurm_name_before_suffix(name));
  if (!joined.empty()) {
    const std::string suffix(name.substr(joined.size()));
    return unmapped("is not a Slurm variable: bash reads the longest name, so if `" + suffix +
                        "` was meant as text after $" + joined +
                        ", the value was empty under Slurm too; otherwise " + elsewhere,
                    "write ${" + joined + "}" + suffix + " if that was meant");
  }
  const std::string misspelled(misspelled_slurm_name(name));
  if (!misspelled.empty()) {
    return unmapped("is not a Slurm variable: if it misspells $" + misspelled +
                        ", the value was empty under Slurm too; otherwise " + elsewhere,
                    "write $" + misspelled + " if that was meant");
  }
  return unmapped("is not a Slurm variable: " + elsewhere,
                  "set it in the script, or in env_variables");
}

}  // namespace

bool is_set_by_slurm(std::string_view name) {
  if (std::binary_search(kSlurmSet.begin(), kSlurmSet.end(), name)) return true;
  // Families: containers, SPANK plugin options, heterogeneous job components
  // (PACK_GROUP before Slurm 20.02).
  return name.starts_with("SLURM_CONTAINER") || name.starts_with("SLURM_SPANK_") ||
         name.find("_HET_GROUP_") != std::string_view::npos ||
         name.find("_PACK_GROUP_") != std::string_view::npos;
}

bool is_slurm_gpu_list(std::string_view written) {
  static constexpr std::array kSlurmGpuLists = {"SLURM_STEP_GPUS"sv, "SLURM_JOB_GPUS"sv};
  bool named = false;
  while (!written.empty()) {
    const auto* list =
        std::find_if(kSlurmGpuLists.begin(), kSlurmGpuLists.end(),
                     [&](std::string_view name) { return written.starts_with(name); });
    if (list != kSlurmGpuLists.end()) {
      written.remove_prefix(list->size());
      named = true;
    } else if (std::string_view("${}:-\"").find(written.front()) != std::string_view::npos) {
      written.remove_prefix(1);
    } else {
      return false;
    }
  }
  return named;
}

bool is_runtime_variable(std::string_view name) {
  // string_views, not C strings: each comparison would measure the name first.
  static constexpr std::array kRuntime = {"MASTER_ADDR"sv,     "MASTER_PORT"sv,      "NUM_NODES"sv,
                                          "NODE_RANK"sv,       "LOCAL_WORLD_SIZE"sv, "WORLD_SIZE"sv,
                                          "CODE_SOURCE_PATH"sv};
  return std::find(kRuntime.begin(), kRuntime.end(), name) != kRuntime.end();
}

namespace {

char upper_ascii(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

/// `text` equals `upper_text` (upper case) ignoring the case of `text`.
bool iequals(std::string_view text, std::string_view upper_text) {
  if (text.size() != upper_text.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (upper_ascii(text[i]) != upper_text[i]) return false;
  }
  return true;
}

bool iends_with(std::string_view text, std::string_view upper_suffix) {
  return text.size() >= upper_suffix.size() &&
         iequals(text.substr(text.size() - upper_suffix.size()), upper_suffix);
}

// Real API tokens are 20 or more characters; a shorter word under a generic
// token name is a setting (`--pad_token eos`).
constexpr size_t kShortestCredential = 8;

// Name endings that mark a credential; alone (without the '_') they name one
// too when they are an option (`--token`, `--api-key`).
constexpr std::string_view kSecretSuffixes[] = {"_TOKEN",       "_API_KEY",    "_APIKEY",
                                                "_SECRET",      "_SECRET_KEY", "_ACCESS_KEY",
                                                "_PRIVATE_KEY", "_CREDENTIALS"};

constexpr std::string_view kKnownSecretNames[] = {"HF_TOKEN",
                                                  "TOKEN",
                                                  "WANDB_API_KEY",
                                                  "AWS_ACCESS_KEY_ID",
                                                  "AWS_SECRET_ACCESS_KEY",
                                                  "AWS_SESSION_TOKEN",
                                                  "HUGGING_FACE_HUB_TOKEN",
                                                  "GITHUB_TOKEN",
                                                  "OPENAI_API_KEY"};

/// A *_TOKEN name that may as well be a tokenizer's (PAD_TOKEN, MAX_TOKEN)
/// as a credential's: not a known credential variable nor an API, auth or
/// access token.
bool is_vocabulary_token_name(std::string_view name) {
  if (!iends_with(name, "TOKEN")) return false;
  for (std::string_view known : kKnownSecretNames) {
    if (iequals(name, known)) return false;
  }
  return !iends_with(name, "API_TOKEN") && !iends_with(name, "AUTH_TOKEN") &&
         !iends_with(name, "ACCESS_TOKEN");
}

}  // namespace

// Called for every assignment and option of a script: compares in place
// rather than upper-casing a copy of the name, after the one-pass test for
// the words every secret name holds.
bool is_secret_name(std::string_view name) {
  if (!may_name_secret_option(name)) return false;
  for (std::string_view suffix : kSecretSuffixes) {
    if (iends_with(name, suffix)) return true;
  }
  if (ascii_contains_ignoring_case(name, "password") ||
      ascii_contains_ignoring_case(name, "passwd"))
    return true;
  for (std::string_view known : kKnownSecretNames) {
    if (iequals(name, known)) return true;
  }
  return false;
}

bool could_be_credential(std::string_view name, std::string_view value) {
  if (value.empty()) return false;
  // Switches and empty settings: `--mm_use_im_patch_token False`.
  for (std::string_view word : {"TRUE", "FALSE", "YES", "NO", "ON", "OFF", "NONE", "NULL"}) {
    if (iequals(value, word)) return false;
  }
  // A file that holds the credential, not the credential.
  if (value.starts_with('/') || value.starts_with("./") || value.starts_with("../") ||
      value.starts_with('~')) {
    return false;
  }
  // Keys, passwords, secrets and the well-known token variables hold nothing
  // else: any other value is the credential or a placeholder for it.
  if (!is_vocabulary_token_name(name)) return true;
  // Other *_TOKEN names are as often a model's vocabulary (`--pad_token
  // "<pad>"`, `--eos_token=eos`) or a count (`--max_token 512`); a credential
  // there is a long random word.
  const bool number = value.find_first_not_of("0123456789.-+eE") == std::string_view::npos;
  const bool vocabulary = (value.front() == '<' && value.back() == '>') ||
                          (value.front() == '[' && value.back() == ']');
  const bool prose = value.find_first_of(" \t\n") != std::string_view::npos;
  return value.size() >= kShortestCredential && !number && !vocabulary && !prose;
}

bool is_secret_option_name(std::string_view name) {
  if (is_secret_name(name)) return true;
  for (std::string_view suffix : kSecretSuffixes) {
    if (iequals(name, suffix.substr(1))) return true;
  }
  return false;
}

bool may_name_secret_option(std::string_view name) {
  // Every secret name and suffix above holds one of these words. Asked of
  // every assignment and option, nearly all of which hold none: one pass
  // with a switch on the letter, not a search per word.
  for (size_t i = 0; i < name.size(); ++i) {
    const std::string_view rest = name.substr(i);
    switch (name[i] | 0x20) {  // lower case, for letters
      case 't':
        if (directives::detail::istarts_with(rest, "token")) return true;
        break;
      case 'k':
        if (directives::detail::istarts_with(rest, "key")) return true;
        break;
      case 's':
        if (directives::detail::istarts_with(rest, "secret")) return true;
        break;
      case 'p':
        if (directives::detail::istarts_with(rest, "passw")) return true;
        break;
      case 'c':
        if (directives::detail::istarts_with(rest, "credential")) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

namespace {

/// A value that means the same inserted quoted or not: no character the
/// shell reads, no leading `~`.
bool is_inert_word(std::string_view value) {
  return !value.empty() && value.front() != '~' &&
         std::all_of(value.begin(), value.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) ||
                  std::string_view("._-+:@%,=/").find(c) != std::string_view::npos;
         });
}

/// A PBS name's rule is that of the Slurm variable the plugin copies into
/// it, said to come from there. Where the Slurm name stays (the array
/// preamble sets it), the PBS one is renamed to it.
VariableRule rule_for_pbs_name(std::string_view name, const slurm::Job& job, const Compute& compute,
                               const std::string& job_name) {
  const std::string_view slurm_name = slurm_name_behind_pbs_name(name);
  if (slurm_name.empty()) return {};  // not Slurm's: inherited_variables.cpp reports it
  const std::string origin = "Slurm's spank_pbs plugin sets it from $" + std::string(slurm_name);
  VariableRule rule = rule_for(slurm_name, job, compute, job_name);
  switch (rule.action) {
    case VariableAction::keep:
      return rename(std::string(slurm_name), origin + ", which this workload sets");
    case VariableAction::rename:
      // Only sites that run the plugin set the PBS name: worth a note even
      // where the Slurm name's rename is exact.
      rule.exact = false;
      rule.reason = origin + "; " + rule.reason;
      return rule;
    case VariableAction::literal:
      rule.reason = origin + ", " + rule.reason;
      return rule;
    case VariableAction::report:
      rule.reason = "is set by Slurm's spank_pbs plugin from $" + std::string(slurm_name) +
                    ", which " + rule.reason;
      return rule;
  }
  return rule;
}

}  // namespace

std::string_view slurm_name_behind_pbs_name(std::string_view name) {
  // The plugin's copies of Slurm's values (contribs/pbs/spank_pbs.c). It
  // also sets PBS_JOBDIR (the task's working directory), PBS_TASKNUM (the
  // rank plus one) and PBS_O_* copies of the job's own environment, which
  // have no Slurm name; PBS_NODEFILE is never set.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kPbsNames = {{
      {"PBS_ARRAY_ID"sv, "SLURM_ARRAY_JOB_ID"sv},
      {"PBS_ARRAY_INDEX"sv, "SLURM_ARRAY_TASK_ID"sv},
      {"PBS_JOBID"sv, "SLURM_JOB_ID"sv},
      {"PBS_JOBNAME"sv, "SLURM_JOB_NAME"sv},
      {"PBS_NODENUM"sv, "SLURM_NODEID"sv},
      {"PBS_O_WORKDIR"sv, "SLURM_SUBMIT_DIR"sv},
  }};
  for (const auto& [pbs, slurm] : kPbsNames) {
    if (pbs == name) return slurm;
  }
  return {};
}

VariableRule rule_for(std::string_view name, const slurm::Job& job, const Compute& compute,
                      const std::string& job_name) {
  if (name.starts_with("PBS_")) return rule_for_pbs_name(name, job, compute, job_name);
  if (!name.starts_with("SLURM")) return {};
  const uint64_t tasks_per_node = air::tasks_per_node(job, compute);
  if (name == "SLURM_NNODES" || name == "SLURM_JOB_NUM_NODES" || name == "SLURM_STEP_NUM_NODES") {
    return rename("NUM_NODES", "AI Runtime sets NUM_NODES to the node count");
  }
  if (name == "SLURM_NODEID") {
    return rename("NODE_RANK", "AI Runtime sets NODE_RANK on each node");
  }
  if (name == "SLURM_GPUS_ON_NODE" || name == "SLURM_GPUS_PER_NODE" ||
      name == "SLURM_STEP_GPUS_ON_NODE") {
    if (compute.narrower_gpus_per_node != 0) {
      return {VariableAction::literal, std::to_string(compute.narrower_gpus_per_node), true,
              "the GPUs per node the job asked for; the " + compute.accelerator_type +
                  " node has " + std::to_string(compute.gpus_per_node) +
                  " ($LOCAL_WORLD_SIZE), and the others stay idle",
              "to use the whole node, write $LOCAL_WORLD_SIZE and check the batch size and "
              "learning rate for the larger world size"};
    }
    return rename("LOCAL_WORLD_SIZE", "AI Runtime sets LOCAL_WORLD_SIZE to the GPUs of the node");
  }
  if (name == "SLURM_NTASKS" || name == "SLURM_NPROCS" || name == "SLURM_STEP_NUM_TASKS") {
    if (tasks_per_node == 1) return rename("NUM_NODES", "one task per node: tasks = nodes");
    if (tasks_per_node == compute.gpus_per_node) {
      return rename("WORLD_SIZE", "one task per GPU: tasks = total GPUs = WORLD_SIZE");
    }
    // Slurm's value is known (`mpirun -np $SLURM_NTASKS` keeps its count);
    // what it counts is for the reader to check.
    if (const auto tasks = job.total_tasks()) {
      return {VariableAction::literal, std::to_string(*tasks), true,
              "the job's task count (--ntasks, or --ntasks-per-node times the nodes, or "
              "--ntasks-per-gpu times the GPUs)",
              "AI Runtime starts one command per node, not Slurm tasks: check that whatever "
              "this count sizes still starts that many processes"};
    }
    // `--ntasks-per-node=2` alone: slurmd counts it times the allocated nodes (env.c).
    if (job.ntasks_per_node && job.ntasks_per_node->value <= kMaxCount) {
      return {VariableAction::literal, std::to_string(job.ntasks_per_node->value * compute.nodes),
              true,
              "--ntasks-per-node times the workload's " + std::to_string(compute.nodes) +
                  " node(s), as slurmd counts it",
              "AI Runtime starts one command per node, not Slurm tasks: check that whatever "
              "this count sizes still starts that many processes"};
    }
    return unmapped("counts Slurm tasks, which AI Runtime does not start",
                    "compute it from NUM_NODES and your processes per node");
  }
  if (name == "SLURM_NTASKS_PER_NODE") {
    if (tasks_per_node == compute.gpus_per_node) {
      return rename("LOCAL_WORLD_SIZE", "one task per GPU: tasks per node = LOCAL_WORLD_SIZE");
    }
    if (job.ntasks_per_node) {
      return {VariableAction::literal, std::to_string(job.ntasks_per_node->value), true,
              "the value --ntasks-per-node requested",
              "AI Runtime starts one command per node, not Slurm tasks: check that whatever "
              "this count sizes still starts that many processes"};
    }
    return unmapped("counts Slurm tasks per node, which AI Runtime does not start",
                    "AI Runtime starts one command per node; LOCAL_WORLD_SIZE counts its GPUs");
  }
  if (name == "SLURM_SUBMIT_DIR") {
    return approximate("CODE_SOURCE_PATH", "the submission directory is uploaded as code_source",
                       "files outside code_source.root_path are not uploaded");
  }
  if (name == "SLURM_CPUS_PER_TASK" && job.cpus_per_task) {
    return {VariableAction::literal, std::to_string(job.cpus_per_task->value), true,
            "the value --cpus-per-task requested",
            "AI Runtime nodes have a fixed CPU count; `nproc` tells it on the node"};
  }
  // sbatch sets it to --gpus-per-task as written ("2", "a100:2"): a count
  // each of the script's own launches still uses per process.
  if (name == "SLURM_GPUS_PER_TASK") {
    const directives::Option* option = job.final_option("gpus-per-task");
    if (option != nullptr && option->value && is_inert_word(*option->value)) {
      return {VariableAction::literal, *option->value, true,
              "the value --gpus-per-task requested, as sbatch sets it",
              "AI Runtime starts one command per node with all its GPUs ($LOCAL_WORLD_SIZE): "
              "check that whatever this count sizes still fits"};
    }
  }
  if (name == "SLURM_CPUS_ON_NODE") return cpus_on_node_rule(job, tasks_per_node);
  // Alliance (Compute Canada) clusters' per-job directory on the node's local
  // disk, made by their prolog. The node's own temporary directory always exists.
  if (name == "SLURM_TMPDIR") {
    return {VariableAction::literal, "${TMPDIR:-/tmp}", false,
            "the node's local temporary directory, as the site's per-job one was",
            "it is not emptied when the run ends; for large data use the node's local disk "
            "(/local_disk0)"};
  }
  if (name == "SLURM_JOB_NAME") {
    if (is_inert_word(job_name)) {
      return {VariableAction::literal, job_name, true,
              "the job's name (--job-name, else the script's file name)", ""};
    }
    return unmapped("is the job's name, `" + job_name +
                        "`, which holds characters the shell reads; AI Runtime does not set it",
                    "write the name in its place, quoted");
  }
  if (is_array_preamble_variable(name) && has_array_preamble(job)) {
    // Set at the top of the command by bundle::adapt_workload (src/bundle/workflow.cpp).
    return {};
  }
  if (name == "SLURM_JOB_ID" || name == "SLURM_JOBID" || name == "SLURM_ARRAY_JOB_ID") {
    return unmapped("has no AI Runtime equivalent: there is no job id on the nodes",
                    "$MLFLOW_RUN_ID identifies the run; for ports use $MASTER_PORT");
  }
  if (name.starts_with("SLURM_ARRAY_TASK")) {
    return unmapped("has no AI Runtime equivalent: a workload is not an array",
                    "submit one run per index with --override parameters.index=N and read "
                    "$HYPERPARAMETERS_PATH, or use a bundle for_each_task");
  }
  // One task per node: srun's task is the node's only one.
  if (name == "SLURM_PROCID" && tasks_per_node == 1) {
    return rename("NODE_RANK", "one task per node: a task's rank is its node's rank");
  }
  if (name == "SLURM_LOCALID" && tasks_per_node == 1) {
    return {VariableAction::literal, "0", true, "one task per node: each node's only task", ""};
  }
  if (name == "SLURM_PROCID" || name == "SLURM_LOCALID") {
    return unmapped("is a per-task rank, and AI Runtime starts no tasks",
                    "the launcher (torchrun, accelerate, deepspeed) sets RANK and LOCAL_RANK");
  }
  if (name == "SLURM_RESTART_COUNT") {
    return unmapped("has no AI Runtime equivalent; each retry is a fresh run",
                    "resume from the newest checkpoint instead of counting restarts");
  }
  if (name == "SLURM_JOB_NODELIST" || name == "SLURM_NODELIST" || name == "SLURM_STEP_NODELIST") {
    return unmapped("has no AI Runtime equivalent: nodes are not listed",
                    "node 0's address is $MASTER_ADDR; NUM_NODES and NODE_RANK describe the rest");
  }
  // The node's name, which on most clusters is its short host name. Read in
  // the batch shell it was the first node's; each node now reads its own.
  if (name == "SLURMD_NODENAME") {
    return {VariableAction::literal, "$(hostname -s)", false,
            "the node's short host name, which Slurm's node names usually are; in the batch "
            "script it named the first node, now each node names itself",
            "node 0's address is $MASTER_ADDR"};
  }
  if (name == "SLURM_CPUS_PER_TASK") {
    return unmapped("is not set: the script gives no --cpus-per-task",
                    "use $(nproc) for the CPUs of the node");
  }
  if (!is_set_by_slurm(name)) return rule_for_name_slurm_does_not_set(name);
  return unmapped("has no AI Runtime equivalent", "remove it or compute the value in the script");
}

}  // namespace s2a::air
