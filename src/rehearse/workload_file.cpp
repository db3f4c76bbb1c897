// Reading train.yaml for `slurm2air rehearse`: the command, the shape, the
// environment and code_source, with messages that name the file and the key.
#include "rehearse/workload_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "air/workload.hpp"

namespace s2a::rehearse {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw RehearseError(path + ": " + message);
}

std::string scalar_string(const std::string& path, const YAML::Node& node, const std::string& key) {
  if (!node.IsScalar()) fail(path, key + " must be a string");
  return node.Scalar();
}

uint64_t positive_integer(const std::string& path, const YAML::Node& node, const std::string& key) {
  const std::string text = scalar_string(path, node, key);
  uint64_t value = 0;
  if (text.empty() || text.size() > 18)
    fail(path, key + " must be a positive integer, got '" + text + "'");
  for (char c : text) {
    if (c < '0' || c > '9') fail(path, key + " must be a positive integer, got '" + text + "'");
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (value == 0) fail(path, key + " must be a positive integer, got '" + text + "'");
  return value;
}

std::map<std::string, std::string> string_map(const std::string& path, const YAML::Node& node,
                                              const std::string& key) {
  std::map<std::string, std::string> out;
  if (!node || node.IsNull()) return out;
  if (!node.IsMap()) fail(path, key + " must be a map of NAME: value");
  for (const auto& entry : node) {
    const std::string name = scalar_string(path, entry.first, key + " key");
    if (name.empty() || name.find('=') != std::string::npos ||
        name.find('\0') != std::string::npos) {
      fail(path, key + " has an invalid variable name '" + name + "'");
    }
    out[name] = scalar_string(path, entry.second, key + "." + name);
  }
  return out;
}

std::vector<std::string> string_list(const std::string& path, const YAML::Node& node,
                                     const std::string& key) {
  std::vector<std::string> out;
  if (!node || node.IsNull()) return out;
  if (!node.IsSequence()) fail(path, key + " must be a list of paths");
  for (const auto& item : node) out.push_back(scalar_string(path, item, key + " entry"));
  return out;
}

CodeSource read_code_source(const std::string& path, const YAML::Node& node) {
  if (!node.IsMap()) fail(path, "code_source must be a map with root_path");
  const bool legacy = static_cast<bool>(node["type"]);  // nested form, air-runtime.md §1.6a
  if (legacy && scalar_string(path, node["type"], "code_source.type") != "snapshot") {
    fail(path, "code_source.type must be 'snapshot'");
  }
  // yaml-cpp nodes are references: pick the map once instead of reassigning.
  const YAML::Node snapshot = legacy ? node["snapshot"] : node;
  if (!snapshot || !snapshot.IsMap()) {
    fail(path, "code_source.type='snapshot' requires a snapshot configuration");
  }
  CodeSource source;
  if (!snapshot["root_path"]) fail(path, "code_source needs root_path");
  source.root_path = scalar_string(path, snapshot["root_path"], "code_source.root_path");
  if (source.root_path.empty()) fail(path, "code_source.root_path cannot be empty");
  source.include_paths = string_list(path, snapshot["include_paths"], "code_source.include_paths");
  for (const std::string& include : source.include_paths) {
    const std::filesystem::path p(include);
    bool parent = false;
    for (const auto& part : p) parent = parent || part == "..";
    if (include.empty() || p.is_absolute() || parent) {
      fail(path, "code_source.include_paths entry '" + include +
                     "' must be a relative path without '..'");
    }
  }
  return source;
}

}  // namespace

std::optional<uint32_t> gpus_per_node_of(const std::string& accelerator_type) {
  const air::AcceleratorType* type = air::find_accelerator_type(accelerator_type);
  if (type == nullptr) return std::nullopt;
  return type->gpus_per_node;
}

WorkloadFile parse_workload(const std::string& path, const std::string& text) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& error) {
    fail(path,
         "not valid YAML (line " + std::to_string(error.mark.line + 1) + ": " + error.msg + ")");
  }
  if (!root || root.IsNull()) fail(path, "is empty");
  if (!root.IsMap()) fail(path, "must be a YAML map with experiment_name, compute and command");

  WorkloadFile file;
  file.path = path;
  try {
    if (root["experiment_name"]) {
      file.experiment_name = scalar_string(path, root["experiment_name"], "experiment_name");
    }
    if (!root["command"]) fail(path, "command is required");
    file.command = scalar_string(path, root["command"], "command");
    if (file.command.find_first_not_of(" \t\r\n") == std::string::npos) {
      fail(path, "command cannot be empty");
    }
    if (file.command.find('\0') != std::string::npos) fail(path, "command contains a NUL byte");
    if (const YAML::Node compute = root["compute"]; compute) {
      if (!compute.IsMap()) fail(path, "compute must be a map");
      if (compute["accelerator_type"]) {
        file.accelerator_type =
            scalar_string(path, compute["accelerator_type"], "compute.accelerator_type");
      }
      if (compute["num_accelerators"]) {
        file.num_accelerators =
            positive_integer(path, compute["num_accelerators"], "compute.num_accelerators");
      }
    }
    if (root["timeout_minutes"]) {
      file.timeout_minutes = positive_integer(path, root["timeout_minutes"], "timeout_minutes");
    }
    file.env_variables = string_map(path, root["env_variables"], "env_variables");
    file.secrets = string_map(path, root["secrets"], "secrets");
    for (const auto& [name, ref] : file.secrets) {
      if (file.env_variables.count(name) != 0) {
        fail(path, "\"" + name + "\" is set in both env_variables and secrets");
      }
    }
    if (const YAML::Node code = root["code_source"]; code && !code.IsNull()) {
      file.code_source = read_code_source(path, code);
    }
    if (const YAML::Node parameters = root["parameters"]; parameters && !parameters.IsNull()) {
      file.parameters = YAML::Clone(parameters);
    }
  } catch (const YAML::Exception& error) {
    fail(path, std::string("unexpected YAML structure (") + error.msg + ")");
  }
  return file;
}

WorkloadFile read_workload(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) throw RehearseError(path + ": no such file");
  if (!fs::is_regular_file(status)) throw RehearseError(path + ": not a regular file");
  if (fs::file_size(path, error) > kMaxWorkloadBytes) {
    throw RehearseError(path + ": larger than 1 MiB; AI Runtime refuses configs this large");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RehearseError(path + ": cannot be read");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return parse_workload(path, buffer.str());
}

}  // namespace s2a::rehearse
