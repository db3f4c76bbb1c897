// Grammars for option values (time, nodes, GPUs, memory, arrays, ...).
//
// Each parser takes the option value exactly as sbatch hands it to the
// option's setter (quotes already removed) and returns either the typed value
// or an error message saying what is wrong, worded for a user. The grammars
// follow Slurm's own parsers (spec/slurm-sbatch.md §2); the cited function
// names are in each definition file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s2a::values {

template <class T>
struct Parsed {
  std::optional<T> value;
  std::string error;  // empty on success

  explicit operator bool() const { return value.has_value(); }
  const T& operator*() const { return *value; }
  const T* operator->() const { return &*value; }
};

// --time, --time-min: m, m:s, h:m:s, d-h, d-h:m, d-h:m:s, UNLIMITED/INFINITE/-1.
struct TimeLimit {
  bool unlimited = false;  // UNLIMITED, INFINITE, -1, or a total of 0
  uint64_t minutes = 0;    // seconds rounded up

  bool operator==(const TimeLimit&) const = default;
};
[[nodiscard]] Parsed<TimeLimit> parse_time(std::string_view text);

// --nodes: N, min-max, or a size list (2,4,8 / 1-15:4); k/m suffixes on N and min-max.
struct NodeCount {
  uint64_t min = 0;
  uint64_t max = 0;
  std::vector<uint64_t> sizes;  // only for the list form: sorted, each once (Slurm's bitmap)

  bool operator==(const NodeCount&) const = default;
};
[[nodiscard]] Parsed<NodeCount> parse_nodes(std::string_view text);

// --ntasks, --ntasks-per-node, --cpus-per-task, ...: a positive decimal integer.
[[nodiscard]] Parsed<uint64_t> parse_positive_int(std::string_view text);

// --gpus, --gpus-per-node, --gpus-per-task, --gpus-per-socket: [type:]N[,[type:]N...]
struct TypedCount {
  std::string type;  // empty when not given
  uint64_t count = 0;

  bool operator==(const TypedCount&) const = default;
};
[[nodiscard]] Parsed<std::vector<TypedCount>> parse_gpu_counts(std::string_view text);

// --gres: name[[:type]:count][,...], optional "gres/" prefix; "none".
struct GresEntry {
  std::string name;  // "gpu", "nvme", ...
  std::string type;  // "a100", or empty
  uint64_t count = 1;

  bool operator==(const GresEntry&) const = default;
};
[[nodiscard]] Parsed<std::vector<GresEntry>> parse_gres(std::string_view text);

// --tres-per-task: type[/name[:subtype]]=count list, e.g. "gres/gpu:a100=2,cpu=4".
struct TresEntry {
  std::string type;     // "cpu", "gres", "mem", "license", ...
  std::string name;     // "gpu" for gres/gpu
  std::string subtype;  // "a100"
  uint64_t count = 0;

  bool operator==(const TresEntry&) const = default;
};
[[nodiscard]] Parsed<std::vector<TresEntry>> parse_tres(std::string_view text);

// --mem, --mem-per-cpu, --mem-per-gpu, --tmp: integer + optional K/M/G/T (+B), MiB default.
[[nodiscard]] Parsed<uint64_t> parse_memory_mib(std::string_view text);

// --array: N, N-M, N-M:S lists, optional [..], optional %limit.
struct ArrayRange {
  uint64_t first = 0;
  uint64_t last = 0;
  uint64_t step = 1;

  bool operator==(const ArrayRange&) const = default;
};
struct ArraySpec {
  std::vector<ArrayRange> ranges;
  std::optional<uint64_t> max_running;  // from %P
  // Number of distinct indices, computed without materialising ranges. Exact
  // except for overlapping *stepped* ranges spanning more than 2^24 indices,
  // where it returns the sum of the range sizes (an upper bound).
  [[nodiscard]] uint64_t count() const;
  bool operator==(const ArraySpec&) const = default;
};
[[nodiscard]] Parsed<ArraySpec> parse_array(std::string_view text);

// --dependency: item(,item)* or item(?item)*; item = singleton | jobid | type:spec(:spec)*
struct DependencyTarget {
  std::string job;   // job id or a shell expansion such as "$jid" kept verbatim
  std::string task;  // array task ("3", "*", "[1-3]"), empty if none
  std::optional<uint64_t> plus_minutes;
  std::string state;  // "(state)" suffix as written, e.g. "failed"; empty if none

  bool operator==(const DependencyTarget&) const = default;
};
struct DependencyItem {
  std::string type;  // after, afterany, afterok, afternotok, aftercorr,
                     // afterburstbuffer, expand, singleton (lower case)
  std::vector<DependencyTarget> targets;

  bool operator==(const DependencyItem&) const = default;
};
struct Dependency {
  bool any = false;                   // joined with '?' instead of ','
  std::vector<DependencyItem> items;  // empty for "" or "0" (clears)

  bool operator==(const Dependency&) const = default;
};
[[nodiscard]] Parsed<Dependency> parse_dependency(std::string_view text);

// --mail-type: comma list of NONE BEGIN END FAIL REQUEUE ALL INVALID_DEPEND
// STAGE_OUT TIME_LIMIT TIME_LIMIT_90/80/50 ARRAY_TASKS (case-insensitive).
struct MailTypes {
  std::vector<std::string> types;    // upper case, ALL expanded, NONE clears
  std::vector<std::string> unknown;  // ignored words (sbatch ignores them if one is valid)

  bool operator==(const MailTypes&) const = default;
};
[[nodiscard]] Parsed<MailTypes> parse_mail_type(std::string_view text);

// --signal: [{R|B}:]<sig>[@<seconds>]
struct Signal {
  bool batch_only = false;   // B:
  bool reservation = false;  // R:
  std::string name;          // canonical name without SIG ("USR1"), or the number
  uint32_t seconds = 60;

  bool operator==(const Signal&) const = default;
};
[[nodiscard]] Parsed<Signal> parse_signal(std::string_view text);

// --export: ALL | NONE | NIL | [ALL,]NAME[=value][,...]
struct ExportSpec {
  enum class Mode : uint8_t { all, none, nil, list } mode = Mode::all;
  bool with_all = false;  // ALL appears in a list
  struct Item {
    std::string name;
    std::optional<std::string> value;
    bool operator==(const Item&) const = default;
  };
  std::vector<Item> items;

  bool operator==(const ExportSpec&) const = default;
};
[[nodiscard]] Parsed<ExportSpec> parse_export(std::string_view text);

// --gpu-bind (srun's --tres-bind=gres/gpu:...): [verbose,]closest |
// map_gpu:<list> | mask_gpu:<list> | none | per_task:<n> | single:<n>
// (map:/mask: are newer spellings of map_gpu:/mask_gpu:).
struct GpuBind {
  enum class Kind : uint8_t { none, closest, map, mask, per_task, single } kind = Kind::none;
  uint64_t count = 0;  // GPUs per task (per_task) or tasks per GPU (single)
  bool verbose = false;

  bool operator==(const GpuBind&) const = default;
};
[[nodiscard]] Parsed<GpuBind> parse_gpu_bind(std::string_view text);

// Hostlist expressions: node[01-04,07],gpu-a[1-2] -> node01 ... gpu-a2.
// `max_hosts` bounds the expansion so absurd ranges cannot exhaust memory.
[[nodiscard]] Parsed<std::vector<std::string>> expand_hostlist(std::string_view text,
                                                               size_t max_hosts = 100000);

}  // namespace s2a::values
