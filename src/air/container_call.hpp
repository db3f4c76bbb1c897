// The variables a singularity/apptainer container took from the script; the
// call itself is read by slurm/container_call.hpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "slurm/body.hpp"
#include "slurm/container_call.hpp"

namespace s2a::air {

using slurm::ContainerCall;
using slurm::ContainerOption;
using slurm::find_container_call;

/// SINGULARITYENV_X and APPTAINERENV_X are X inside the container: "X", or
/// empty for any other name.
[[nodiscard]] std::string_view container_variable_target(std::string_view name);

/// The container variables (SINGULARITYENV_X, APPTAINERENV_X) the script
/// exports, in first-seen order: any container the script starts sees them.
[[nodiscard]] std::vector<std::string> exported_container_variables(const slurm::Body& body);

}  // namespace s2a::air
