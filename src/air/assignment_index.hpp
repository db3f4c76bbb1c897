// Assignments by name, for "what did NAME hold at offset X": the last one
// recorded before X.
//
// Each name's assignments are kept in the order recorded. When that is also
// offset order (one text view: the usual case) a lookup is a binary search,
// so scripts that assign one name thousands of times stay linear overall;
// otherwise it scans that name's assignments backwards.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace s2a::air {

template <class Value>
class AssignmentIndex {
 public:
  void add(std::string name, uint32_t at, Value value) {
    Assignments& assignments = names_.try_emplace(std::move(name)).first->second;
    if (!assignments.entries.empty() && at < assignments.entries.back().at) {
      assignments.by_offset = false;
    }
    assignments.entries.push_back({at, std::move(value)});
  }

  /// The value of the last assignment of `name` recorded before offset `at`.
  [[nodiscard]] const Value* last_before(std::string_view name, uint32_t at) const {
    const auto found = names_.find(name);
    if (found == names_.end()) return nullptr;
    const std::vector<Entry>& entries = found->second.entries;
    if (found->second.by_offset) {
      const auto after = std::partition_point(entries.begin(), entries.end(),
                                              [&](const Entry& entry) { return entry.at < at; });
      return after == entries.begin() ? nullptr : &std::prev(after)->value;
    }
    for (auto entry = entries.rbegin(); entry != entries.rend(); ++entry) {
      if (entry->at < at) return &entry->value;
    }
    return nullptr;
  }

 private:
  struct Entry {
    uint32_t at;
    Value value;
  };
  struct Assignments {
    std::vector<Entry> entries;
    bool by_offset = true;
  };
  // Hashed, looked up by string_view: a script records thousands of names,
  // nearly all once, and a tree paid a string comparison per level for each.
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  std::unordered_map<std::string, Assignments, NameHash, std::equal_to<>> names_;
};

}  // namespace s2a::air
