// Re-reads emitted YAML and checks it against the workload schema, the way
// `databricks air run` would (spec/air-runtime.md §1.1-1.6): KnownFields,
// required keys, value rules. Nothing is written that fails this check.
#include "emit/validate.hpp"

#include "air/map_workload.hpp"
#include "emit/yaml.hpp"
#include "emit/yaml_reader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <set>

namespace s2a::emit {
using air::AcceleratorType;
using air::find_accelerator_type;
using air::Workload;
namespace {

bool valid_name(const std::string& name) {
  return !name.empty() && name.size() <= 100 && std::all_of(name.begin(), name.end(), [](char c) {
    return (std::isalnum(static_cast<unsigned char>(c)) && static_cast<unsigned char>(c) < 0x80) ||
           c == '-' || c == '_';
  });
}

void check_keys(const YAML::Node& map, const std::set<std::string>& allowed,
                const std::string& where, std::vector<std::string>& errors) {
  for (const auto& entry : map) {
    const auto key = entry.first.as<std::string>();
    if (!allowed.count(key)) errors.push_back(where + key + ": unknown field");
  }
}

void check_compute(const YAML::Node& compute, std::vector<std::string>& errors) {
  if (!compute || !compute.IsMap()) {
    errors.push_back("compute: section is required");
    return;
  }
  check_keys(compute, {"accelerator_type", "num_accelerators", "pool_id", "priority_class"},
             "compute.", errors);
  const auto type =
      compute["accelerator_type"] ? compute["accelerator_type"].as<std::string>() : "";
  const AcceleratorType* shape = find_accelerator_type(type);
  if (shape == nullptr)
    errors.push_back("compute.accelerator_type: invalid GPU type \"" + type + "\"");
  const auto count = compute["num_accelerators"] ? compute["num_accelerators"].as<int64_t>() : 0;
  if (count <= 0) errors.push_back("compute.num_accelerators must be positive");
  if (shape && count % shape->gpus_per_node != 0) {
    errors.push_back("compute.num_accelerators for " + type + " must be a multiple of " +
                     std::to_string(shape->gpus_per_node));
  }
}

void check_string_map(const YAML::Node& map, const char* name, std::vector<std::string>& errors) {
  if (!map) return;
  if (!map.IsMap()) {
    errors.push_back(std::string(name) + " must be a map");
    return;
  }
  for (const auto& entry : map) {
    // A plain scalar such as 32 or true would not decode into a string.
    if (!entry.second.IsScalar() ||
        (entry.second.Tag() == "?" && yaml_plain_is_typed(entry.second.Scalar()))) {
      errors.push_back(std::string(name) + "." + entry.first.as<std::string>() +
                       " must be a string");
    }
  }
}

/// The custom image field depends on the target schema: unity_catalog_image
/// (CLI >= 1.20) or the legacy docker_image map; either excludes version and
/// dependencies.
void check_environment(const YAML::Node& env, const Workload& expected,
                       std::vector<std::string>& errors) {
  const bool legacy = expected.environment.docker_image.has_value();
  check_keys(env, {"version", "dependencies", legacy ? "docker_image" : "unity_catalog_image"},
             "environment.", errors);
  if (env["dependencies"] && !env["dependencies"].IsSequence()) {
    errors.push_back("environment.dependencies must be a list");
  }
  if ((env["unity_catalog_image"] || env["docker_image"]) &&
      (env["version"] || env["dependencies"])) {
    errors.push_back(
        "when an image is specified under 'environment', these fields are not "
        "allowed: dependencies, version");
  }
  if (const auto image = env["unity_catalog_image"]) {
    if (!image.IsScalar() || !air::is_unity_catalog_image(image.Scalar())) {
      errors.push_back(
          "environment.unity_catalog_image must be in the format "
          "'<catalog>.<schema>.<image>:<tag>'");
    }
  }
  if (const auto image = env["docker_image"]) {
    if (!image.IsMap() || !image["url"] || image["url"].as<std::string>("").empty()) {
      errors.push_back("environment.docker_image.url is required");
    } else {
      check_keys(image, {"url", "tag_policy", "credentials_scope", "credentials_key"},
                 "environment.docker_image.", errors);
    }
  }
}

void check_code_source(const YAML::Node& source, const Workload& expected,
                       std::vector<std::string>& errors) {
  if (!source.IsMap()) {
    errors.push_back("code_source must be a map");
    return;
  }
  if (expected.code_source_flat) {
    check_keys(source, {"root_path", "include_paths", "git", "remote_volume"}, "code_source.",
               errors);
    if (source["root_path"].as<std::string>("").empty()) {
      errors.push_back("code_source.root_path is required");
    }
    return;
  }
  if (source["type"].as<std::string>("") != "snapshot" || !source["snapshot"] ||
      source["snapshot"]["root_path"].as<std::string>("").empty()) {
    errors.push_back("code_source: expected type snapshot with snapshot.root_path");
  }
}

std::vector<std::string> check(const YAML::Node& root, const Workload& expected) {
  std::vector<std::string> errors;
  if (!root.IsMap()) return {"the document is not a map"};
  check_keys(root,
             {"experiment_name", "compute", "environment", "command", "env_variables", "secrets",
              "code_source", "max_retries", "timeout_minutes", "idempotency_token", "parameters",
              "mlflow_run_name", "mlflow_experiment_directory", "mlflow_artifact_location",
              "permissions", "usage_policy_name", "usage_policy_id"},
             "", errors);
  if (!valid_name(root["experiment_name"].as<std::string>(""))) {
    errors.push_back("experiment_name: only alphanumeric characters, '-' and '_' are allowed");
  }
  check_compute(root["compute"], errors);
  const auto command = root["command"].as<std::string>("");
  if (command.find_first_not_of(" \t\n") == std::string::npos)
    errors.push_back("command is required");
  if (std::count(command.begin(), command.end(), '\n') > 1000) {
    errors.push_back("command is too long (more than 1000 lines)");
  }
  if (command != expected.command) errors.push_back("command does not read back as written");
  if (const auto env = root["environment"]) {
    check_environment(env, expected, errors);
  }
  check_string_map(root["env_variables"], "env_variables", errors);
  check_string_map(root["secrets"], "secrets", errors);
  if (const auto secrets = root["secrets"]) {
    for (const auto& entry : secrets) {
      const auto ref = entry.second.as<std::string>("");
      const size_t slash = ref.find('/');
      if (slash == std::string::npos || slash == 0 || slash + 1 == ref.size() ||
          ref.find('/', slash + 1) != std::string::npos) {
        errors.push_back("secrets." + entry.first.as<std::string>() + ": expected scope/key");
      }
      if (root["env_variables"] && root["env_variables"][entry.first.as<std::string>()]) {
        errors.push_back(entry.first.as<std::string>() +
                         " is set in both env_variables and secrets");
      }
    }
  }
  if (const auto source = root["code_source"]) check_code_source(source, expected, errors);
  if (root["max_retries"] && root["max_retries"].as<int64_t>(-1) < 0) {
    errors.push_back("max_retries must be >= 0");
  }
  if (root["timeout_minutes"] && root["timeout_minutes"].as<int64_t>(0) < 1) {
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
