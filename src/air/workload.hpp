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

/// `databricks air run` refuses a longer command (spec/air-runtime.md §1.3).
inline constexpr long kMaxCommandLines = 1000;

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
  // What SLURM_GPUS_ON_NODE was when the job asked for fewer GPUs per node
  // than the shape has (4 of 8); else 0. The launch keeps that count: the
  // rest of the node's GPUs stay idle, and the world size stays the job's.
  uint32_t narrower_gpus_per_node = 0;
  std::vector<Span> from;  // directives the shape came from
};

/// The schema version the YAML targets (spec/air-runtime.md §0, §1.5, §1.6).
enum class TargetSchema : uint8_t {
  cli_1_19,  // nested code_source, environment.docker_image for custom images
  cli_1_20,  // flat code_source (CLI >= 1.20.0), environment.unity_catalog_image
};

struct Environment {
  std::optional<std::string> version;
  std::vector<std::string> dependencies;
  // A custom image replaces version and dependencies (they are exclusive).
  std::optional<std::string> unity_catalog_image;  // <catalog>.<schema>.<image>:<tag>
  std::optional<std::string> docker_image;         // legacy: environment.docker_image.url
  Span image_from;                                 // the directive or wrapper naming it
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
  bool code_source_flat = false;  // `code_source: {root_path: .}` (CLI >= 1.20.0)
  std::vector<NamedValue> env_variables;
  std::vector<NamedValue> secrets;  // value is "scope/key"
  std::string command;
  std::optional<uint64_t> timeout_minutes;
  Span timeout_from;
  uint64_t max_retries = 1;
  Span max_retries_from;
};

}  // namespace s2a::air
