// The rehearsal planner: node count and GPUs per node, the per-node
// environment of spec/air-runtime.md §1.9, and the files a run needs.
#include "rehearse/plan.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "io/files.hpp"
#include "rehearse/code_copy.hpp"

extern char** environ;  // POSIX: the process environment

namespace s2a::rehearse {
namespace fs = std::filesystem;
namespace {

bool is_name_char(char c, bool first) {
  return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
         (!first && c >= '0' && c <= '9');
}

// $VAR and ${VAR} from `environment`; unknown variables expand to nothing,
// as os.ExpandEnv does in the CLI.
std::string expand_variables(const std::string& text, const Environment& environment) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$' || i + 1 >= text.size()) {
      out.push_back(text[i]);
      continue;
    }
    size_t start = i + 1;
    size_t end = start;
    const bool braced = text[start] == '{';
    if (braced) {
      end = text.find('}', start);
      if (end == std::string::npos) {
        out.append(text, i, std::string::npos);
        break;
      }
      ++start;
    } else {
      while (end < text.size() && is_name_char(text[end], end == start)) ++end;
      if (end == start) {
        out.push_back('$');
        continue;
      }
    }
    const auto found = environment.find(text.substr(start, end - start));
    if (found != environment.end()) out += found->second;
    i = braced ? end : end - 1;
  }
  return out;
}

uint32_t gpus_per_node(const WorkloadFile& workload, const RehearseOptions& options) {
  if (options.gpus_per_node) return *options.gpus_per_node;
  if (const auto gpus = gpus_per_node_of(workload.accelerator_type)) return *gpus;
  throw RehearseError(workload.path + ": compute.accelerator_type '" + workload.accelerator_type +
                      "' does not say how many GPUs a node has; pass --gpus-per-node");
}

uint32_t node_count(const WorkloadFile& workload, const RehearseOptions& options) {
  if (options.nodes) return *options.nodes;
  const auto gpus = gpus_per_node_of(workload.accelerator_type);
  if (!gpus || workload.num_accelerators == 0 || workload.num_accelerators % *gpus != 0) {
    throw RehearseError(workload.path +
                        ": cannot derive the node count from compute; pass --nodes");
  }
  const uint64_t nodes = workload.num_accelerators / *gpus;
  if (nodes > kMaxNodes) {
    throw RehearseError(workload.path + ": the workload asks for " + std::to_string(nodes) +
                        " nodes; a rehearsal runs at most " + std::to_string(kMaxNodes) +
                        " on one machine, pass --nodes");
  }
  return static_cast<uint32_t>(nodes);
}

void check_shape(uint32_t nodes, uint32_t gpus) {
  if (nodes == 0 || nodes > kMaxNodes) {
    throw RehearseError("--nodes must be between 1 and " + std::to_string(kMaxNodes));
  }
  if (gpus == 0 || gpus > kMaxGpusPerNode) {
    throw RehearseError("--gpus-per-node must be between 1 and " + std::to_string(kMaxGpusPerNode));
  }
  if (uint64_t{nodes} * gpus > kMaxWorldSize) {
    throw RehearseError("nodes x GPUs per node must be at most " + std::to_string(kMaxWorldSize));
  }
}

std::string code_basename(const std::string& root) {
  const std::string name = fs::path(root).filename().string();
  return name.empty() || name == "." || name == ".." ? "code" : name;
}

// Block style throughout, however the YAML spelled it: the file is for a program to read.
void use_block_style(YAML::Node node) {
  if (node.IsMap() || node.IsSequence()) {
    node.SetStyle(YAML::EmitterStyle::Block);
    for (auto entry : node) use_block_style(node.IsMap() ? entry.second : entry);
  }
}

std::string emit_parameters(const YAML::Node& parameters) {
  YAML::Node copy = YAML::Clone(parameters);
  use_block_style(copy);
  YAML::Emitter out;
  out << copy;
  return std::string(out.c_str()) + "\n";
}

Environment node_environment(const RehearsalPlan& plan, const WorkloadFile& workload,
                             const Environment& inherited, const NodePlan& node) {
  Environment env = inherited;
  for (const auto& [name, value] : workload.env_variables) env[name] = value;
  for (const auto& [name, ref] : workload.secrets) env[name] = kSecretPlaceholder;
  env["NUM_NODES"] = std::to_string(plan.nodes);
  env["NODE_RANK"] = std::to_string(node.rank);
  env["MASTER_ADDR"] = kLoopback;
  env["MASTER_PORT"] = std::to_string(plan.master_port);
  env["WORLD_SIZE"] = std::to_string(plan.nodes * plan.gpus_per_node);
  env["LOCAL_WORLD_SIZE"] = std::to_string(plan.gpus_per_node);
  if (plan.code_root) env["CODE_SOURCE_PATH"] = node.code_dir;
  if (plan.parameters_yaml) env["HYPERPARAMETERS_PATH"] = node.dir + "/hyperparameters.yaml";
  return env;
}

}  // namespace

