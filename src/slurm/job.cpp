#include "slurm/job.hpp"

#include <algorithm>
#include <cctype>

#include "source/ascii.hpp"

namespace s2a::slurm {
namespace {

using directives::Option;

/// Runs a value grammar on an option and reports sbatch's rejection.
template <class T, class Parser>
std::optional<T> parse_value(const Option& option, Parser parser, Diagnostics& diagnostics) {
  auto parsed = parser(option.value.value_or(""));
  if (parsed) return *parsed.value;
  diagnostics.push_back({Code::invalid_option_value, option.span,
                         "sbatch rejects " + option.text() + ": " + parsed.error,
                         "correct the value; the option is left out of the translation"});
  return std::nullopt;
}

template <class T, class Parser>
void read(std::optional<Sourced<T>>& field, const Option* option, Parser parser,
          Diagnostics& diagnostics) {
  if (option == nullptr) return;
  if (auto value = parse_value<T>(*option, parser, diagnostics)) field = Sourced<T>{*value, option};
}

void read_string(std::optional<Sourced<std::string>>& field, const Option* option) {
  if (option != nullptr) field = Sourced<std::string>{option->value.value_or(""), option};
}

/// The GPU entries of a typed count list, or of --gres, folded into one request.
std::optional<GpuRequest> gpu_request_from_counts(const Option& option, GpuScope scope,
                                                  Diagnostics& diagnostics) {
  auto counts =
      parse_value<std::vector<values::TypedCount>>(option, values::parse_gpu_counts, diagnostics);
  if (!counts || counts->empty()) return std::nullopt;
  GpuRequest request{scope, 0, ascii_lower(counts->front().type), &option};
  for (const auto& entry : *counts) request.count += entry.count;
  if (request.count == 0) return std::nullopt;  // `--gpus=0`: a CPU job, as `--gres=gpu:0`
  if (counts->size() > 1) {
    diagnostics.push_back({Code::mixed_gpu_types, option.span,
                           "several GPU types in one request (" + *option.value +
                               "); AI Runtime nodes have one GPU type",
                           "request a single type; the counts are added up"});
  }
  return request;
}

std::optional<GpuRequest> gpu_request_from_gres(const Option& option, Diagnostics& diagnostics) {
  auto entries =
      parse_value<std::vector<values::GresEntry>>(option, values::parse_gres, diagnostics);
  if (!entries) return std::nullopt;
  std::optional<GpuRequest> request;
  for (const auto& entry : *entries) {
    // Hygon's DCU is a ROCm GPU under its own gres name (Sugon clusters).
    if (entry.name == "gpu" || entry.name == "dcu") {
      if (!request) request = GpuRequest{GpuScope::per_node, 0, ascii_lower(entry.type), &option};
      request->count += entry.count;
    } else {
      diagnostics.push_back({Code::gres_not_gpu, option.span,
                             "generic resource \"" + entry.name + "\" in " + option.text() +
                                 " has no AI Runtime equivalent",
                             "AI Runtime nodes come with fixed local resources; remove it"});
    }
  }
  return request;
}

/// GPU options in the order Slurm gives them precedence for "GPUs per node".
std::optional<GpuRequest> read_gpus(const Job& job, Diagnostics& diagnostics) {
  // `--gpus-per-node=` (empty) is accepted by sbatch and requests nothing
  // (Slurm 22.05 conformance oracle); it must not hide a --gres request.
  if (const Option* o = job.final_option("gpus-per-node"); o && !(o->value && o->value->empty())) {
    return gpu_request_from_counts(*o, GpuScope::per_node, diagnostics);
  }
  if (const Option* o = job.final_option("gres")) {
    if (auto request = gpu_request_from_gres(*o, diagnostics)) return request;
  }
  if (const Option* o = job.final_option("gpus")) {
    return gpu_request_from_counts(*o, GpuScope::total, diagnostics);
  }
  if (const Option* o = job.final_option("gpus-per-task")) {
    return gpu_request_from_counts(*o, GpuScope::per_task, diagnostics);
  }
  if (const Option* o = job.final_option("tres-per-task")) {
    auto tres = parse_value<std::vector<values::TresEntry>>(*o, values::parse_tres, diagnostics);
    if (tres) {
      for (const auto& entry : *tres) {
        if (entry.type == "gres" && entry.name == "gpu") {
          return GpuRequest{GpuScope::per_task, entry.count, ascii_lower(entry.subtype), o};
        }
      }
    }
  }
  if (const Option* o = job.final_option("exclusive"); o != nullptr && !o->value) {
    return GpuRequest{GpuScope::exclusive_node, 0, "", o};
  }
  return std::nullopt;
}

/// A keyword list check: the value (case-insensitive) must be one of `words`,
/// or start with one when `prefix` is set (sbatch checks only the first letters
/// of some options).
values::Parsed<bool> one_of(std::string_view value, std::initializer_list<std::string_view> words,
                            std::string_view what) {
  const std::string lowered = ascii_lower(value);
  for (std::string_view word : words) {
    if (lowered == word) return {true, ""};
  }
  std::string list;
  for (std::string_view word : words) list += (list.empty() ? "" : ", ") + std::string(word);
  return {std::nullopt, "invalid " + std::string(what) + " \"" + std::string(value) +
                            "\" (expected one of " + list + ")"};
}

/// `--distribution=<nodes>[:<sockets>[:<cores>]][,Pack|NoPack]` (spec 2.8;
/// sbatch's verify_dist_type() rejects anything else before submitting).
values::Parsed<bool> check_distribution(std::string_view value) {
  std::string text = ascii_lower(value);
  for (std::string_view suffix : {",pack", ",nopack"}) {
    if (text.size() > suffix.size() && text.ends_with(suffix)) {
      text.resize(text.size() - suffix.size());
      break;
    }
  }
  const auto fail = [&] {
    return values::Parsed<bool>{std::nullopt,
                                "invalid --distribution \"" + std::string(value) +
                                    "\" (expected block, cyclic, arbitrary or plane=<size>, "
                                    "optionally :block|cyclic|fcyclic for sockets and cores)"};
  };
  size_t part_index = 0;
  size_t begin = 0;
  while (true) {
    const size_t end = std::min(text.find(':', begin), text.size());
    const std::string_view part = std::string_view(text).substr(begin, end - begin);
    const bool ok = part_index == 0
                        ? (part == "*" || part == "block" || part == "cyclic" ||
                           part == "arbitrary" || part == "hostfile" || part == "plane" ||
                           (part.starts_with("plane=") && part.size() > 6 &&
                            part.find_first_not_of("0123456789", 6) == std::string_view::npos))
                        : (part == "*" || part == "block" || part == "cyclic" || part == "fcyclic");
    if (!ok || part_index > 2) return fail();
    if (end == text.size()) break;
    begin = end + 1;
    ++part_index;
  }
  return {true, ""};
}

/// `--gres-flags=` comma list (spec 2.5), case-insensitive.
values::Parsed<bool> check_gres_flags(std::string_view value) {
  const std::string text = ascii_lower(value);
  size_t begin = 0;
  while (true) {
    const size_t end = std::min(text.find(',', begin), text.size());
    const std::string_view flag = std::string_view(text).substr(begin, end - begin);
    if (flag != "disable-binding" && flag != "enforce-binding" &&
        flag != "multiple-tasks-per-sharing" && flag != "one-task-per-sharing") {
      return {std::nullopt, "invalid --gres-flags \"" + std::string(value) +
                                "\" (expected disable-binding, enforce-binding, "
                                "multiple-tasks-per-sharing or one-task-per-sharing)"};
    }
    if (end == text.size()) break;
    begin = end + 1;
  }
  return {true, ""};
}

/// `--begin=now[+|-count[unit]]` (spec 2.11): only full unit words are valid,
/// so the common `now+1h` is rejected by sbatch. Other --begin forms (dates,
/// clock times) are not checked here.
values::Parsed<bool> check_begin(std::string_view value) {
  const std::string text = ascii_lower(value);
  if (!text.starts_with("now") || text.size() == 3) return {true, ""};
  size_t i = 3;
  if (text[i] != '+' && text[i] != '-') return {true, ""};  // e.g. a later piece: not checked
  ++i;
  const size_t digits_begin = i;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  const std::string_view unit = std::string_view(text).substr(i);
  bool ok = i > digits_begin;
  if (ok && !unit.empty()) {
    ok = false;
    for (std::string_view word : {"second", "minute", "hour", "day", "week"}) {
      if (unit == word ||
          (unit.size() == word.size() + 1 && unit.starts_with(word) && unit.back() == 's')) {
        ok = true;
      }
    }
  }
  if (ok) return {true, ""};
  return {std::nullopt, "invalid --begin \"" + std::string(value) +
                            "\": after now+ give a count and a full unit word (seconds, "
                            "minutes, hours, days or weeks), e.g. now+1hour"};
}

/// Values of options the mapping does not read but sbatch validates: the
/// script is rejected for them, so the report must say so.
void validate_other_values(const Job& job, Diagnostics& diagnostics) {
  auto check = [&](std::string_view name, auto parser) {
    if (const Option* o = job.final_option(name); o != nullptr && o->value) {
      (void)parse_value<std::decay_t<decltype(*parser(std::string_view()).value)>>(*o, parser,
                                                                                   diagnostics);
    }
  };
  check("time-min", values::parse_time);
  check("signal", values::parse_signal);
  check("tmp", values::parse_memory_mib);
  check("cpus-per-gpu", values::parse_positive_int);
  check("ntasks-per-socket", values::parse_positive_int);
  check("ntasks-per-core", values::parse_positive_int);
  check("export", values::parse_export);
  check("exclusive", [](std::string_view v) {
    return one_of(v, {"user", "mcs", "topo", "exclusive", "allocation", "oversubscribe"},
                  "--exclusive mode");
  });
  check("distribution", check_distribution);
  check("gres-flags", check_gres_flags);
  check("begin", check_begin);
  check("requeue", [](std::string_view v) { return one_of(v, {"expedite"}, "--requeue mode"); });
  check("kill-on-invalid-dep", [](std::string_view v) {
    return one_of(v, {"yes", "no"}, "--kill-on-invalid-dep value");
  });
  check("hint", [](std::string_view v) {
    return one_of(v, {"compute_bound", "memory_bound", "multithread", "nomultithread", "help"},
                  "--hint");
  });
  check("open-mode", [](std::string_view v) {
    const char first =
        v.empty() ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(v[0])));
    return first == 'a' || first == 't'
               ? values::Parsed<bool>{true, ""}
               : values::Parsed<bool>{std::nullopt, "invalid --open-mode \"" + std::string(v) +
                                                        "\" (expected append or truncate)"};
  });
  if (const Option* o = job.final_option("gpus-per-socket");
      o && !job.final_option("sockets-per-node")) {
    diagnostics.push_back({Code::invalid_option_value, o->span,
                           "sbatch rejects --gpus-per-socket without --sockets-per-node",
                           "add --sockets-per-node, or request GPUs per node"});
  }
  if (const Option* o = job.final_option("gpus-per-task"); o && !job.final_option("ntasks") &&
                                                           !job.final_option("ntasks-per-node") &&
                                                           !job.final_option("gpus")) {
    diagnostics.push_back({Code::invalid_option_value, o->span,
                           "sbatch rejects --gpus-per-task without a task count",
                           "add --ntasks (or --ntasks-per-node with --nodes)"});
  }
}

