// Meanings of launch values and the launch text for AI Runtime; see launch.hpp.
#include "air/launch.hpp"

#include <algorithm>
#include <cctype>

#include "air/variables.hpp"
#include "slurm/body.hpp"

namespace s2a::air {
namespace {

bool is_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<uint64_t> to_number(std::string_view text) {
  if (!is_digits(text) || text.size() > 18) return std::nullopt;
  return std::stoull(std::string(text));
}

ShellValue known(Meaning meaning, std::optional<uint64_t> number = std::nullopt) {
  return {meaning, number};
}

/// Unquoted or single-quoted text with nothing in it, which adds nothing to a word.
bool is_empty_text(const ast::WordPart& part) {
  return (part.kind == ast::PartKind::literal || part.kind == ast::PartKind::single_quoted) &&
         part.text.empty();
}

/// Text without expansions: a number or just text.
ShellValue text_value(std::string_view text) {
  const auto number = to_number(text);
  return number ? known(Meaning::number, number) : known(Meaning::text);
}

/// A recursive-descent evaluator for the integer arithmetic launch lines use.
/// Depth is bounded; overflow and division by zero give "unknown".
class Arithmetic {
 public:
  using Lookup = std::function<ShellValue(std::string_view)>;
  Arithmetic(std::string_view text, Lookup lookup) : text_(text), lookup_(std::move(lookup)) {}

  ShellValue run() {
    auto value = sum(0);
    skip_blanks();
    if (!value || pos_ != text_.size()) return {tainted_, std::nullopt};
    return {tainted_ == Meaning::unknown ? Meaning::number : tainted_, value};
  }

 private:
  static constexpr int kMaxDepth = 32;

  void skip_blanks() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }

  std::optional<uint64_t> sum(int depth) {
    auto left = product(depth);
    while (left) {
      skip_blanks();
      if (pos_ >= text_.size() || (text_[pos_] != '+' && text_[pos_] != '-')) break;
      const char op = text_[pos_++];
      const auto right = product(depth);
      if (!right) return std::nullopt;
      uint64_t out = 0;
      if (op == '+' ? __builtin_add_overflow(*left, *right, &out)
                    : __builtin_sub_overflow(*left, *right, &out)) {
        return std::nullopt;
      }
      left = out;
    }
    return left;
  }

  std::optional<uint64_t> product(int depth) {
    auto left = atom(depth);
    while (left) {
      skip_blanks();
      if (pos_ >= text_.size() ||
          std::string_view("*/%").find(text_[pos_]) == std::string_view::npos) {
        break;
      }
      const char op = text_[pos_++];
      const auto right = atom(depth);
      if (!right) return std::nullopt;
      if (op == '*') {
        uint64_t out = 0;
        if (__builtin_mul_overflow(*left, *right, &out)) return std::nullopt;
        left = out;
      } else {
        if (*right == 0) return std::nullopt;
        left = op == '/' ? *left / *right : *left % *right;
      }
    }
    return left;
  }

  std::optional<uint64_t> atom(int depth) {
    skip_blanks();
    if (pos_ >= text_.size() || depth > kMaxDepth) return std::nullopt;
    if (text_[pos_] == '(') {
      ++pos_;
      auto value = sum(depth + 1);
      skip_blanks();
      if (pos_ >= text_.size() || text_[pos_] != ')') return std::nullopt;
      ++pos_;
      return value;
    }
    const size_t start = pos_;
    if (text_[pos_] == '$') ++pos_;
    const bool braced = pos_ < text_.size() && text_[pos_] == '{';
    if (braced) ++pos_;
    const size_t name_start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    const std::string_view token = text_.substr(name_start, pos_ - name_start);
    if (braced) {
      if (pos_ >= text_.size() || text_[pos_] != '}') return std::nullopt;
      ++pos_;
    }
    if (token.empty()) return std::nullopt;
    if (is_digits(token) && start == name_start) return to_number(token);
    const ShellValue value = lookup_(token);
    // A result computed from the job id or $RANDOM keeps that meaning.
    if (value.meaning == Meaning::job_id || value.meaning == Meaning::random) {
      tainted_ = value.meaning;
      return 0;
    }
    return value.number;
  }