const std::vector<std::string>& platform_variable_names() {
  static const std::vector<std::string> names = {
      "CODE_SOURCE_PATH", "HYPERPARAMETERS_PATH", "LOCAL_WORLD_SIZE", "MASTER_ADDR",
      "MASTER_PORT",      "MLFLOW_RUN_ID",        "NODE_RANK",        "NUM_NODES",
      "WORLD_SIZE"};
  return names;
}

bool is_scheduler_variable(const std::string& name) {
  static const char* const prefixes[] = {"SLURM_", "SBATCH_", "SRUN_", "SALLOC_",
                                         "PMI_",   "PMIX_",   "OMPI_", "TORCHELASTIC_"};
  for (const char* prefix : prefixes) {
    if (name.starts_with(prefix)) return true;
  }
  static const char* const exact[] = {"RANK",      "LOCAL_RANK",       "GROUP_RANK",
                                      "ROLE_RANK", "GROUP_WORLD_SIZE", "ROLE_WORLD_SIZE"};
  for (const char* word : exact) {
    if (name == word) return true;
  }
  const auto& platform = platform_variable_names();
  return std::find(platform.begin(), platform.end(), name) != platform.end();
}

std::string resolve_root_path(const std::string& root_path, const std::string& workload_path,
                              const Environment& caller_environment) {
  std::string path = expand_variables(root_path, caller_environment);
  if (path == "~" || path.starts_with("~/")) {
    const auto home = caller_environment.find("HOME");
    if (home != caller_environment.end()) path = home->second + path.substr(1);
  }
  if (path == "project_root") path = ".";
  if (path.starts_with("project_root/")) path = path.substr(std::strlen("project_root/"));
  fs::path resolved(path);
  if (resolved.is_relative()) {
    fs::path base = fs::path(workload_path).parent_path();
    if (base.empty()) base = ".";
    resolved = base / resolved;
  }
  std::error_code error;
  fs::path absolute = fs::weakly_canonical(fs::absolute(resolved), error);
  if (error) absolute = fs::absolute(resolved).lexically_normal();
  std::string text = absolute.string();
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

RehearsalPlan plan_rehearsal(const WorkloadFile& workload, const RehearseOptions& options,
                             const Environment& caller_environment, const std::string& workdir,
                             uint16_t master_port) {
  RehearsalPlan plan;
  plan.workload_path = workload.path;
  plan.command = workload.command;
  plan.workdir = workdir;
  plan.command_path = workdir + "/command.sh";
  plan.gpus_per_node = gpus_per_node(workload, options);
  plan.nodes = node_count(workload, options);
  check_shape(plan.nodes, plan.gpus_per_node);
  plan.master_port = master_port;
  plan.timeout_seconds = options.timeout_seconds;
  if (!plan.timeout_seconds && workload.timeout_minutes) {
    plan.timeout_seconds = static_cast<double>(*workload.timeout_minutes) * 60.0;
  }
  // Beyond ~30 years a limit means "none"; capping keeps the clock arithmetic in range.
  if (plan.timeout_seconds && *plan.timeout_seconds > kMaxTimeoutSeconds)
    plan.timeout_seconds.reset();
  if (plan.timeout_seconds && !(*plan.timeout_seconds > 0)) {
    throw RehearseError("--timeout must be a positive number of seconds");
  }
  if (workload.code_source) {
    const std::string root =
        resolve_root_path(workload.code_source->root_path, workload.path, caller_environment);
    std::error_code error;
    if (!fs::is_directory(root, error)) {
      throw RehearseError(workload.path + ": code_source.root_path '" +
                          workload.code_source->root_path + "' is not a directory (resolved to " +
                          root + ")");
    }
    plan.code_root = root;
    plan.include_paths = workload.code_source->include_paths;
  }
  if (workload.parameters) plan.parameters_yaml = emit_parameters(*workload.parameters);
  for (const auto& [name, ref] : workload.secrets) plan.secret_names.push_back(name);

  Environment inherited;
  for (const auto& [name, value] : caller_environment) {
    if (!is_scheduler_variable(name)) inherited[name] = value;
  }
  for (const auto& [name, value] : workload.env_variables) {
    const auto& platform = platform_variable_names();
    if (std::find(platform.begin(), platform.end(), name) != platform.end()) {
      plan.notes.push_back("env_variables sets " + name +
                           ", which AI Runtime sets itself; the rehearsal uses the platform value");
    }
  }
  for (uint32_t rank = 0; rank < plan.nodes; ++rank) {
    NodePlan node;
    node.rank = rank;
    node.dir = workdir + "/node-" + std::to_string(rank);
    node.log_path = workdir + "/node-" + std::to_string(rank) + ".log";
    node.code_dir =
        plan.code_root ? node.dir + "/code_source/" + code_basename(*plan.code_root) : node.dir;
    node.environment = node_environment(plan, workload, inherited, node);
    plan.node_plans.push_back(std::move(node));
  }
  return plan;
}

uint16_t find_free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw RehearseError(std::string("cannot open a socket: ") + std::strerror(errno));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;  // the kernel picks a free ephemeral port
  socklen_t length = sizeof(address);
  // sockaddr_in -> sockaddr is how the sockets API is spelled.
  auto* generic = reinterpret_cast<sockaddr*>(&address);
  if (::bind(fd, generic, sizeof(address)) != 0 || ::getsockname(fd, generic, &length) != 0) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    throw RehearseError("cannot bind a port on 127.0.0.1: " + reason);
  }
  ::close(fd);
  return ntohs(address.sin_port);
}

