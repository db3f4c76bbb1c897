// What a directive became; shown by `inspect` and counted by batch reports.
#pragma once

#include <cstdint>
#include <string_view>

#include "directives/directives.hpp"

namespace s2a {

enum class DirectiveStatus : uint8_t { mapped, approximated, reported, no_effect };

struct DirectiveOutcome {
  const directives::Option* option;
  DirectiveStatus status;
};

[[nodiscard]] std::string_view status_name(DirectiveStatus status);

}  // namespace s2a