  std::string_view text_;
  Lookup lookup_;
  size_t pos_ = 0;
  Meaning tainted_ = Meaning::unknown;
};

bool has_flag(const ast::Command& command, std::initializer_list<std::string_view> flags) {
  for (size_t i = 1; i < command.words.size(); ++i) {
    const auto literal = slurm::literal_value(command.words[i]);
    if (!literal) continue;
    for (std::string_view flag : flags) {
      if (*literal == flag || literal->rfind(std::string(flag) + "=", 0) == 0) return true;
    }
  }
  return false;
}

}  // namespace

void ShellVariables::assign(uint32_t at, std::string name, ShellValue value) {
  assignments_.add(std::move(name), at, value);
}

ShellValue ShellVariables::lookup(std::string_view name, uint32_t at) const {
  const ShellValue* value = assignments_.last_before(name, at);
  return value != nullptr ? *value : ShellValue{};
}

ValueReader ValueReader::literal_values(const ShellVariables& variables) {
  static const Compute kNoShape;
  ValueReader reader(variables, kNoShape);
  reader.shape_known_ = false;
  return reader;
}

bool ValueReader::shape_unknown_for(std::string_view name) const {
  return !shape_known_ && (name.starts_with("SLURM_") || name == "NUM_NODES" ||
                           name == "LOCAL_WORLD_SIZE" || name == "WORLD_SIZE");
}

ShellValue ValueReader::named(std::string_view name, uint32_t at) const {
  at = at_.value_or(at);
  if (shape_unknown_for(name)) return {};
  const uint64_t nodes = compute_.nodes;
  const uint64_t gpus = compute_.gpus_per_node;
  if (name == "SLURM_NNODES" || name == "SLURM_JOB_NUM_NODES" || name == "SLURM_STEP_NUM_NODES" ||
      name == "NUM_NODES") {
    return known(Meaning::node_count, nodes);
  }
  if (name == "SLURM_GPUS_ON_NODE" || name == "SLURM_GPUS_PER_NODE" ||
      name == "SLURM_STEP_GPUS_ON_NODE") {
    if (compute_.narrower_gpus_per_node != 0) {
      return known(Meaning::number, compute_.narrower_gpus_per_node);
    }
    return known(Meaning::gpus_per_node, gpus);
  }
  if (name == "LOCAL_WORLD_SIZE") return known(Meaning::gpus_per_node, gpus);
  if (name == "WORLD_SIZE") return known(Meaning::total_gpus, nodes * gpus);
  if (name == "SLURM_NODEID" || name == "SLURM_PROCID" || name == "SLURM_LOCALID") {
    return known(Meaning::batch_rank, 0);
  }
  if (name == "NODE_RANK") return known(Meaning::node_rank);
  if (name == "SLURM_JOB_ID" || name == "SLURM_JOBID") return known(Meaning::job_id);
  if (name == "RANDOM") return known(Meaning::random);
  if (name == "MASTER_ADDR" || name == "SLURMD_NODENAME" || name == "HOSTNAME") {
    const ShellValue own = variables_.lookup(name, at);
    return own.meaning == Meaning::unknown ? known(Meaning::node0_address) : own;
  }
  if (name == "MASTER_PORT") {
    const ShellValue own = variables_.lookup(name, at);
    return own.meaning == Meaning::number ? own : known(Meaning::port);
  }
  return variables_.lookup(name, at);
}

