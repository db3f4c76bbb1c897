// Where the script runs with nounset (`set -u`, `set -o nounset`,
// `#!/bin/bash -eu`): reading a variable that is not set stops bash there
// ("NAME: unbound variable"), so a variable AI Runtime does not set ends the
// run instead of expanding to nothing (S2A4037).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace s2a::slurm {

struct Body;

class NounsetScopes {
 public:
  /// From the `#!` line and the batch script's own `set` commands (the
  /// sites of view 0), in source order: a `set -u` in a function or branch
  /// counts from where it is written, as the usual script sets its options
  /// once, at the top.
  [[nodiscard]] static NounsetScopes read(const Body& body, std::string_view file_text);

  /// Whether nounset is on at `offset` of the batch script (view 0).
  [[nodiscard]] bool at(uint32_t offset) const;

  /// Whether `${NAME op}` reads an unset NAME without failing: `${X:-d}`,
  /// `${X-d}`, `${X:=d}`, `${X+alt}`, `${X:?msg}` (which fails on purpose).
  [[nodiscard]] static bool allows_unset(std::string_view param_op);

 private:
  bool from_start_ = false;
  std::vector<std::pair<uint32_t, bool>> changes_;  // (offset, on), in source order
};

}  // namespace s2a::slurm
