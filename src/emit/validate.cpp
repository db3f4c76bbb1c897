// Re-reads emitted YAML and checks it against the workload schema, the way
// `databricks air run` would (spec/air-runtime.md §1.1-1.6): KnownFields,
// required keys, value rules. Nothing is written that fails this check.
#include "emit/validate.hpp"

#include "air/map_workload.hpp"
#include "emit/text_scan.hpp"
#include "emit/yaml.hpp"
#include "emit/yaml_reader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace s2a::emit {
using air::AcceleratorType;
using air::find_accelerator_type;
using air::Workload;
namespace {

using Errors = std::vector<std::string>;

bool valid_name(std::string_view name) {
  // ASCII letters and digits tested inline: std::isalnum is a call per byte.
  const auto allowed = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
  };
  return !name.empty() && name.size() <= 100 && std::all_of(name.begin(), name.end(), allowed);
}

std::string_view text_of(const YamlDoc* node) { return YamlDoc::text_or(node); }

void check_keys(const YamlDoc& map, std::initializer_list<std::string_view> allowed,
                const std::string& where, Errors& errors) {
  for (const auto& entry : map.entries) {
    if (std::find(allowed.begin(), allowed.end(), entry.first) == allowed.end()) {
      errors.push_back(where + entry.first + ": unknown field");
    }
  }
}

void check_compute(const YamlDoc* compute, Errors& errors) {
  if (compute == nullptr || !compute->is_map()) {
    errors.push_back("compute: section is required");
    return;
  }
  check_keys(*compute, {"accelerator_type", "num_accelerators", "pool_id", "priority_class"},
             "compute.", errors);
  const std::string type(text_of(compute->find("accelerator_type")));
  const AcceleratorType* shape = find_accelerator_type(type);
  if (shape == nullptr)
    errors.push_back("compute.accelerator_type: invalid GPU type \"" + type + "\"");
  const int64_t count = YamlDoc::integer(compute->find("num_accelerators")).value_or(0);
  if (count <= 0) errors.push_back("compute.num_accelerators must be positive");
  if (shape && count % shape->gpus_per_node != 0) {
    errors.push_back("compute.num_accelerators for " + type + " must be a multiple of " +
                     std::to_string(shape->gpus_per_node));
  }
}

/// A plain scalar such as 32 or true would not decode into a string.
bool is_string(const YamlDoc& value) {
  return value.is_scalar() && !(value.plain && yaml_plain_is_typed(value.scalar));
}

void check_string_map(const YamlDoc* map, const char* name, Errors& errors) {
  if (map == nullptr) return;
  if (!map->is_map()) {
    errors.push_back(std::string(name) + " must be a map");
    return;
  }
  for (const auto& [key, value] : map->entries) {
    if (!is_string(value)) errors.push_back(std::string(name) + "." + key + " must be a string");
  }
}

/// The custom image field depends on the target schema: unity_catalog_image
/// (CLI >= 1.20) or the legacy docker_image map; either excludes version and
/// dependencies.
void check_environment(const YamlDoc& env, const Workload& expected, Errors& errors) {
  const bool legacy = expected.environment.docker_image.has_value();
  check_keys(env, {"version", "dependencies", legacy ? "docker_image" : "unity_catalog_image"},
             "environment.", errors);
  const YamlDoc* dependencies = env.find("dependencies");
  if (dependencies != nullptr && !dependencies->is_sequence()) {
    errors.push_back("environment.dependencies must be a list");
  }
  if ((env.find("unity_catalog_image") || env.find("docker_image")) &&
      (env.find("version") || dependencies)) {
    errors.push_back(
        "when an image is specified under 'environment', these fields are not "
        "allowed: dependencies, version");
  }
  if (const YamlDoc* image = env.find("unity_catalog_image")) {
    if (!image->is_scalar() || !air::is_unity_catalog_image(image->scalar)) {
      errors.push_back(
          "environment.unity_catalog_image must be in the format "
          "'<catalog>.<schema>.<image>:<tag>'");
    }
  }
  if (const YamlDoc* image = env.find("docker_image")) {
    if (!image->is_map() || text_of(image->find("url")).empty()) {
      errors.push_back("environment.docker_image.url is required");
    } else {
      check_keys(*image, {"url", "tag_policy", "credentials_scope", "credentials_key"},
                 "environment.docker_image.", errors);
    }
  }
}

void check_code_source(const YamlDoc& source, const Workload& expected, Errors& errors) {
  if (!source.is_map()) {
    errors.push_back("code_source must be a map");
    return;
  }
  if (expected.code_source_flat) {
    check_keys(source, {"root_path", "include_paths", "git", "remote_volume"}, "code_source.",
               errors);
    if (text_of(source.find("root_path")).empty()) {
      errors.push_back("code_source.root_path is required");
    }
    return;
  }
  const YamlDoc* snapshot = source.find("snapshot");
  if (text_of(source.find("type")) != "snapshot" || snapshot == nullptr ||
      text_of(snapshot->find("root_path")).empty()) {
    errors.push_back("code_source: expected type snapshot with snapshot.root_path");
  }
}