ShellValue ValueReader::variable(const ast::WordPart& param) const {
  const std::string_view op = param.op;
  const ShellValue value = named(param.text, param.span.begin);
  if (op.empty()) return value;
  if (value.meaning == Meaning::node_list) {
    if (op == "[0]") return known(Meaning::node0_address);
    if (op == "#[@]" || op == "#[*]") {
      return shape_known_ ? known(Meaning::node_count, compute_.nodes) : ShellValue{};
    }
    return node_at(op);
  }
  // ${X:=8} reads like ${X:-8} (and also sets X, see track_variables()).
  if (op.starts_with(":-") || op.starts_with('-') || op.starts_with(":=") || op.starts_with('=')) {
    if (value.meaning != Meaning::unknown) return value;
    if (shape_unknown_for(param.text)) return {};  // set by Slurm, not unset
    return parts(param.parts);  // ${X:-8} with X unset in the script
  }
  return {};
}

/// `[K]`, `[$i]`, `[${i}]` or `[i]` after a node list: the node at that
/// index, which is a number or a variable (an array index is arithmetic, so
/// a bare name is a variable too).
ShellValue ValueReader::node_at(std::string_view op) {
  if (op.size() < 3 || op.front() != '[' || op.back() != ']') return {};
  std::string_view index = op.substr(1, op.size() - 2);
  if (index.starts_with("${") && index.ends_with('}')) {
    index = index.substr(2, index.size() - 3);
  } else if (index.starts_with('$')) {
    index.remove_prefix(1);
  }
  if (!to_number(index) && !is_variable_name(index)) return {};
  ShellValue value = known(Meaning::node_at_index);
  value.index = index;
  return value;
}

ShellValue ValueReader::parts(std::span<const ast::WordPart> parts) const {
  const ast::WordPart* only = nullptr;
  for (const ast::WordPart& part : parts) {
    if (is_empty_text(part)) continue;
    if (only != nullptr) return {};
    only = &part;
  }
  if (only == nullptr) return {};
  switch (only->kind) {
    case ast::PartKind::literal:
    case ast::PartKind::single_quoted:
    case ast::PartKind::ansi_c_quoted:
      return text_value(only->text);
    case ast::PartKind::double_quoted:
      return this->parts(only->parts);
    case ast::PartKind::param:
      return variable(*only);
    case ast::PartKind::arith:
      return arithmetic(only->text, only->span.begin);
    case ast::PartKind::command_subst:
    case ast::PartKind::backtick:
      return only->script ? substitution(*only->script) : ShellValue{};
    case ast::PartKind::process_subst:
      return {};
  }
  return {};
}

ShellValue ValueReader::word(const ast::Word& word) const { return parts(word.parts); }

ShellValue ValueReader::assigned_value(std::string_view first_text,
                                       std::span<const ast::WordPart> rest) const {
  if (first_text.empty()) return parts(rest);
  if (!std::all_of(rest.begin(), rest.end(), is_empty_text)) return {};
  return text_value(first_text);
}

ShellValue ValueReader::arithmetic(std::string_view expression, uint32_t at) const {
  return Arithmetic(expression, [&](std::string_view name) { return named(name, at); }).run();
}

namespace {

/// One stage of `$(...)` that gives a new value each time it runs.
bool draws_at_random(const ast::Command& command) {
  if (command.kind != ast::CommandKind::simple || command.words.empty()) return false;
  const std::string program = slurm::program_name(command.words[0]);
  if (program == "uuidgen" || program == "shuf" || program == "mcookie") return true;
  for (size_t i = 1; i < command.words.size(); ++i) {
    for (const ast::WordPart& part : command.words[i].parts) {
      if (part.kind == ast::PartKind::param && part.text == "RANDOM") return true;
    }
    const std::optional<std::string> arg = slurm::literal_value(command.words[i]);
    if (!arg) continue;
    if (program == "openssl" && i == 1 && *arg == "rand") return true;
    if (program == "date" && arg->starts_with('+') && arg->find("%N") != std::string::npos) {
      return true;  // nanoseconds
    }
    if (arg->find("/dev/urandom") != std::string::npos ||
        arg->find("/dev/random") != std::string::npos ||
        arg->find("/proc/sys/kernel/random/uuid") != std::string::npos ||
        arg->find("uuid4()") != std::string::npos ||
        arg->find("secrets.token") != std::string::npos) {
      return true;
    }
  }
  return false;
}

/// `$(uuidgen)`, `$(shuf -i 2000-9000 -n 1)`, `$(openssl rand -hex 8)`,
/// `$(head -c 8 /dev/urandom | od -An -tx8)`, `$(echo $RANDOM | md5sum)`,
/// `$(date +%N)`: a value that differs each time the command runs.
bool draws_at_random(const ast::Script& script) {
  if (script.body.items.size() != 1) return false;
  const ast::Command& command = script.body.items[0].command;
  if (command.kind == ast::CommandKind::pipeline) {
    return std::any_of(command.children.begin(), command.children.end(),
                       [](const ast::Command& stage) { return draws_at_random(stage); });
  }
  return draws_at_random(command);
}

}  // namespace

