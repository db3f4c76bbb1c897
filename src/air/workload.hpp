// The target: an AI Runtime workload (`databricks air run --file train.yaml`).
//
// Field names follow spec/air-runtime.md §1. Every field keeps the spans of
// the script text it was derived from, so the emitter can write provenance
// comments and `explain` can show what became of each line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "source/source_file.hpp"

namespace s2a::air {

/// Accelerator shapes AI Runtime offers: GPU_<n>x<model>.
struct AcceleratorType {
  std::string_view name;  // "GPU_8xH100"
  uint32_t gpus_per_node;
  std::string_view model;  // "h100"
};

/// The accelerator types the pinned target schema accepts.
[[nodiscard]] const std::vector<AcceleratorType>& accelerator_types();
[[nodiscard]] const AcceleratorType* find_accelerator_type(std::string_view name);

struct Compute {
  std::string accelerator_type;
  uint64_t num_accelerators = 0;  // total over all nodes
  uint64_t nodes = 0;             // derived: num_accelerators / GPUs per node
  uint32_t gpus_per_node = 0;
  std::vector<Span> from;         // directives the shape came from
};

struct Environment {
  std::optional<std::string> version;
  std::vector<std::string> dependencies;
};

struct NamedValue {
  std::string name;
  std::string value;
  Span from;
};

struct Workload {
  std::string experiment_name;
  Span experiment_name_from;
  Environment environment;
  Compute compute;
  std::string code_source_root = ".";
  std::vector<NamedValue> env_variables;
  std::vector<NamedValue> secrets;  // value is "scope/key"
  std::string command;
  std::optional<uint64_t> timeout_minutes;
  Span timeout_from;
  uint64_t max_retries = 1;
  Span max_retries_from;
};

}  // namespace s2a::air
