// A small map from option names to values, for lookups made for every
// directive: the option tables and a job's final options.
//
// The names are a few bytes long and view static tables. std::unordered_map
// hashes each of their bytes and allocates a node per entry; a binary search
// compares strings a dozen times. This map keeps its entries in insertion
// order in one vector and finds them through an open-addressed index whose
// hash reads only the length and three bytes of a name.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace s2a::directives {

template <class T>
class NameMap {
 public:
  using value_type = std::pair<std::string_view, T>;
  using const_iterator = const value_type*;

  /// Makes room for `count` names without rebuilding the index as they come.
  void reserve(size_t count) {
    entries_.reserve(count);
    if (count * 2 > slots_.size()) rebuild(std::bit_ceil(count * 2));
  }

  /// Adds `name` unless it is present; returns whether it was added.
  bool try_emplace(std::string_view name, T value) {
    if (find(name) != end()) return false;
    add(name, std::move(value));
    return true;
  }

  /// Sets the value of `name`, adding the name if it is new.
  void insert_or_assign(std::string_view name, T value) {
    if (!slots_.empty()) {
      if (const uint32_t entry = slots_[find_slot(name)]; entry != 0) {
        entries_[entry - 1].second = std::move(value);
        return;
      }
    }
    add(name, std::move(value));
  }

  /// The entry of `name`, or end().
  [[nodiscard]] const_iterator find(std::string_view name) const {
    if (slots_.empty()) return end();
    const uint32_t entry = slots_[find_slot(name)];
    return entry == 0 ? end() : &entries_[entry - 1];
  }

  [[nodiscard]] const_iterator begin() const { return entries_.data(); }
  [[nodiscard]] const_iterator end() const { return entries_.data() + entries_.size(); }
  [[nodiscard]] size_t size() const { return entries_.size(); }

 private:
  static size_t hash(std::string_view name) {
    uint64_t h = name.size();
    if (!name.empty()) {
      h |= uint64_t{static_cast<unsigned char>(name.front())} << 8 |
           uint64_t{static_cast<unsigned char>(name[name.size() / 2])} << 16 |
           uint64_t{static_cast<unsigned char>(name.back())} << 24;
    }
    return static_cast<size_t>(h * 0x9E3779B97F4A7C15ULL);  // spreads into the high bits
  }

  /// The slot holding `name`, or the empty slot where it would go.
  /// Requires a non-empty index.
  [[nodiscard]] size_t find_slot(std::string_view name) const {
    const size_t mask = slots_.size() - 1;
    size_t slot = (hash(name) >> shift_) & mask;
    while (slots_[slot] != 0 && entries_[slots_[slot] - 1].first != name) slot = (slot + 1) & mask;
    return slot;
  }

  void add(std::string_view name, T value) {
    entries_.emplace_back(name, std::move(value));
    // At most half full, so that probes stay short.
    if (entries_.size() * 2 > slots_.size()) {
      rebuild(std::bit_ceil(entries_.size() * 4));
    } else {
      slots_[find_slot(name)] = static_cast<uint32_t>(entries_.size());
    }
  }

  void rebuild(size_t slot_count) {
    slots_.assign(slot_count, 0);
    shift_ = 64 - std::countr_zero(slot_count);
    for (size_t k = 0; k < entries_.size(); ++k) {
      slots_[find_slot(entries_[k].first)] = static_cast<uint32_t>(k + 1);
    }
  }

  std::vector<value_type> entries_;
  std::vector<uint32_t> slots_;  // entry index + 1, 0 when free; a power of two long
  int shift_ = 64;               // keeps the top log2(slots) bits of a hash
};

}  // namespace s2a::directives