ShellValue ValueReader::substitution(const ast::Script& script) const {
  if (is_first_host_idiom(script) || names_node0(script)) return known(Meaning::node0_address);
  if (script.body.items.size() == 1 && is_host_list_command(script.body.items[0].command)) {
    return known(Meaning::node_list);
  }
  if (draws_at_random(script)) return known(Meaning::random);
  if (shape_known_ && counts_node_gpus(script)) {
    // Under Slurm the command saw the job's GPUs (the cgroup hides the
    // others); on AI Runtime it sees the node's, LOCAL_WORLD_SIZE. Where
    // the two differ no one number is right: none is given.
    if (compute_.narrower_gpus_per_node != 0) return known(Meaning::counted_gpus);
    return known(Meaning::gpus_per_node, compute_.gpus_per_node);
  }
  return {};
}

namespace {

/// `-L`, `--list-gpus`, or a `--query-gpu=FIELD` with a header-less CSV
/// `--format`: nvidia-smi prints one line per GPU of the node.
bool lists_one_line_per_gpu(const ast::Command& command) {
  if (command.kind != ast::CommandKind::simple || command.words.size() < 2 ||
      slurm::program_name(command.words[0]) != "nvidia-smi") {
    return false;
  }
  bool query = false;
  bool headerless = false;
  for (size_t i = 1; i < command.words.size(); ++i) {
    const std::optional<std::string> arg = slurm::literal_value(command.words[i]);
    if (!arg) return false;
    if (command.words.size() == 2 && (*arg == "-L" || *arg == "--list-gpus")) return true;
    if (arg->starts_with("--query-gpu=")) {
      query = true;  // a line per GPU, whatever the fields
    } else if (arg->starts_with("--format=csv") && arg->find("noheader") != std::string::npos) {
      headerless = true;
    } else {
      return false;  // -i picks GPUs, -x or another output changes the lines
    }
  }
  return query && headerless;
}

/// `wc -l`, `wc --lines`.
bool counts_lines(const ast::Command& command) {
  if (command.kind != ast::CommandKind::simple || command.words.size() != 2 ||
      slurm::program_name(command.words[0]) != "wc") {
    return false;
  }
  const std::optional<std::string> arg = slurm::literal_value(command.words[1]);
  return arg == "-l" || arg == "--lines";
}

}  // namespace

bool counts_node_gpus(const ast::Script& script) {
  if (script.body.items.size() != 1) return false;
  const ast::Command& pipeline = script.body.items[0].command;
  return pipeline.kind == ast::CommandKind::pipeline && pipeline.children.size() == 2 &&
         lists_one_line_per_gpu(pipeline.children[0]) && counts_lines(pipeline.children[1]);
}

bool is_first_host_idiom(const ast::Script& script) {
  if (script.body.items.size() != 1) return false;
  const ast::Command& pipeline = script.body.items[0].command;
  if (pipeline.kind != ast::CommandKind::pipeline || pipeline.children.size() != 2) return false;
  const ast::Command& second = pipeline.children[1];
  if (!is_host_list_command(pipeline.children[0]) || second.kind != ast::CommandKind::simple) {
    return false;
  }
  if (second.words.empty() || slurm::program_name(second.words[0]) != "head") return false;
  std::string args;
  for (size_t i = 1; i < second.words.size(); ++i) {
    args += slurm::literal_value(second.words[i]).value_or("?");
  }
  // A bare `head` prints ten lines: on a multi-node job, a (partial) node
  // list, which the host-list rewrite inside the pipeline keeps one.
  return args == "-n1" || args == "-1" || args == "--lines=1";
}

