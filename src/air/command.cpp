#include "air/command.hpp"

#include <algorithm>
#include <array>
#include <set>

#include "air/setup.hpp"
#include "air/variables.hpp"

namespace s2a::air {
namespace {

using slurm::Launcher;
using slurm::Site;

bool contains(std::initializer_list<std::string_view> list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

bool is_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool is_slurm_client(std::string_view program) {
  return contains({"scontrol", "squeue", "sbcast", "sbatch", "scancel", "sacct", "sinfo",
                   "salloc", "sattach", "sstat", "sprio", "sshare", "sreport", "sacctmgr"},
                  program);
}

/// Commands that are harmless when every node runs them.
bool is_idempotent(std::string_view program) {
  return contains({"",       "echo",   "printf", "date",  "hostname", "nvidia-smi", "set",
                   "cd",     "mkdir",  "export", "unset", "source",   ".",          "ulimit",
                   "umask",  "sleep",  "true",   "false", ":",        "env",        "printenv",
                   "which",  "type",   "command", "test", "[",        "[[",         "pwd",
                   "ls",     "cat",    "head",   "tail",  "wc",       "grep",       "exit",
                   "return", "shift",  "wait",   "trap",  "local",    "declare",    "readonly",
                   "typeset", "let",   "nproc",  "free",  "df",       "uname",      "id",
                   "whoami", "lscpu",  "module", "ml",    "pip",      "pip3",       "nvcc",
                   "srun",   "basename", "dirname", "realpath", "readlink", "seq", "sort"},
                  program);
}

/// The scontrol idiom for the first node: `scontrol show hostname[s] [LIST] | head -n 1`.
bool is_first_host_idiom(const ast::Script& script) {
  if (script.body.items.size() != 1) return false;
  const ast::Command& pipeline = script.body.items[0].command;
  if (pipeline.kind != ast::CommandKind::pipeline || pipeline.children.size() != 2) return false;
  const ast::Command& first = pipeline.children[0];
  const ast::Command& second = pipeline.children[1];
  if (first.kind != ast::CommandKind::simple || second.kind != ast::CommandKind::simple) {
    return false;
  }
  if (first.words.size() < 3 || slurm::program_name(first.words[0]) != "scontrol" ||
      slurm::literal_value(first.words[1]) != "show") {
    return false;
  }
  const auto what = slurm::literal_value(first.words[2]);
  if (what != "hostnames" && what != "hostname") return false;
  if (second.words.empty() || slurm::program_name(second.words[0]) != "head") return false;
  std::string args;
  for (size_t i = 1; i < second.words.size(); ++i) {
    args += slurm::literal_value(second.words[i]).value_or("?");
  }
  return args == "-n1" || args == "-1" || args == "--lines=1" || args.empty();
}

/// Removes the indentation shared by all non-blank lines and the blank lines
/// around the text: a `bash -c '...'` script is usually indented inside quotes.
std::string dedent(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string_view::npos ? text.size() - start
                                                                     : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  auto blank = [](std::string_view line) {
    return line.find_first_not_of(" \t\r") == std::string_view::npos;
  };
  while (!lines.empty() && blank(lines.front())) lines.erase(lines.begin());
  while (!lines.empty() && blank(lines.back())) lines.pop_back();
  size_t indent = std::string_view::npos;
  for (std::string_view line : lines) {
    if (!blank(line)) indent = std::min(indent, line.find_first_not_of(" \t"));
  }
  std::string out;
  for (std::string_view line : lines) {
    if (!blank(line)) out.append(line.substr(std::min(indent, line.size())));
    out.push_back('\n');
  }
  return out;
}

/// torchrun / torch.distributed.launch options that take a value.
bool torch_option_takes_value(std::string_view name) {
  return contains({"nnodes", "nproc_per_node", "node_rank", "master_addr", "master_port",
                   "rdzv_backend", "rdzv_endpoint", "rdzv_id", "rdzv_conf", "max_restarts",
                   "monitor_interval", "start_method", "role", "log_dir", "redirects", "tee",
                   "local_addr", "logs_specs", "local_ranks_filter", "rdzv_timeout"},
                  name);
}

struct LauncherOption {
  std::string name;          // normalized: no dashes, '_' for '-'
  size_t word = 0;           // index of the word holding the value
  Span value_span;           // the value as written
  std::optional<std::string> literal;  // the value when it has no expansions
};

class CommandMapper final : public CommandEditor {
 public:
  CommandMapper(const SourceFile& file, const slurm::Body& body, const slurm::Job& job,
                const Compute& compute, const std::string& experiment_name,
                Diagnostics& diagnostics, const SetupOptions& setup_options)
      : file_(file),
        body_(body),
        job_(job),
        compute_(compute),
        experiment_name_(experiment_name),
        diagnostics_(diagnostics),
        edits_(body.views.size()),
        replaced_(body.views.size()),
        setup_(*this, body, setup_options, setup_result_) {}

  CommandMapping run() {
    for (const Site& site : body_.sites) {
      remove_statement_if_replaced_by_runtime(site);
      if (site.launcher.kind != Launcher::none || site.program == "srun") first_launch_seen_ = true;
    }
    for (const Site& site : body_.sites) replace_first_host_idiom(site);
    for (const Site& site : body_.sites) {
      if (!is_replaced(site.view, site.command->span)) map_site(site);
    }
    for (const Site& site : body_.sites) unwrap_nested_script(site);
    const slurm::TextView& top = body_.views[0];
    std::string text = dedent(apply_edits(top.text, top.window, edits_[0]));
    result_.command = "cd \"$CODE_SOURCE_PATH\"\n" + text;
    result_.dependencies = std::move(setup_result_.dependencies);
    result_.env_variables = std::move(setup_result_.env_variables);
    result_.secrets = std::move(setup_result_.secrets);
    result_.redactions = std::move(setup_result_.redactions);
    return std::move(result_);
  }

 private:
  // --- edits and reports ----------------------------------------------------

  Span file_span(uint32_t view, Span span) const override {
    const slurm::TextView& v = body_.views[view];
    return v.exact ? span : v.fallback;
  }

  void edit(uint32_t view, Span span, std::string replacement, std::string reason) override {
    result_.edits.push_back({file_span(view, span), replacement, std::move(reason)});
    edits_[view].push_back({span, std::move(replacement)});
  }

  void replace(uint32_t view, Span span, std::string replacement, std::string reason) override {
    replaced_[view].push_back(span);
    edit(view, span, std::move(replacement), std::move(reason));
  }

  bool is_replaced(uint32_t view, Span span) const {
    return std::any_of(replaced_[view].begin(), replaced_[view].end(), [&](Span r) {
      return r.begin <= span.begin && span.end <= r.end;
    });
  }

  void report(Code code, uint32_t view, Span span, std::string message,
              std::string hint) override {
    diagnostics_.push_back({code, file_span(view, span), std::move(message), std::move(hint)});
  }

  std::string_view source(uint32_t view, Span span) const override {
    return body_.views[view].text.substr(span.begin, span.size());
  }

  /// Takes a whole statement out of the command. A statement alone on its
  /// lines becomes a comment, so the reader sees what went; one sharing its
  /// line with other code becomes `:` so the syntax around it stays valid.
  /// `shown`, when given, is put in the comment instead of the source text.
  void remove_statement(const Site& site, const std::string& reason,
                        std::string_view shown) override {
    const uint32_t view = site.view;
    const Span span = site.statement ? site.statement->span : site.command->span;
    const std::string_view text = body_.views[view].text;
    const size_t line_begin = text.rfind('\n', span.begin == 0 ? 0 : span.begin - 1);
    const size_t from = line_begin == std::string_view::npos ? 0 : line_begin + 1;
    const bool alone_before =
        text.substr(from, span.begin - from).find_first_not_of(" \t") == std::string_view::npos;
    size_t line_end = text.find('\n', span.end);
    if (line_end == std::string_view::npos) line_end = text.size();
    const std::string_view after = text.substr(span.end, line_end - span.end);
    const size_t after_code = after.find_first_not_of(" \t;");
    const bool alone_after = after_code == std::string_view::npos || after[after_code] == '#';
    if (site.statement && alone_before && alone_after && !site.statement->background) {
      std::string commented = "# [slurm2air] ";
      for (char c : shown.empty() ? source(view, span) : shown) {
        commented.push_back(c);
        if (c == '\n') commented += "# ";
      }
      replace(view, span, commented, reason);
    } else {
      replace(view, site.command->span, "true", reason);
    }
  }

  // --- pass 1: statements AI Runtime makes unnecessary ---------------------

  void remove_statement_if_replaced_by_runtime(const Site& site) {
    if (site.context.in_substitution || is_replaced(site.view, site.command->span)) return;
    const ast::Command& command = *site.command;
    if (setup_.map_setup_command(site)) return;
    const auto assignments = assignments_of(command, site, body_.views[site.view].text);
    if (assignments.empty()) return;
    if (std::all_of(assignments.begin(), assignments.end(), [](const Assignment& a) {
          return is_runtime_variable(a.name);
        })) {
      remove_statement(site, "AI Runtime sets this variable on every node", {});
      report(Code::provided_variable_removed, site.view, command.span,
             "AI Runtime sets " + assignments.front().name +
                 " on every node; the script's own assignment is removed",
             "");
      return;
    }
    setup_.move_exports_to_env(site, assignments, first_launch_seen_);
  }

  // --- pass 1: $(scontrol show hostnames ... | head -n 1) -> $MASTER_ADDR ---

  void replace_first_host_idiom(const Site& site) {
    for (const ast::Word& word : site.command->words) replace_idiom_in(site.view, word.parts);
    for (const auto& a : site.command->assignments) replace_idiom_in(site.view, a.value.parts);
  }

  void replace_idiom_in(uint32_t view, const std::vector<ast::WordPart>& parts) {
    for (const ast::WordPart& part : parts) {
      if ((part.kind == ast::PartKind::command_subst || part.kind == ast::PartKind::backtick) &&
          part.script && is_first_host_idiom(*part.script) && !is_replaced(view, part.span)) {
        replace(view, part.span, "$MASTER_ADDR",
                "AI Runtime sets MASTER_ADDR to the address of node 0");
      }
      replace_idiom_in(view, part.parts);
    }
  }

  // --- pass 2: every other command ------------------------------------------

  void map_site(const Site& site) {
    setup_.hide_inline_secrets(site);
    if (site.program == "srun" && site.srun) unwrap_srun(site);
    setup_.unwrap_container(site);
    if (site.launcher.kind == Launcher::torchrun ||
        site.launcher.kind == Launcher::torch_distributed_launch) {
      map_torch_launcher(site);
    }
    rewrite_variables(site);
    check_runs_on_every_node(site);
  }

  void unwrap_srun(const Site& site) {
    const auto& words = site.command->words;
    const uint64_t step_tasks_per_node = srun_tasks_per_node(site);
    report_dropped_srun_options(site);
    if (site.srun_operand >= words.size()) {
      report(Code::slurm_command_in_body, site.view, site.command->span,
             "srun without a program to run", "remove the line");
      return;
    }
    if (step_tasks_per_node > 1) {
      report(Code::one_task_per_gpu, site.view, site.command->span,
             "srun starts " + std::to_string(step_tasks_per_node) +
                 " tasks per node here; AI Runtime runs the command once per node",
             "start one process per GPU with a launcher, e.g. `torchrun --nnodes=$NUM_NODES "
             "--node_rank=$NODE_RANK --nproc_per_node=$LOCAL_WORLD_SIZE --master_addr=$MASTER_ADDR "
             "--master_port=$MASTER_PORT train.py`, and read RANK/LOCAL_RANK/WORLD_SIZE");
    }
    const Span prefix{words[0].span.begin, words[site.srun_operand].span.begin};
    if (site.nested_script >= 0) return;  // replaced whole by unwrap_nested_script()
    if (runs_on_one_node(site) && compute_.nodes > 1) {
      edit(site.view, prefix, "if [ \"$NODE_RANK\" = 0 ]; then ",
           "this srun step ran on one node: keep it on node 0");
      edit(site.view, Span{site.command->span.end, site.command->span.end}, "; fi",
           "end of the node-0 guard");
      return;
    }
    edit(site.view, prefix, "", "AI Runtime already runs the command once on every node");
  }

  uint64_t srun_tasks_per_node(const Site& site) const {
    std::optional<uint64_t> tasks, per_node, nodes;
    for (const auto& option : site.srun->options) {
      const auto value = option.value ? values::parse_positive_int(*option.value)
                                      : values::Parsed<uint64_t>{};
      if (!value) continue;
      if (option.name() == "ntasks") tasks = *value;
      if (option.name() == "ntasks-per-node") per_node = *value;
      if (option.name() == "nodes") nodes = *value;
    }
    if (per_node) return *per_node;
    if (tasks) {
      const uint64_t n = nodes.value_or(compute_.nodes);
      return n == 0 ? *tasks : (*tasks + n - 1) / n;
    }
    return job_.tasks_per_node().value_or(1);
  }

  bool runs_on_one_node(const Site& site) const {
    for (const auto& option : site.srun->options) {
      if (!option.value) continue;
      if ((option.name() == "nodes" || option.name() == "ntasks") && *option.value == "1") {
        return true;
      }
    }
    return false;
  }

  void report_dropped_srun_options(const Site& site) {
    std::string dropped;
    for (const auto& option : site.srun->options) {
      const std::string_view name = option.name();
      if (contains({"label", "unbuffered", "kill-on-bad-exit", "exact", "overlap", "nodes",
                    "ntasks", "ntasks-per-node", "cpus-per-task", "gpus-per-node", "gres",
                    "gpus", "gpus-per-task", "export", "mpi", "cpu-bind", "gpu-bind", "wait",
                    "jobid", "distribution"},
                   name)) {
        continue;
      }
      if (!dropped.empty()) dropped += ", ";
      dropped += option.value ? option.spelling + "=" + *option.value : option.spelling;
    }
    if (dropped.empty()) return;
    report(Code::srun_options_dropped, site.view, site.command->span,
           "srun options with no AI Runtime equivalent are dropped: " + dropped,
           "check that the program does not depend on them");
  }

  /// `srun bash -c 'SCRIPT'` becomes SCRIPT itself (rewritten), in braces
  /// when something around it (redirects, `&`, a pipeline) still applies.
  void unwrap_nested_script(const Site& site) {
    if (site.nested_script < 0 || is_replaced(site.view, site.command->span)) return;
    const slurm::NestedScript& nested = *body_.nested[static_cast<size_t>(site.nested_script)];
    const slurm::TextView& view = body_.views[nested.view];
    std::string inner = dedent(apply_edits(view.text, view.window, edits_[nested.view]));
    const auto& words = site.command->words;
    size_t script_word = 0;
    for (size_t i = 0; i < words.size(); ++i) {
      if (words[i].span == nested.word) script_word = i;
    }
    if (script_word + 1 < words.size()) {
      report(Code::srun_options_dropped, site.view, words[script_word + 1].span,
             "arguments after the `bash -c` script are dropped",
             "use variables inside the script instead of positional parameters");
    }
    const bool alone = site.statement != nullptr && !site.statement->background &&
                       site.command->redirects.empty();
    if (!alone) inner = "{\n" + inner + "}";
    if (runs_on_one_node(site) && compute_.nodes > 1) {
      inner = "if [ \"$NODE_RANK\" = 0 ]; then\n" + inner + "fi";
    }
    if (alone && !inner.empty() && inner.back() == '\n') inner.pop_back();
    const Span span{words[0].span.begin, words.back().span.end};
    edit(site.view, span, inner, "the srun step's script runs directly on every node");
  }

  // --- launchers --------------------------------------------------------------

  std::vector<LauncherOption> torch_options(const Site& site) const {
    std::vector<LauncherOption> out;
    const auto& words = site.command->words;
    for (size_t i = site.launcher.first_argument; i < words.size(); ++i) {
      const std::string_view written = source(site.view, words[i].span);
      const auto literal = slurm::literal_value(words[i]);
      if (written.size() < 2 || written[0] != '-') break;  // the training script
      const size_t dashes = written.rfind("--", 0) == 0 ? 2 : 1;
      const size_t eq = written.find('=');
      std::string name(written.substr(dashes, eq == std::string_view::npos ? std::string_view::npos
                                                                          : eq - dashes));
      std::replace(name.begin(), name.end(), '-', '_');
      if (eq != std::string_view::npos) {
        std::optional<std::string> value;
        if (literal) value = literal->substr(literal->find('=') + 1);
        out.push_back({name, i,
                       Span{static_cast<uint32_t>(words[i].span.begin + eq + 1), words[i].span.end},
                       value});
      } else if (torch_option_takes_value(name) && i + 1 < words.size()) {
        out.push_back({name, i + 1, words[i + 1].span, slurm::literal_value(words[i + 1])});
        ++i;
      } else {
        out.push_back({name, i, {}, std::nullopt});
      }
    }
    return out;
  }

  void map_torch_launcher(const Site& site) {
    const bool multi_node = compute_.nodes > 1;
    if (multi_node && !site.context.in_srun && site.program != "srun") {
      report(Code::launch_outside_srun, site.view, site.command->span,
             "under Slurm this launcher ran on the first node only; on AI Runtime it runs on "
             "every node",
             "check that the launcher's node count and rank come from NUM_NODES and NODE_RANK");
    }
    for (const LauncherOption& option : torch_options(site)) {
      if (option.value_span.empty() || !option.literal) continue;
      const std::string& value = *option.literal;
      const std::string n = std::to_string(compute_.nodes);
      if (option.name == "nnodes") {
        if (value == n) {
          replace(site.view, option.value_span, "\"$NUM_NODES\"", "AI Runtime sets NUM_NODES");
        } else {
          report(Code::launcher_count_mismatch, site.view, option.value_span,
                 "--nnodes=" + value + " but the workload runs " + n + " node(s)",
                 "use --nnodes=\"$NUM_NODES\"");
        }
      } else if (option.name == "node_rank" && multi_node) {
        replace(site.view, option.value_span, "\"$NODE_RANK\"",
                "each node's rank comes from AI Runtime's NODE_RANK");
      } else if (option.name == "nproc_per_node" && is_digits(value)) {
        if (value == std::to_string(compute_.gpus_per_node)) {
          replace(site.view, option.value_span, "\"${LOCAL_WORLD_SIZE:-" + value + "}\"",
                  "one process per GPU of the node");
        } else {
          report(Code::launcher_count_mismatch, site.view, option.value_span,
                 "--nproc_per_node=" + value + " but each node has " +
                     std::to_string(compute_.gpus_per_node) + " GPU(s)",
                 "use --nproc_per_node=\"$LOCAL_WORLD_SIZE\" to use every GPU");
        }
      } else if (option.name == "master_addr" && multi_node) {
        replace(site.view, option.value_span, "\"$MASTER_ADDR\"",
                "AI Runtime sets MASTER_ADDR to node 0");
      } else if (option.name == "master_port") {
        replace(site.view, option.value_span, "\"$MASTER_PORT\"", "AI Runtime sets MASTER_PORT");
      } else if (option.name == "rdzv_endpoint" && multi_node) {
        replace(site.view, option.value_span, "\"$MASTER_ADDR:$MASTER_PORT\"",
                "the rendezvous runs on node 0");
      }
    }
  }

  // --- Slurm variables --------------------------------------------------------

  void rewrite_variables(const Site& site) {
    const ast::Command& command = *site.command;
    for (const ast::Word& word : command.words) rewrite_parts(site, word.parts);
    for (const auto& a : command.assignments) {
      rewrite_parts(site, a.value.parts);
      for (const ast::Word& element : a.elements) rewrite_parts(site, element.parts);
    }
    for (const auto& redirect : command.redirects) {
      rewrite_parts(site, redirect.target.parts);
      rewrite_parts(site, redirect.heredoc_parts);
    }
  }

  void rewrite_parts(const Site& site, const std::vector<ast::WordPart>& parts) {
    for (const ast::WordPart& part : parts) {
      if (is_replaced(site.view, part.span)) continue;
      if (part.kind == ast::PartKind::param) rewrite_variable(site, part);
      rewrite_parts(site, part.parts);
    }
  }

  void rewrite_variable(const Site& site, const ast::WordPart& part) {
    const VariableRule rule = rule_for(part.text, job_, compute_, experiment_name_);
    switch (rule.action) {
      case VariableAction::keep:
        return;
      case VariableAction::rename: {
        const std::string_view written = source(site.view, part.span);
        const size_t at = written.find(part.text);
        if (at == std::string_view::npos) return;
        const Span name{static_cast<uint32_t>(part.span.begin + at),
                        static_cast<uint32_t>(part.span.begin + at + part.text.size())};
        edit(site.view, name, rule.replacement, rule.reason);
        if (!rule.exact) {
          report(Code::slurm_variable_approximated, site.view, part.span,
                 "$" + part.text + " becomes $" + rule.replacement + ": " + rule.reason, rule.hint);
        }
        return;
      }
      case VariableAction::literal:
        edit(site.view, part.span, rule.replacement, rule.reason);
        report(Code::slurm_variable_approximated, site.view, part.span,
               "$" + part.text + " becomes " + rule.replacement + ": " + rule.reason, rule.hint);
        return;
      case VariableAction::report:
        report(Code::slurm_variable_unmapped, site.view, part.span,
               "$" + part.text + " " + rule.reason, rule.hint);
        return;
    }
  }

  // --- what runs where ----------------------------------------------------------

  void check_runs_on_every_node(const Site& site) {
    if (site.program == "sbatch") {
      report_submission(site);
      return;
    }
    if (is_slurm_client(site.program)) {
      report(Code::slurm_command_in_body, site.view, site.command->span,
             "`" + site.program + "` is a Slurm command and does not exist on AI Runtime",
             "remove it, or use the `databricks air` commands");
      return;
    }
    const slurm::Context& c = site.context;
    if (compute_.nodes <= 1 || c.in_srun || c.in_substitution || site.program == "srun") return;
    if (site.launcher.kind != Launcher::none && site.launcher.kind != Launcher::python) return;
    if (is_idempotent(site.program)) return;
    report(Code::runs_on_every_node, site.view, site.command->span,
           "`" + site.program + "` ran once, on the first node, under Slurm; AI Runtime runs the "
               "command on all " + std::to_string(compute_.nodes) + " nodes",
           "guard it with `if [ \"$NODE_RANK\" = 0 ]; then ...; fi` if it must run once");
  }

  /// `sbatch` inside a script submits another job; a here-document fed to it
  /// is that job's script, so the report covers it too.
  void report_submission(const Site& site) {
    Span span = site.command->span;
    for (const auto& redirect : site.command->redirects) {
      if (!redirect.heredoc_body.empty()) span.end = std::max(span.end, redirect.heredoc_body.end);
    }
    report(Code::slurm_command_in_body, site.view, span,
           "`sbatch` submits another Slurm job, which does not exist on AI Runtime",
           "translate the submitted script separately and chain the jobs as tasks of a bundle "
           "job");
  }

  const SourceFile& file_;
  const slurm::Body& body_;
  const slurm::Job& job_;
  const Compute& compute_;
  const std::string& experiment_name_;
  Diagnostics& diagnostics_;
  std::vector<std::vector<Edit>> edits_;    // per text view
  std::vector<std::vector<Span>> replaced_; // per text view: spans whose text is gone
  bool first_launch_seen_ = false;
  CommandMapping result_;
  SetupResult setup_result_;
  SetupMapper setup_;  // environment rules (setup.cpp); edits through this mapper
};

}  // namespace

CommandMapping map_command(const SourceFile& file, const slurm::Body& body, const slurm::Job& job,
                           const Compute& compute, const std::string& experiment_name,
                           Diagnostics& diagnostics, const SetupOptions& setup) {
  return CommandMapper(file, body, job, compute, experiment_name, diagnostics, setup).run();
}

}  // namespace s2a::air