void check_command(const YamlDoc* node, const Workload& expected, Errors& errors) {
  const std::string_view command = text_of(node);
  if (command.find_first_not_of(" \t\n") == std::string_view::npos)
    errors.push_back("command is required");
  if (count_newlines(command) > 1000) {
    errors.push_back("command is too long (more than 1000 lines)");
  }
  if (command != expected.command) errors.push_back("command does not read back as written");
}

void check_secrets(const YamlDoc* secrets, const YamlDoc* env_variables, Errors& errors) {
  check_string_map(secrets, "secrets", errors);
  if (secrets == nullptr) return;
  for (const auto& [name, value] : secrets->entries) {
    const std::string_view ref = text_of(&value);
    const size_t slash = ref.find('/');
    if (slash == std::string_view::npos || slash == 0 || slash + 1 == ref.size() ||
        ref.find('/', slash + 1) != std::string_view::npos) {
      errors.push_back("secrets." + name + ": expected scope/key");
    }
    if (env_variables != nullptr && env_variables->find(name) != nullptr) {
      errors.push_back(name + " is set in both env_variables and secrets");
    }
  }
}

/// The root map's known fields, found in one pass that also reports each
/// unknown field (as check_keys would): the checks below look up most of them,
/// and a find() each rescanned the root's entries.
struct RootFields {
  const YamlDoc* experiment_name = nullptr;
  const YamlDoc* compute = nullptr;
  const YamlDoc* environment = nullptr;
  const YamlDoc* command = nullptr;
  const YamlDoc* env_variables = nullptr;
  const YamlDoc* secrets = nullptr;
  const YamlDoc* code_source = nullptr;
  const YamlDoc* max_retries = nullptr;
  const YamlDoc* timeout_minutes = nullptr;
};

RootFields root_fields(const YamlDoc& root, Errors& errors) {
  static constexpr std::string_view kUnchecked[] = {
      "idempotency_token",        "parameters",  "mlflow_run_name",   "mlflow_experiment_directory",
      "mlflow_artifact_location", "permissions", "usage_policy_name", "usage_policy_id"};
  RootFields fields;
  const std::pair<std::string_view, const YamlDoc** const> checked[] = {
      {"experiment_name", &fields.experiment_name}, {"compute", &fields.compute},
      {"environment", &fields.environment},         {"command", &fields.command},
      {"env_variables", &fields.env_variables},     {"secrets", &fields.secrets},
      {"code_source", &fields.code_source},         {"max_retries", &fields.max_retries},
      {"timeout_minutes", &fields.timeout_minutes}};
  for (const auto& entry : root.entries) {
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one.
    const std::string& key = entry.first;
    const YamlDoc& value = entry.second;
    const auto known = std::find_if(std::begin(checked), std::end(checked),
                                    [&key](const auto& field) { return field.first == key; });
    if (known != std::end(checked)) {
      if (*known->second == nullptr) *known->second = &value;  // find() takes the first
    } else if (std::find(std::begin(kUnchecked), std::end(kUnchecked), key) ==
               std::end(kUnchecked)) {
      errors.push_back(key + ": unknown field");
    }
  }
  return fields;
}

Errors check(const YamlDoc& root, const Workload& expected) {
  Errors errors;
  if (!root.is_map()) return {"the document is not a map"};
  const RootFields fields = root_fields(root, errors);
  if (!valid_name(text_of(fields.experiment_name))) {
    errors.push_back("experiment_name: only alphanumeric characters, '-' and '_' are allowed");
  }
  check_compute(fields.compute, errors);
  check_command(fields.command, expected, errors);
  if (fields.environment != nullptr) check_environment(*fields.environment, expected, errors);
  check_string_map(fields.env_variables, "env_variables", errors);
  check_secrets(fields.secrets, fields.env_variables, errors);
  if (fields.code_source != nullptr) check_code_source(*fields.code_source, expected, errors);
  if (fields.max_retries != nullptr && YamlDoc::integer(fields.max_retries).value_or(-1) < 0) {
    errors.push_back("max_retries must be >= 0");
  }
  if (fields.timeout_minutes != nullptr &&
      YamlDoc::integer(fields.timeout_minutes).value_or(0) < 1) {
    errors.push_back("timeout_minutes must be >= 1");
  }
  return errors;
}

}  // namespace

std::vector<std::string> validate_workload_yaml(const std::string& yaml, const Workload& expected) {
  try {
    return check(load_yaml(yaml), expected);  // fast reader, else YAML::Load
  } catch (const YAML::Exception& error) {
    return {std::string("the YAML does not parse: ") + error.what()};
  }
}

}  // namespace s2a::emit
