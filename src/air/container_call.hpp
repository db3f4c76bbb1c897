// `singularity|apptainer exec|run [OPTIONS] IMAGE CMD...` read once, for the
// rules that report its mounts (map_workload.cpp) and the one that unwraps
// it (setup.cpp), and the variables such a container took from the script.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "slurm/body.hpp"

namespace s2a::air {

struct ContainerOption {
  size_t word = 0;       // the option word
  size_t last_word = 0;  // the word of its value when separate (`--bind a:b`), else `word`
  std::string name;      // "--bind", "-B", "--env" (without =value)
  bool has_value = false;
  std::optional<std::string> value;  // the value when it has no expansion
  Span value_span;                   // the value as written, in the command's view
};

struct ContainerCall {
  size_t wrapper = 0;  // the `singularity`/`apptainer` word
  bool run = false;    // `run`: the image's runscript receives CMD as its arguments
  std::vector<ContainerOption> options;
  size_t image = 0;  // the image word; == words.size() when the line ends first
};

/// The call at words[start...], when it is a singularity or apptainer
/// exec/run. Options are the words up to the image that start with a
/// literal `-`; their values may be computed (`--env=$VARS`).
[[nodiscard]] std::optional<ContainerCall> find_container_call(const std::vector<ast::Word>& words,
                                                               size_t start,
                                                               std::string_view view_text);

/// SINGULARITYENV_X and APPTAINERENV_X are X inside the container: "X", or
/// empty for any other name.
[[nodiscard]] std::string_view container_variable_target(std::string_view name);

/// The container variables (SINGULARITYENV_X, APPTAINERENV_X) the script
/// exports, in first-seen order: any container the script starts sees them.
[[nodiscard]] std::vector<std::string> exported_container_variables(const slurm::Body& body);

}  // namespace s2a::air