bool is_host_list_command(const ast::Command& command) {
  if (command.kind != ast::CommandKind::simple || command.words.size() < 3 ||
      command.words.size() > 4 || slurm::program_name(command.words[0]) != "scontrol" ||
      slurm::literal_value(command.words[1]) != "show") {
    return false;
  }
  const auto what = slurm::literal_value(command.words[2]);
  return what == "hostnames" || what == "hostname";
}

namespace {

/// `hostname ...` in the batch shell (on node 0), or one srun task of it.
bool asks_node0(const ast::Command& command) {
  if (command.kind != ast::CommandKind::simple || command.words.empty()) return false;
  const std::string program = slurm::program_name(command.words[0]);
  if (program == "hostname") return true;
  if (program != "srun") return false;
  // `srun -N1 -n1 -w "$head_node" hostname --ip-address`, `srun --ntasks=1
  // hostname`: one task, which Slurm places on the allocation's first node
  // unless -w names another.
  const bool one_node =
      has_flag(command, {"-N1", "--nodes=1", "-n1", "--ntasks=1", "-w", "--nodelist", "-N", "-n"});
  const bool runs_hostname =
      std::any_of(command.words.begin() + 1, command.words.end(),
                  [](const ast::Word& w) { return slurm::program_name(w) == "hostname"; });
  return one_node && runs_hostname;
}

/// `tail -n1`, `awk '{print $1}'`, `cut -d' ' -f2`, `grep -oE '...'`: what
/// they keep of a host's name or addresses is still that host's.
bool picks_from_lines(const ast::Command& command) {
  if (command.kind != ast::CommandKind::simple || command.words.empty()) return false;
  const std::string program = slurm::program_name(command.words[0]);
  return program == "tail" || program == "head" || program == "awk" || program == "cut" ||
         program == "grep" || program == "tr" || program == "sed";
}

}  // namespace

const ast::Command* node0_query(const ast::Script& script) {
  if (script.body.items.size() != 1) return nullptr;
  const ast::Command& command = script.body.items[0].command;
  if (command.kind != ast::CommandKind::pipeline) return asks_node0(command) ? &command : nullptr;
  const auto& stages = command.children;
  if (stages.empty() || !asks_node0(stages[0]) ||
      !std::all_of(stages.begin() + 1, stages.end(), picks_from_lines)) {
    return nullptr;
  }
  return &stages[0];
}

bool names_node0(const ast::Script& script) { return node0_query(script) != nullptr; }

std::string node_list_stand_in() {
  return "printf '%s\\n' \"$MASTER_ADDR\" $(seq -f 'node-%g' 1 $((NUM_NODES - 1)))";
}

std::string deepspeed_hostfile_value() {
  return "\"$(seq -f \"node-%g slots=$LOCAL_WORLD_SIZE\" 0 $((NUM_NODES - 1)) "
         "> /tmp/slurm2air.hostfile && echo /tmp/slurm2air.hostfile)\"";
}

std::string per_node_torchrun(std::string_view procs_per_node) {
  return "torchrun --nnodes=\"$NUM_NODES\" --node_rank=\"$NODE_RANK\" --nproc_per_node=" +
         std::string(procs_per_node) +
         " --master_addr=\"$MASTER_ADDR\" --master_port=\"$MASTER_PORT\" --no_python ";
}

std::optional<LauncherChoice> slurm_launcher_choice(const std::vector<ast::Word>& words,
                                                    size_t from) {
  constexpr std::string_view kOption = "--launcher";
  for (size_t i = from; i < words.size(); ++i) {
    // Looked at for every word of every Python command: the first part's
    // text rules out nearly all of them before a value is built.
    const auto& parts = words[i].parts;
    if (parts.empty() || parts.front().kind != ast::PartKind::literal ||
        !std::string_view(parts.front().text).starts_with(kOption)) {
      continue;
    }
    const auto value = slurm::literal_value(words[i]);
    if (value == "--launcher=slurm") return LauncherChoice{words[i].span, "--launcher=pytorch"};
    if (value == kOption && i + 1 < words.size() && slurm::literal_value(words[i + 1]) == "slurm") {
      return LauncherChoice{words[i + 1].span, "pytorch"};
    }
  }
  return std::nullopt;
}

