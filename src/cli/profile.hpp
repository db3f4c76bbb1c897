// The `profile` subcommand and profile loading for convert/inspect.
#pragma once

#include <optional>
#include <string>

#include "profile/profile.hpp"
#include "translate.hpp"

namespace s2a::cli {

/// Writes the starter profile to `path`; refuses to overwrite. Exit code.
int profile_init(const std::string& path);

/// --profile FILE when given, else the documented lookup; throws ProfileError.
[[nodiscard]] std::optional<profile::Profile> load_profile_for(const std::string& flag);

/// Loads the site profile for `options.profile_path` (or the lookup) into
/// `options`, with its suppressed codes; throws ProfileError.
void apply_site_profile(TranslateOptions& options);

}  // namespace s2a::cli