void report_overridden(const directives::ScanResult& scan, const Job& job,
                       Diagnostics& diagnostics) {
  for (const Option& option : scan.options) {
    if (!option.overridden || option.component != 0) continue;
    const Option* winner = job.final_option(option.name());
    std::string message =
        option.text() + " is overridden by a later " + (winner ? winner->text() : option.spelling);
    diagnostics.push_back({Code::option_overridden, option.span, message,
                           "sbatch keeps the last occurrence; delete the earlier one"});
  }
}

/// Every --mail-type adds to one set (a NONE clears only its own value):
/// END on one line and FAIL on the next mail on both. `from` is the last.
std::optional<Sourced<std::vector<std::string>>> read_mail_types(const directives::ScanResult& scan,
                                                                 Diagnostics& diagnostics) {
  std::optional<Sourced<std::vector<std::string>>> out;
  for (const Option& option : scan.options) {
    if (option.component != 0 || option.name() != "mail-type") continue;
    auto types = parse_value<values::MailTypes>(option, values::parse_mail_type, diagnostics);
    if (!types) continue;
    if (!out) out.emplace(Sourced<std::vector<std::string>>{{}, &option});
    out->from = &option;
    for (std::string& type : types->types) {
      if (std::find(out->value.begin(), out->value.end(), type) == out->value.end()) {
        out->value.push_back(std::move(type));
      }
    }
  }
  return out;
}

