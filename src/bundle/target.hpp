// What slurm2air writes: one workload YAML (`databricks air run --file`) or a
// deployable bundle (`databricks bundle deploy`). A few directives (arrays,
// mail, dependencies, start times) are handled differently for each.
#pragma once

#include <cstdint>

namespace s2a {

enum class OutputTarget : uint8_t { workload, bundle };

}  // namespace s2a
