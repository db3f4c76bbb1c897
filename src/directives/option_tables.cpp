// The option tables of sbatch and srun, row for row as Slurm registers them.
//
// Read from Slurm's src/common/slurm_opt.c (common_options[], at the commit
// named in spec/slurm-sbatch.md) plus the SPANK plugins people use for
// training (pyxis, shifter, CSCS) and options older releases had. Prefix
// ambiguity depends on the table being complete, hence the hidden ones too.
#include <vector>

#include "directives/directives.hpp"

namespace s2a::directives {
namespace {

constexpr ArgKind kNone = ArgKind::none;
constexpr ArgKind kReq = ArgKind::required;
constexpr ArgKind kOpt = ArgKind::optional;

// Which programs register an option.
enum Programs : uint8_t { kSbatch = 1, kSrun = 2, kBoth = 3 };

struct Row {
  Programs programs;
  OptionSpec spec;
};

constexpr OptionSpec slurm(std::string_view name, char short_name, ArgKind arg,
                           std::string_view alias_of = {}) {
  return OptionSpec{name, short_name, arg, OptionOrigin::slurm, alias_of};
}

// Honoured only on sbatch's command line (sbatch_early_pass in slurm_opt.c).
constexpr OptionSpec early(std::string_view name, char short_name, ArgKind arg) {
  return OptionSpec{name, short_name, arg, OptionOrigin::early_pass};
}

constexpr OptionSpec plugin(std::string_view name, ArgKind arg, std::string_view plugin_name) {
  return OptionSpec{name, 0, arg, OptionOrigin::plugin, {}, plugin_name};
}

constexpr OptionSpec removed(std::string_view name, ArgKind arg, std::string_view replacement,
                             std::string_view removed_in) {
  return OptionSpec{name, 0, arg, OptionOrigin::removed, {}, {}, replacement, removed_in};
}

constexpr std::string_view kPyxis = "pyxis";
constexpr std::string_view kShifter = "shifter";
constexpr std::string_view kCscs = "CSCS Container Engine";
constexpr std::string_view kEar = "EAR (Energy Aware Runtime)";

// clang-format off
const Row kRows[] = {
  // Options of sbatch and srun (set_func, or both set_func_sbatch and _srun).
  {kBoth, slurm("account", 'A', kReq)},
  {kBoth, slurm("acctg-freq", 0, kReq)},
  {kBoth, slurm("autocomplete", 0, kReq)},  // hidden: shell completion helper
  {kBoth, slurm("begin", 'b', kReq)},
  {kBoth, slurm("bb", 0, kReq)},
  {kBoth, slurm("bbf", 0, kReq)},
  {kBoth, slurm("chdir", 'D', kReq)},
  {kBoth, slurm("cluster", 0, kReq, "clusters")},
  {kBoth, slurm("cluster-constraint", 0, kReq)},
  {kBoth, slurm("clusters", 'M', kReq)},
  {kBoth, slurm("comment", 0, kReq)},
  {kBoth, slurm("consolidate-segments", 0, kNone)},
  {kBoth, slurm("constraint", 'C', kReq)},
  {kBoth, slurm("container", 0, kReq)},
  {kBoth, slurm("container-id", 0, kReq)},
  {kBoth, slurm("context", 0, kReq)},
  {kBoth, slurm("contiguous", 0, kNone)},
  {kBoth, slurm("core-spec", 'S', kReq)},
  {kBoth, slurm("cores-per-socket", 0, kReq)},
  {kBoth, slurm("cpu-freq", 0, kReq)},
  {kBoth, slurm("cpus-per-gpu", 0, kReq)},
  {kBoth, slurm("cpus-per-task", 'c', kReq)},
  {kBoth, slurm("deadline", 0, kReq)},
  {kBoth, slurm("delay-boot", 0, kReq)},
  {kBoth, slurm("dependency", 'd', kReq)},
  {kBoth, slurm("distribution", 'm', kReq)},
  {kBoth, slurm("error", 'e', kReq)},
  {kBoth, slurm("exclude", 'x', kReq)},
  {kBoth, slurm("exclusive", 0, kOpt)},
  {kBoth, slurm("export", 0, kReq)},
  {kBoth, slurm("extra", 0, kReq)},
  {kBoth, slurm("extra-node-info", 'B', kReq)},
  {kBoth, slurm("gpu-bind", 0, kReq)},
  {kBoth, slurm("gpu-freq", 0, kReq)},
  {kBoth, slurm("gpus", 'G', kReq)},
  {kBoth, slurm("gpus-per-node", 0, kReq)},
  {kBoth, slurm("gpus-per-socket", 0, kReq)},
  {kBoth, slurm("gpus-per-task", 0, kReq)},
  {kBoth, slurm("gres", 0, kReq)},
  {kBoth, slurm("gres-flags", 0, kReq)},
  {kBoth, slurm("hint", 0, kReq)},
  {kBoth, slurm("hold", 'H', kNone)},
  {kBoth, slurm("input", 'i', kReq)},
  {kBoth, slurm("job-name", 'J', kReq)},
  {kBoth, slurm("licenses", 'L', kReq)},
  {kBoth, slurm("mail-type", 0, kReq)},
  {kBoth, slurm("mail-user", 0, kReq)},
  {kBoth, slurm("mcs-label", 0, kReq)},
  {kBoth, slurm("mem", 0, kReq)},
  {kBoth, slurm("mem-bind", 0, kReq)},
  {kBoth, slurm("mem-per-cpu", 0, kReq)},
  {kBoth, slurm("mem-per-gpu", 0, kReq)},
  {kBoth, slurm("mem-update", 0, kReq)},
  {kBoth, slurm("mincpus", 0, kReq)},
  {kBoth, slurm("network", 0, kReq)},
  {kBoth, slurm("nice", 0, kOpt)},
  {kBoth, slurm("no-kill", 'k', kOpt)},
  {kBoth, slurm("nodefile", 'F', kReq)},
  {kBoth, slurm("nodelist", 'w', kReq)},
  {kBoth, slurm("nodes", 'N', kReq)},
  {kBoth, slurm("ntasks", 'n', kReq)},
  {kBoth, slurm("ntasks-per-core", 0, kReq)},
  {kBoth, slurm("ntasks-per-gpu", 0, kReq)},
  {kBoth, slurm("ntasks-per-node", 0, kReq)},
  {kBoth, slurm("ntasks-per-socket", 0, kReq)},
  {kBoth, slurm("ntasks-per-tres", 0, kReq)},
  {kBoth, slurm("oom-kill-step", 0, kOpt)},
  {kBoth, slurm("open-mode", 0, kReq)},
  {kBoth, slurm("output", 'o', kReq)},
  {kBoth, slurm("overcommit", 'O', kNone)},
  {kBoth, slurm("oversubscribe", 's', kNone)},
  {kBoth, slurm("parsable", 0, kNone)},
  {kBoth, slurm("partition", 'p', kReq)},
  {kBoth, slurm("prefer", 0, kReq)},
  {kBoth, slurm("priority", 0, kReq)},
  {kBoth, slurm("profile", 0, kReq)},
  {kBoth, slurm("propagate", 0, kOpt)},
  {kBoth, slurm("qos", 'q', kReq)},
  {kBoth, slurm("reboot", 0, kNone)},
  {kBoth, slurm("reservation", 0, kReq)},
  {kBoth, slurm("resources", 0, kReq)},
  {kBoth, slurm("resv-ports", 0, kOpt)},
  {kBoth, slurm("runtime", 0, kReq)},
  {kBoth, slurm("segment", 0, kReq)},
  {kBoth, slurm("signal", 0, kReq)},
  {kBoth, slurm("sockets-per-node", 0, kReq)},
  {kBoth, slurm("spread-job", 0, kNone)},
  {kBoth, slurm("spread-segments", 0, kNone)},
  {kBoth, slurm("stepmgr", 0, kNone)},
  {kBoth, slurm("switches", 0, kReq)},
  {kBoth, slurm("tasks-per-node", 0, kReq, "ntasks-per-node")},
  {kBoth, slurm("test-only", 0, kNone)},
  {kBoth, slurm("thread-spec", 0, kReq)},
  {kBoth, slurm("threads-per-core", 0, kReq)},
  {kBoth, slurm("time", 't', kReq)},
  {kBoth, slurm("time-min", 0, kReq)},
  {kBoth, slurm("tmp", 0, kReq)},
  {kBoth, slurm("tres-bind", 0, kReq)},
  {kBoth, slurm("tres-per-task", 0, kReq)},
  {kBoth, slurm("use-min-nodes", 0, kNone)},
  {kBoth, slurm("wckey", 0, kReq)},

  // sbatch only.
  {kSbatch, slurm("array", 'a', kReq)},
  {kSbatch, slurm("batch", 0, kReq)},
  {kSbatch, slurm("export-file", 0, kReq)},
  {kSbatch, slurm("external", 0, kNone)},
  {kSbatch, slurm("get-user-env", 0, kOpt)},  // [=timeout][mode]: `=L`, `=60S`
  {kSbatch, slurm("gid", 0, kReq)},
  {kSbatch, slurm("ignore-pbs", 0, kNone)},
  {kSbatch, slurm("kill-on-invalid-dep", 0, kReq)},
  {kSbatch, slurm("no-requeue", 0, kNone)},
  {kSbatch, slurm("requeue", 0, kOpt)},
  {kSbatch, slurm("uid", 0, kReq)},
  {kSbatch, slurm("wait", 'W', kNone)},
  {kSbatch, slurm("wait-all-nodes", 0, kReq)},
  {kSbatch, early("help", 'h', kNone)},
  {kSbatch, early("quiet", 'Q', kNone)},
  {kSbatch, early("usage", 0, kNone)},
  {kSbatch, early("verbose", 'v', kNone)},
  {kSbatch, early("version", 'V', kNone)},
  {kSbatch, early("wrap", 0, kReq)},

  // srun only (the early-pass options are ordinary ones for srun).
  {kSrun, slurm("help", 'h', kNone)},
  {kSrun, slurm("quiet", 'Q', kNone)},
  {kSrun, slurm("usage", 0, kNone)},
  {kSrun, slurm("verbose", 'v', kNone)},
  {kSrun, slurm("version", 'V', kNone)},
  {kSrun, slurm("accel-bind", 0, kReq)},
  {kSrun, slurm("async", 0, kNone)},
  {kSrun, slurm("bcast", 0, kOpt)},
  {kSrun, slurm("bcast-exclude", 0, kReq)},
  {kSrun, slurm("compress", 0, kOpt)},
  {kSrun, slurm("cpu-bind", 0, kReq)},
  {kSrun, slurm("cpu_bind", 0, kReq, "cpu-bind")},
  {kSrun, slurm("debugger-test", 0, kNone)},
  {kSrun, slurm("disable-status", 'X', kNone)},
  {kSrun, slurm("epilog", 0, kReq)},
  {kSrun, slurm("exact", 0, kNone)},
  {kSrun, slurm("external-launcher", 0, kOpt)},
  {kSrun, slurm("het-group", 0, kReq)},
  {kSrun, slurm("ignore-signals", 0, kReq)},
  {kSrun, slurm("immediate", 'I', kOpt)},
  {kSrun, slurm("interactive", 0, kNone)},
  {kSrun, slurm("jobid", 0, kReq)},
  {kSrun, slurm("kill-on-bad-exit", 'K', kOpt)},
  {kSrun, slurm("label", 'l', kNone)},
  {kSrun, slurm("mpi", 0, kReq)},
  {kSrun, slurm("msg-timeout", 0, kReq)},
  {kSrun, slurm("multi-prog", 0, kNone)},
  {kSrun, slurm("no-allocate", 'Z', kNone)},
  {kSrun, slurm("overlap", 0, kOpt)},
  {kSrun, slurm("pack-group", 0, kReq, "het-group")},
  {kSrun, slurm("preserve-env", 'E', kNone)},
  {kSrun, slurm("prolog", 0, kReq)},
  {kSrun, slurm("pty", 0, kOpt)},
  {kSrun, slurm("quit-on-interrupt", 0, kNone)},
  {kSrun, slurm("relative", 'r', kReq)},
  {kSrun, slurm("send-libs", 0, kOpt)},
  {kSrun, slurm("slurmd-debug", 0, kReq)},
  {kSrun, slurm("task-epilog", 0, kReq)},
  {kSrun, slurm("task-prolog", 0, kReq)},
  {kSrun, slurm("threads", 'T', kReq)},
  {kSrun, slurm("treewidth", 0, kReq)},
  {kSrun, slurm("unbuffered", 'u', kNone)},
  {kSrun, slurm("wait", 'W', kReq)},  // seconds to wait after the first task exits
  {kSrun, slurm("wait-for-children", 0, kNone)},
  {kSrun, slurm("whole", 0, kNone)},
  {kSrun, slurm("x11", 0, kOpt)},

  // SPANK plugins: pyxis (NVIDIA/pyxis args.c; has_arg 1 = required, 0 = flag).
  {kBoth, plugin("container-image", kReq, kPyxis)},
  {kBoth, plugin("container-mounts", kReq, kPyxis)},
  {kBoth, plugin("container-workdir", kReq, kPyxis)},
  {kBoth, plugin("container-name", kReq, kPyxis)},
  {kBoth, plugin("container-save", kReq, kPyxis)},
  {kBoth, plugin("container-mount-home", kNone, kPyxis)},
  {kBoth, plugin("no-container-mount-home", kNone, kPyxis)},
  {kBoth, plugin("container-remap-root", kNone, kPyxis)},
  {kBoth, plugin("no-container-remap-root", kNone, kPyxis)},
  {kBoth, plugin("container-entrypoint", kNone, kPyxis)},
  {kBoth, plugin("no-container-entrypoint", kNone, kPyxis)},
  {kBoth, plugin("container-entrypoint-log", kNone, kPyxis)},
  {kBoth, plugin("container-writable", kNone, kPyxis)},
  {kBoth, plugin("container-readonly", kNone, kPyxis)},
  {kBoth, plugin("container-env", kReq, kPyxis)},
  {kBoth, plugin("container-unshare", kReq, kPyxis)},
  // shifter (NERSC) and the CSCS Container Engine (EDF files).
  {kBoth, plugin("image", kReq, kShifter)},
  {kBoth, plugin("module", kReq, kShifter)},
  {kBoth, plugin("environment", kReq, kCscs)},
  // EAR's energy management (BSC; MareNostrum, SuperMUC-NG, Lenox).
  {kBoth, plugin("ear", kReq, kEar)},
  {kBoth, plugin("ear-policy", kReq, kEar)},
  {kBoth, plugin("ear-cpufreq", kReq, kEar)},
  {kBoth, plugin("ear-policy-th", kReq, kEar)},
  {kBoth, plugin("ear-user-db", kReq, kEar)},
  {kBoth, plugin("ear-verbose", kReq, kEar)},
  {kBoth, plugin("ear-learning", kReq, kEar)},
  {kBoth, plugin("ear-tag", kReq, kEar)},
  {kBoth, plugin("ear-mpi-dist", kReq, kEar)},

  // Removed from Slurm; sbatch/srun now reject them as unknown.
  {kBoth, removed("workdir", kReq, "--chdir", "19.05")},
  {kBoth, removed("share", kNone, "--oversubscribe", "19.05")},
  {kBoth, removed("mem_bind", kReq, "--mem-bind", "19.05")},
  {kSbatch, removed("jobid", kReq, "", "19.05")},
  {kBoth, removed("checkpoint", kReq, "", "20.02")},
  {kBoth, removed("checkpoint-dir", kReq, "", "20.02")},
  {kBoth, removed("power", kReq, "", "24.05")},
};
// clang-format on

std::vector<OptionSpec> specs_for(Programs program) {
  std::vector<OptionSpec> specs;
  for (const Row& row : kRows) {
    if ((row.programs & program) != 0) specs.push_back(row.spec);
  }
  return specs;
}

}  // namespace

OptionTable::OptionTable(std::span<const OptionSpec> specs) : specs_(specs) {
  // Of two specs with one long name, the first in the table wins.
  for (const OptionSpec& spec : specs) {
    by_long_name_.try_emplace(spec.long_name, &spec);
    auto& by_letter = by_short_name_[static_cast<unsigned char>(spec.short_name)];
    if (spec.short_name != 0 && by_letter == nullptr) by_letter = &spec;
  }
}

const OptionSpec* OptionTable::find(std::string_view long_name) const {
  const auto it = by_long_name_.find(long_name);
  return it == by_long_name_.end() ? nullptr : it->second;
}

const OptionSpec* OptionTable::find_short(char short_name) const {
  return by_short_name_[static_cast<unsigned char>(short_name)];
}

const OptionTable& sbatch_options() {
  static const std::vector<OptionSpec> specs = specs_for(kSbatch);
  static const OptionTable table{specs};
  return table;
}

const OptionTable& srun_options() {
  static const std::vector<OptionSpec> specs = specs_for(kSrun);
  static const OptionTable table{specs};
  return table;
}

bool option_accumulates(const OptionSpec& spec) {
  // -v raises the log level per occurrence; pyxis appends every
  // --container-mounts / --container-env value to its list; sbatch ORs every
  // --mail-type into one set (arg_set_mail_type: `opt->mail_type |= ...`).
  const std::string_view name = spec.canonical();
  return name == "verbose" || name == "container-mounts" || name == "container-env" ||
         name == "mail-type";
}

}  // namespace s2a::directives