/// The node and task counts, which decide how GPUs per task or in total
/// fall on each node.
void read_task_counts(Job& job, Diagnostics& diagnostics) {
  read(job.nodes, job.final_option("nodes"), values::parse_nodes, diagnostics);
  read(job.ntasks, job.final_option("ntasks"), values::parse_positive_int, diagnostics);
  read(job.ntasks_per_node, job.final_option("ntasks-per-node"), values::parse_positive_int,
       diagnostics);
  read(job.ntasks_per_gpu, job.final_option("ntasks-per-gpu"), values::parse_positive_int,
       diagnostics);
}

}  // namespace

Job build_job(const directives::ScanResult& scan, Diagnostics& diagnostics) {
  Job job;
  job.final_options.reserve(scan.options.size());
  for (const Option& option : scan.options) {
    if (option.component == 0 && !option.overridden) {
      job.final_options.insert_or_assign(option.name(), &option);
    }
  }
  report_overridden(scan, job, diagnostics);
  if (scan.components > 1) {
    for (const Option& option : scan.options) {
      if (option.component == 0) continue;
      diagnostics.push_back({Code::hetjob_component_ignored, option.span,
                             "option of het-job component " + std::to_string(option.component) +
                                 " is not translated; AI Runtime runs one node shape per workload",
                             "translate each component as its own workload, or use one shape"});
    }
  }

  read_string(job.name, job.final_option("job-name"));
  read_string(job.partition, job.final_option("partition"));
  read_string(job.constraint, job.final_option("constraint"));
  read_task_counts(job, diagnostics);
  read(job.cpus_per_task, job.final_option("cpus-per-task"), values::parse_positive_int,
       diagnostics);
  read(job.time, job.final_option("time"), values::parse_time, diagnostics);
  read(job.mem_per_node_mib, job.final_option("mem"), values::parse_memory_mib, diagnostics);
  read(job.mem_per_cpu_mib, job.final_option("mem-per-cpu"), values::parse_memory_mib, diagnostics);
  read(job.mem_per_gpu_mib, job.final_option("mem-per-gpu"), values::parse_memory_mib, diagnostics);
  read_string(job.exclusive, job.final_option("exclusive"));
  read_string(job.array, job.final_option("array"));
  read_string(job.dependency, job.final_option("dependency"));
  read_string(job.mail_user, job.final_option("mail-user"));
  read_string(job.account, job.final_option("account"));
  // slurmctld keeps account names in lower case (`-A ABC123` runs as abc123).
  if (job.account) job.account->value = ascii_lower(job.account->value);
  read_string(job.qos, job.final_option("qos"));
  read_string(job.reservation, job.final_option("reservation"));
  read_string(job.chdir, job.final_option("chdir"));
  read_string(job.container_image, job.final_option("container-image"));
  job.mail_type = read_mail_types(scan, diagnostics);
  if (const Option* o = job.final_option("array")) {
    (void)parse_value<values::ArraySpec>(*o, values::parse_array, diagnostics);
  }
  if (const Option* o = job.final_option("dependency")) {
    (void)parse_value<values::Dependency>(*o, values::parse_dependency, diagnostics);
  }
  // --requeue and --no-requeue are one setting: the later of the two wins.
  const Option* requeue = job.final_option("requeue");
  const Option* no_requeue = job.final_option("no-requeue");
  if (requeue && (!no_requeue || requeue->span.begin > no_requeue->span.begin)) {
    job.requeue = Sourced<bool>{true, requeue};
  } else if (no_requeue) {
    job.requeue = Sourced<bool>{false, no_requeue};
  }
  job.gpus = read_gpus(job, diagnostics);
  validate_other_values(job, diagnostics);
  return job;
}

