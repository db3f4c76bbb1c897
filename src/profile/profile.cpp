// Profile parsing with yaml-cpp. Every value is checked where it is read, so
// an error points at the offending node (yaml-cpp marks are 0-based).
#include "profile/profile.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "air/workload.hpp"
#include "source/ascii.hpp"

namespace s2a::profile {
namespace {

constexpr uintmax_t kMaxProfileBytes = uintmax_t{1} << 20;

class Reader {
 public:
  explicit Reader(std::string name) : name_(std::move(name)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const {
    const YAML::Mark mark = node.Mark();
    std::string where = name_;
    if (mark.line >= 0) {
      where += ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
    }
    throw ProfileError(where + ": " + message);
  }

  std::string string(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) fail(node, key + " must be a string");
    return node.Scalar();
  }

  std::string nonempty_string(const YAML::Node& node, const std::string& key) const {
    std::string value = string(node, key);
    if (value.empty()) fail(node, key + " must not be empty");
    return value;
  }

  std::vector<std::string> string_list(const YAML::Node& node, const std::string& key) const {
    if (!node.IsSequence()) fail(node, key + " must be a list of strings");
    std::vector<std::string> out;
    for (const YAML::Node& item : node) out.push_back(nonempty_string(item, key + " entry"));
    return out;
  }

  template <class F>
  void each_entry(const YAML::Node& node, const std::string& key, F&& read_entry) const {
    if (node.IsNull()) return;  // `partitions:` with nothing under it
    if (!node.IsMap()) fail(node, key + " must be a map");
    for (const auto& entry : node) {
      const std::string name = nonempty_string(entry.first, key + " key");
      read_entry(name, entry.second);
    }
  }

  std::string accelerator_type(const YAML::Node& node, const std::string& key) const {
    std::string value = string(node, key);
    if (air::find_accelerator_type(value) == nullptr) {
      std::string valid;
      for (const auto& type : air::accelerator_types()) {
        valid += (valid.empty() ? "" : ", ") + std::string(type.name);
      }
      fail(node, key + ": \"" + value + "\" is not an accelerator type (valid: " + valid + ")");
    }
    return value;
  }

  ModuleMapping module(const YAML::Node& node, const std::string& key) const {
    if (node.IsScalar() && node.Scalar() == "provided") return {true, {}};
    if (node.IsSequence()) return {false, string_list(node, key)};
    fail(node, key + " must be \"provided\" or a list of pip requirements");
  }

  std::string one_of(const YAML::Node& node, const std::string& key,
                     std::initializer_list<const char*> allowed) const {
    const std::string value = string(node, key);
    std::string names;
    for (const char* a : allowed) {
      if (value == a) return value;
      names += (names.empty() ? "" : ", ") + std::string(a);
    }
    fail(node, key + " must be one of " + names + ", not \"" + value + "\"");
  }

  uint64_t count(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) fail(node, key + " must be a whole number from 0 to 9999");
    const std::string text = node.Scalar();
    if (text.empty() || text.size() > 4 ||
        text.find_first_not_of("0123456789") != std::string::npos) {
      fail(node, key + " must be a whole number from 0 to 9999");
    }
    return std::stoull(text);
  }

  Profile read(const YAML::Node& root) const {
    Profile p;
    if (root.IsNull()) return p;  // an empty profile changes nothing
    if (!root.IsMap()) fail(root, "a profile is a map of settings");
    for (const auto& entry : root) {
      const std::string key = string(entry.first, "key");
      const YAML::Node& v = entry.second;
      if (key == "partitions") {
        each_entry(v, key, [&](const std::string& n, const YAML::Node& t) {
          p.partitions[n] = accelerator_type(t, key + "." + n);
        });
      } else if (key == "gpu_types") {
        each_entry(v, key, [&](const std::string& n, const YAML::Node& t) {
          p.gpu_types[ascii_lower(n)] = accelerator_type(t, key + "." + n);
        });
      } else if (key == "modules") {
        each_entry(v, key, [&](const std::string& n, const YAML::Node& m) {
          p.modules[n] = module(m, key + "." + n);
        });
      } else if (key == "conda_envs") {
        each_entry(v, key, [&](const std::string& n, const YAML::Node& f) {
          p.conda_envs[n] = nonempty_string(f, key + "." + n);
        });
      } else if (key == "images") {
        each_entry(v, key, [&](const std::string& n, const YAML::Node& i) {
          p.images[n] = nonempty_string(i, key + "." + n);
        });
      } else if (key == "environment_version") {
        p.env_version = nonempty_string(v, key);
      } else if (key == "secret_scope") {
        p.secret_scope = nonempty_string(v, key);
        if (p.secret_scope->find('/') != std::string::npos) fail(v, key + " must not contain '/'");
      } else if (key == "max_retries") {
        p.max_retries = count(v, key);
      } else if (key == "code_root") {
        p.code_root = nonempty_string(v, key);
      } else if (key == "code_source") {
        p.code_source = one_of(v, key, {"nested", "flat"});
      } else if (key == "target_schema") {
        p.target_schema = one_of(v, key, {"cli-1.19", "cli-1.20"});
      } else if (key == "suppress") {
        p.suppress = string_list(v, key);
      } else {
        fail(entry.first,
             "unknown key \"" + key +
                 "\" (known: partitions, gpu_types, modules, conda_envs, images, "
                 "environment_version, secret_scope, max_retries, code_root, code_source, "
                 "target_schema, suppress)");
      }
    }
    return p;
  }

