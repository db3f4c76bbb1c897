// Writing a bundle directory: all files or none. The files go to a temporary
// directory next to DIR, which then replaces DIR by rename(2).
#pragma once

#include <map>
#include <string>

namespace s2a::bundle {

/// Writes `files` (relative path -> content) as directory `dir`. Refuses an
/// existing non-empty `dir` unless `force`. Throws io::FileError; on any
/// failure `dir` is left as it was.
void write_bundle(const std::string& dir, const std::map<std::string, std::string>& files,
                  bool force);

}  // namespace s2a::bundle