Job step_view(const Job& job, std::span<const directives::Option> step_options) {
  Job step = job;
  for (const Option& option : step_options) {
    if (!option.overridden) step.final_options.insert_or_assign(option.name(), &option);
  }
  // srun's own checks are not sbatch's: a value it cannot read leaves the
  // job's in place and is not reported here.
  Diagnostics unreported;
  read_task_counts(step, unreported);
  step.gpus = read_gpus(step, unreported);
  return step;
}

const Option* Job::final_option(std::string_view option_name) const {
  const auto it = final_options.find(option_name);
  return it == final_options.end() ? nullptr : it->second;
}

std::optional<uint64_t> Job::node_count() const {
  if (nodes) return nodes->value.min;
  if (ntasks && ntasks_per_node && ntasks_per_node->value > 0) {
    return (ntasks->value + ntasks_per_node->value - 1) / ntasks_per_node->value;
  }
  return std::nullopt;
}

namespace {

/// a * b, or nothing when the product does not fit.
std::optional<uint64_t> times(uint64_t a, std::optional<uint64_t> b) {
  if (!b || (a != 0 && *b > UINT64_MAX / a)) return std::nullopt;
  return a * *b;
}

}  // namespace

std::optional<uint64_t> Job::tasks_per_node() const {
  if (ntasks_per_node) return ntasks_per_node->value;
  if (ntasks) {
    if (const auto n = node_count(); n && *n > 0 && ntasks->value % *n == 0) {
      return ntasks->value / *n;
    }
    return std::nullopt;
  }
  if (!tasks_follow_gpus()) return std::nullopt;
  return times(ntasks_per_gpu->value, gpus_per_node());
}

