// Copying code_source.root_path once per rehearsal node, the way AI Runtime
// unpacks its snapshot on every node: nodes never share files by accident.
// .git and the rehearsal's own work directory are left out; symlinks are
// copied as symlinks; sockets, FIFOs and devices are skipped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace s2a::rehearse {

inline constexpr uintmax_t kMaxCodeBytes = uintmax_t{1} << 30;  // per copy
inline constexpr uintmax_t kMaxCodeEntries = 200000;

struct CopyStats {
  uintmax_t files = 0;
  uintmax_t bytes = 0;
};

/// Copies `source` (or only `include_paths` under it) to `destination`, never
/// descending into `exclude` (an absolute path). Throws RehearseError when the
/// tree exceeds kMaxCodeBytes or kMaxCodeEntries, or cannot be read.
CopyStats copy_code_tree(const std::string& source, const std::string& destination,
                         const std::vector<std::string>& include_paths, const std::string& exclude);

}  // namespace s2a::rehearse