Environment current_environment() {
  Environment env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text(*entry);
    const size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0) continue;
    env.emplace(text.substr(0, equals), text.substr(equals + 1));
  }
  return env;
}

std::string make_workdir(const std::string& requested) {
  std::error_code error;
  if (!requested.empty()) {
    const fs::path dir = fs::absolute(requested);
    if (fs::exists(dir, error)) {
      if (!fs::is_directory(dir, error)) throw RehearseError(requested + ": not a directory");
      if (!fs::is_empty(dir, error)) {
        throw RehearseError(requested + ": not empty; give a new or empty --workdir");
      }
    } else if (!fs::create_directories(dir, error) || error) {
      throw RehearseError(requested + ": cannot be created (" + error.message() + ")");
    }
    return fs::weakly_canonical(dir).string();
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/slurm2air-rehearse-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw RehearseError("cannot create a work directory: " + std::string(std::strerror(errno)));
  }
  return pattern;
}

void prepare_rehearsal(const RehearsalPlan& plan) {
  try {
    io::write_atomically(plan.command_path, plan.command);
    for (const NodePlan& node : plan.node_plans) {
      fs::create_directories(node.dir);
      if (plan.parameters_yaml) {
        io::write_atomically(node.dir + "/hyperparameters.yaml", *plan.parameters_yaml);
      }
      if (plan.code_root) {
        copy_code_tree(*plan.code_root, node.code_dir, plan.include_paths, plan.workdir);
      }
    }
  } catch (const io::FileError& error) {
    throw RehearseError(error.what());
  } catch (const fs::filesystem_error& error) {
    throw RehearseError(std::string("cannot prepare the work directory: ") + error.what());
  }
}

std::string describe_plan(const RehearsalPlan& plan) {
  std::ostringstream out;
  out << "slurm2air rehearse: " << plan.workload_path << "\n"
      << "  nodes:          " << plan.nodes << " local processes (NODE_RANK 0.." << plan.nodes - 1
      << "), each `bash command.sh` in its own process group\n"
      << "  GPUs per node:  " << plan.gpus_per_node
      << " (WORLD_SIZE=" << plan.nodes * plan.gpus_per_node
      << ", LOCAL_WORLD_SIZE=" << plan.gpus_per_node << "; no GPU is used)\n"
      << "  rendezvous:     MASTER_ADDR=" << kLoopback << " MASTER_PORT=" << plan.master_port
      << "\n"
      << "  work directory: " << plan.workdir << "\n";
  if (plan.code_root) {
    out << "  code_source:    " << *plan.code_root << " copied once per node (CODE_SOURCE_PATH)\n";
  }
  out << "  time limit:     "
      << (plan.timeout_seconds ? std::to_string(static_cast<uint64_t>(*plan.timeout_seconds)) + " s"
                               : std::string("none (Ctrl-C stops every node)"))
      << "\n";
  if (!plan.secret_names.empty()) {
    out << "  secrets:        ";
    for (size_t i = 0; i < plan.secret_names.size(); ++i) {
      out << (i ? ", " : "") << plan.secret_names[i];
    }
    out << " = \"" << kSecretPlaceholder << "\" (placeholders, never the real values)\n";
  }
  for (const std::string& note : plan.notes) out << "  note: " << note << "\n";
  out << "  command:\n";
  std::istringstream lines(plan.command);
  std::string line;
  while (std::getline(lines, line)) out << "    | " << line << "\n";
  return out.str();
}

}  // namespace s2a::rehearse
