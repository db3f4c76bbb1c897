// `slurm2air inspect --json`: what slurm2air understood the job to be.
// The format (schema "slurm2air.inspect/1") is documented in docs/inspect.md
// and compared field by field with a real slurmctld in tests/conformance/.
#pragma once

#include <string>

#include "translate.hpp"

namespace s2a::emit {

[[nodiscard]] std::string render_inspect_json(const Translation& translation);

}  // namespace s2a::emit
