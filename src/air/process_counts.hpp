// Process counts of launchers that come from script variables.
//
// `export GPUS_PER_NODE=8` feeding `--nproc_per_node=$GPUS_PER_NODE` or
// `--num_processes $((SLURM_NNODES * GPUS_PER_NODE))` is right for one node
// shape only. On AI Runtime LOCAL_WORLD_SIZE is the node's GPU count, so such
// a literal can become `$LOCAL_WORLD_SIZE` with the same meaning on the target
// while the workload stays portable (and rehearsable on fewer GPUs). This file
// finds the options, wherever they are written (a launcher line, or a string
// such as `LAUNCHER="accelerate launch ..."`), and the literals that feed them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "air/assignment_index.hpp"
#include "air/launch.hpp"
#include "slurm/body.hpp"

namespace s2a::air {

/// An assignment at the top of the batch script (not in a function, loop,
/// branch or srun step): `NAME=8`, `export NAME=8`, `declare -i NAME="8"`, or
/// any other value (then `number` is empty and hides earlier literals).
struct LiteralCount {
  std::string name;
  uint32_t at = 0;  // offset of the assignment in the file
  Span value;       // the value as written (quotes included), or the 8 of `NAME=${NAME:-8}`
  std::optional<uint64_t> number;  // set when the value is a literal count
  const slurm::Site* site = nullptr;
};

/// A variable named in a process-count option's value.
struct CountReference {
  std::string name;
  bool in_arithmetic = false;  // inside $(( ... )), usually multiplied by a node count
};

/// One process-count option written somewhere in the batch script.
struct ProcessCountOption {
  std::string written;             // "--num_processes " or "--nproc_per_node=": name and separator
  bool total = false;              // counts the processes of every node, not of one
  Span span;                       // option and value, file offsets
  Span value;                      // the value as written
  std::optional<uint64_t> number;  // the value in the batch shell's terms, when known
  std::vector<CountReference> references;
  bool in_launcher_site = false;  // on a line the launcher mapper reads (it checks counts itself)
  bool after_launcher_word = false;  // a launcher name precedes it on its line or string
};

[[nodiscard]] std::vector<LiteralCount> find_literal_counts(const slurm::Body& body);

/// Process-count options in the commands of the file (view 0 and nested
/// scripts that are exact file text), each once.
[[nodiscard]] std::vector<ProcessCountOption> find_process_count_options(const slurm::Body& body,
                                                                         const ValueReader& reader);

/// The assignments of find_literal_counts(), by name, for lookups at an
/// offset. Logarithmic: a script may assign one name thousands of times.
class LiteralCounts {
 public:
  explicit LiteralCounts(std::vector<LiteralCount> counts);
  /// The literal assignment of `name` in effect at `at` (the last one
  /// before it), or nullptr when that assignment is not a literal count.
  [[nodiscard]] const LiteralCount* at(std::string_view name, uint32_t at) const;

 private:
  std::vector<LiteralCount> counts_;
  AssignmentIndex<size_t> by_name_;  // indices into counts_
};

}  // namespace s2a::air