std::optional<Span> slurm_launcher_port_setting(const std::vector<ast::Word>& words, size_t from) {
  const auto first_text = [&](size_t i) -> std::string_view {
    const auto& parts = words[i].parts;
    if (parts.empty() || parts.front().kind != ast::PartKind::literal) return {};
    return parts.front().text;
  };
  for (size_t i = from; i < words.size(); ++i) {
    const std::string_view text = first_text(i);
    if (!text.starts_with("dist_params.port=") && !text.starts_with("env_cfg.dist_cfg.port=")) {
      continue;
    }
    const bool sole_value =
        i > from && (first_text(i - 1) == "--cfg-options" || first_text(i - 1) == "--options") &&
        (i + 1 == words.size() || first_text(i + 1).starts_with('-'));
    return Span{sole_value ? words[i - 1].span.begin : words[i].span.begin, words[i].span.end};
  }
  return std::nullopt;
}

std::string one_node_torchrun(std::string_view procs) {
  return "torchrun --standalone --nnodes=1 --nproc_per_node=" + std::string(procs) +
         " --no_python ";
}

uint64_t gpus_used(const TaskGpuBinding& binding, uint64_t tasks) {
  if (binding.gpus_per_task > 0) return binding.gpus_per_task * tasks;
  return (tasks + binding.tasks_per_gpu - 1) / binding.tasks_per_gpu;
}

std::string visible_devices_for(const TaskGpuBinding& binding) {
  if (binding.gpus_per_task > 1) {
    const std::string first = "LOCAL_RANK * " + std::to_string(binding.gpus_per_task);
    return "\"$(seq -s, $((" + first + ")) $((" + first + " + " +
           std::to_string(binding.gpus_per_task - 1) + ")))\"";
  }
  if (binding.tasks_per_gpu > 1) {
    return "\"$((LOCAL_RANK / " + std::to_string(binding.tasks_per_gpu) + "))\"";
  }
  return "\"$LOCAL_RANK\"";
}

std::string slurm_task_exports(const SlurmTaskEnv& env) {
  std::string exports =
      "export SLURM_PROCID=\"$RANK\" SLURM_LOCALID=\"$LOCAL_RANK\" SLURM_NTASKS=\"$WORLD_SIZE\" "
      "SLURM_NPROCS=\"$WORLD_SIZE\" SLURM_NTASKS_PER_NODE=\"$LOCAL_WORLD_SIZE\" "
      "SLURM_NODEID=\"$GROUP_RANK\" SLURM_NNODES=";
  exports += env.step_nodes;
  exports += " SLURM_JOB_NUM_NODES=\"$NUM_NODES\"";
  if (env.gpus_on_node > 0) exports += " SLURM_GPUS_ON_NODE=" + std::to_string(env.gpus_on_node);
  if (env.cpus_per_task > 0) {
    exports += " SLURM_CPUS_PER_TASK=" + std::to_string(env.cpus_per_task);
  }
  if (!env.visible_devices.empty()) {
    exports += " CUDA_VISIBLE_DEVICES=";
    exports += env.visible_devices;
  }
  return exports + ";";
}

bool counts_from_node(std::string_view command) {
  // In the task shim's exports $LOCAL_WORLD_SIZE is torchrun's own count.
  constexpr std::string_view kShimUse = "SLURM_NTASKS_PER_NODE=\"$";
  constexpr std::string_view kName = "LOCAL_WORLD_SIZE";
  for (size_t at = command.find(kName); at != std::string_view::npos;
       at = command.find(kName, at + kName.size())) {
    if (!command.substr(0, at).ends_with(kShimUse)) return true;
  }
  return false;
}

