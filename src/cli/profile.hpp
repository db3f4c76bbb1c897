// The `profile` subcommand and profile loading for convert/inspect.
#pragma once

#include <optional>
#include <string>

#include "profile/profile.hpp"

namespace s2a::cli {

/// Writes the starter profile to `path`; refuses to overwrite. Exit code.
int profile_init(const std::string& path);

/// --profile FILE when given, else the documented lookup; throws ProfileError.
[[nodiscard]] std::optional<profile::Profile> load_profile_for(const std::string& flag);

}  // namespace s2a::cli