 private:
  std::string name_;
};

}  // namespace

Profile parse_profile(const std::string& text, const std::string& name) {
  const Reader reader(name);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& error) {
    throw ProfileError(name + ":" + std::to_string(error.mark.line + 1) + ":" +
                       std::to_string(error.mark.column + 1) + ": " + error.msg);
  }
  Profile profile = reader.read(root);
  profile.path = name;
  return profile;
}

Profile load_profile(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw ProfileError(path + ": no such file");
  if (!std::filesystem::is_regular_file(status)) throw ProfileError(path + ": not a regular file");
  if (std::filesystem::file_size(path, ec) > kMaxProfileBytes || ec) {
    throw ProfileError(path + ": too large for a profile");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ProfileError(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_profile(text.str(), path);
}

std::optional<std::string> find_default_profile() {
  if (std::filesystem::is_regular_file("slurm2air.yaml")) return "slurm2air.yaml";
  std::filesystem::path config;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0') {
    config = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    config = std::filesystem::path(home) / ".config";
  } else {
    return std::nullopt;
  }
  const auto candidate = config / "slurm2air" / "profile.yaml";
  std::error_code ec;
  if (std::filesystem::is_regular_file(candidate, ec)) return candidate.string();
  return std::nullopt;
}

const ModuleMapping* find_module(const Profile& profile, std::string_view module) {
  if (auto it = profile.modules.find(module); it != profile.modules.end()) return &it->second;
  const size_t slash = module.find('/');
  if (slash == std::string_view::npos) return nullptr;
  if (auto it = profile.modules.find(module.substr(0, slash)); it != profile.modules.end()) {
    return &it->second;
  }
  return nullptr;
}

std::string starter_profile() {
  return R"(# slurm2air site profile: what this cluster knows and its scripts do not say.
# Used with --profile FILE, or found as ./slurm2air.yaml or
# $XDG_CONFIG_HOME/slurm2air/profile.yaml. Command-line flags win over it;
# it wins over what a script implies. Unknown keys are an error.

# Partition -> AI Runtime accelerator type (GPU_1xA10, GPU_1xH100, GPU_8xH100, GPU_8xB300).
partitions:
  # gpu: GPU_8xH100

# GPU type in --gres/--gpus (lower case) -> accelerator type.
gpu_types:
  # a100: GPU_8xH100

# Module -> "provided" (the AI Runtime environment has it) or pip requirements.
# A name without a version (cuda) matches every version (cuda/12.1).
modules:
  cuda: provided
  cudnn: provided
  nccl: provided
  # my-tools: [my-tools==1.4]

# Conda environment -> a requirements file under the code root.
conda_envs:
  # esm: envs/esm-requirements.txt

# Container image as written in the script -> Unity Catalog image
# (<catalog>.<schema>.<image>:<tag>, pushed to the Unity Catalog artifact registry).
images:
  # "nvcr.io#nvidia/pytorch:24.01-py3": main.ml.pytorch:24.01-py3

# environment.version when the script gives none (4, 5, 6 or databricks_ai_vN).
# environment_version: "6"

# Databricks secret scope for credentials found in scripts.
secret_scope: slurm2air

# max_retries when the script has no --requeue/--no-requeue.
# max_retries: 1

# code_source root_path (relative to the YAML file).
# code_root: .

# Output schema: cli-1.19 (nested code_source, environment.docker_image) or
# cli-1.20 (flat code_source, environment.unity_catalog_image; CLI >= 1.20.0).
# target_schema: cli-1.19
# code_source: nested

# Diagnostic codes (S2A3102) or rule names to leave out of reports.
suppress: []
)";
}

}  // namespace s2a::profile