std::string slurm_task_shim(const SlurmTaskEnv& env) {
  return "bash -c '" + slurm_task_exports(env) + " exec \"$@\"' slurm-task ";
}

bool is_shim_variable(std::string_view name) {
  return name == "SLURM_PROCID" || name == "SLURM_LOCALID" || name == "SLURM_NTASKS" ||
         name == "SLURM_NPROCS" || name == "SLURM_NTASKS_PER_NODE" || name == "SLURM_NODEID";
}

std::string single_quote(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
  return out;
}

namespace {

/// `nodes=( $(scontrol show hostnames) )` and copies `("${nodes[@]}")`.
ShellValue array_value(const ValueReader& reader, const ast::Assignment& a) {
  if (a.elements.size() != 1) return {};
  const ShellValue element = reader.word(a.elements[0]);
  if (element.meaning == Meaning::node_list) return element;
  for (const ast::WordPart& part : a.elements[0].parts) {
    const ast::WordPart* p = &part;
    if (p->kind == ast::PartKind::double_quoted && p->parts.size() == 1) p = &p->parts[0];
    if (p->kind == ast::PartKind::param && (p->op == "[@]" || p->op == "[*]")) {
      ast::WordPart plain = *p;
      plain.op.clear();
      return reader.variable(plain);
    }
  }
  return {};
}

/// `: ${GPUS_PER_NODE:=8}` (NVIDIA's MLPerf scripts, nanotron): the
/// no-op command assigns the default when the name is unset, so the name
/// holds what `${GPUS_PER_NODE:-8}` reads from here on.
template <class Record>
void record_default_assignments(const ValueReader& reader, const ast::Command& command,
                                Record& record) {
  for (size_t i = 1; i < command.words.size(); ++i) {
    const ast::Word& word = command.words[i];
    if (word.parts.size() != 1) continue;
    const ast::WordPart* param = &word.parts[0];
    if (param->kind == ast::PartKind::double_quoted && param->parts.size() == 1) {
      param = &param->parts[0];
    }
    if (param->kind != ast::PartKind::param) continue;
    if (!param->op.starts_with(":=") && !param->op.starts_with('=')) continue;
    record(word.span.begin, param->text, reader.variable(*param));
  }
}

}  // namespace

void track_shell_variables(
    const slurm::Body& body, const ValueReader& reader, ShellVariables& variables,
    const std::function<void(uint32_t view, const ast::Assignment&)>& each_assignment) {
  for (const slurm::Site& site : body.sites) {
    const slurm::Context& c = site.context;
    if (site.view != 0 || c.in_function || c.in_srun || c.in_substitution) continue;
    const bool conditional = c.in_branch || c.in_loop;
    auto record = [&](uint32_t at, const std::string& name, ShellValue value) {
      if (conditional && value.meaning == Meaning::unknown) return;
      variables.assign(at, name, value);
    };
    const ast::Command& command = *site.command;
    if (command.words.empty()) {
      for (const auto& a : command.assignments) {
        record(a.span.begin, a.name, a.is_array ? array_value(reader, a) : reader.word(a.value));
        if (each_assignment) each_assignment(site.view, a);
      }
    } else if (site.program == ":") {
      record_default_assignments(reader, command, record);
    } else if (slurm::is_declaration_builtin(site.program)) {  // readonly N=8 too
      for (size_t i = 1; i < command.words.size(); ++i) {
        const ast::Word& word = command.words[i];
        if (word.parts.empty() || word.parts[0].kind != ast::PartKind::literal) continue;
        const std::string& head = word.parts[0].text;
        const size_t eq = head.find('=');
        if (eq == std::string::npos || eq == 0) continue;
        const std::span<const ast::WordPart> rest(word.parts.begin() + 1, word.parts.end());
        record(word.span.begin, head.substr(0, eq),
               reader.assigned_value(std::string_view(head).substr(eq + 1), rest));
      }
    }
  }
}

}  // namespace s2a::air