std::optional<uint64_t> Job::total_tasks() const {
  if (ntasks) return ntasks->value;
  if (ntasks_per_node) {
    if (const auto n = node_count()) return *n * ntasks_per_node->value;
    return std::nullopt;
  }
  if (!tasks_follow_gpus()) return std::nullopt;
  return times(ntasks_per_gpu->value, total_gpus());
}

/// --ntasks-per-gpu without -n: that many tasks for each GPU. sbatch rejects
/// it with --gpus-per-task and --ntasks-per-node; the check keeps the GPUs
/// from being counted from the tasks all the same.
bool Job::tasks_follow_gpus() const {
  return ntasks_per_gpu && !(gpus && gpus->scope == GpuScope::per_task);
}

std::optional<uint64_t> Job::gpus_per_node() const {
  if (!gpus) return std::nullopt;
  switch (gpus->scope) {
    case GpuScope::per_node:
      return gpus->count;
    case GpuScope::per_task:
      if (const auto t = tasks_per_node()) return gpus->count * *t;
      return std::nullopt;
    case GpuScope::total: {
      const uint64_t nodes_count = node_count().value_or(1);
      if (nodes_count > 0 && gpus->count % nodes_count == 0) return gpus->count / nodes_count;
      return std::nullopt;
    }
    case GpuScope::exclusive_node:
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<uint64_t> Job::total_gpus() const {
  if (gpus && gpus->scope == GpuScope::total) return gpus->count;
  if (const auto per_node = gpus_per_node()) return *per_node * node_count().value_or(1);
  if (gpus && gpus->scope == GpuScope::per_task) {
    if (const auto tasks = total_tasks()) return gpus->count * *tasks;
  }
  return std::nullopt;
}

std::string Job::gpu_type() const { return gpus ? gpus->type : std::string(); }

}  // namespace s2a::slurm
