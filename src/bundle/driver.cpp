// Driver scripts -> an ordered list of submissions with their dependencies.
// Walks the AST in execution order, keeping two environments: job-id
// variables set from `$(sbatch ...)`, and loop variables bound while a
// `for x in a b c` loop is unrolled. Recursion follows the AST, whose depth
// the parser bounds.
#include "bundle/driver.hpp"

#include <algorithm>
#include <map>

#include "air/variables.hpp"
#include "directives/directives.hpp"
#include "parse/parse_script.hpp"

namespace s2a::bundle {
namespace {

/// "$jid", "${jid}", "${jid%%;*}" -> "jid"; empty for anything else.
std::string expansion_name(std::string_view job) {
  if (job.size() < 2 || job[0] != '$') return {};
  size_t at = 1;
  if (job[1] == '{') at = 2;
  size_t end = at;
  while (end < job.size() && is_variable_name_char(job[end])) ++end;
  if (end == at) return {};
  if (at == 1 && end != job.size()) return {};
  if (at == 2 && job.back() != '}') return {};
  return std::string(job.substr(at, end - at));
}

class DriverWalker {
 public:
  DriverWalker(const SourceFile& file, Diagnostics& diagnostics)
      : file_(file), diagnostics_(diagnostics) {}

  DriverWalker(const DriverWalker&) = delete;
  DriverWalker& operator=(const DriverWalker&) = delete;

  DriverPlan run(const ast::Script& script) {
    walk_list(script.body, false);
    // An unrolled loop reports the same line once per iteration: keep one.
    Diagnostics unique;
    for (Diagnostic& d : found_) {
      const bool seen = std::any_of(unique.begin(), unique.end(), [&](const Diagnostic& u) {
        return u.code == d.code && u.span == d.span && u.message == d.message;
      });
      if (!seen) unique.push_back(std::move(d));
    }
    diagnostics_.insert(diagnostics_.end(), unique.begin(), unique.end());
    return std::move(plan_);
  }

 private:
  // --- control flow ----------------------------------------------------------

  void walk_list(const ast::List& list, bool repeated) {
    for (const ast::ListItem& item : list.items) walk_command(item.command, repeated);
  }

  void walk_command(const ast::Command& command, bool repeated) {
    switch (command.kind) {
      case ast::CommandKind::simple:
        walk_simple(command, repeated);
        return;
      case ast::CommandKind::pipeline:
      case ast::CommandKind::and_or:
        for (const ast::Command& child : command.children) walk_command(child, repeated);
        return;
      case ast::CommandKind::for_clause:
        walk_for(command, repeated);
        return;
      case ast::CommandKind::arith_for:
      case ast::CommandKind::while_clause:
      case ast::CommandKind::until_clause:
      case ast::CommandKind::select_clause:
        report_not_static(command, "a loop whose iterations are known only when it runs");
        for (const ast::List& block : command.blocks) walk_list(block, true);
        return;
      case ast::CommandKind::if_clause:
      case ast::CommandKind::case_clause:
        report_not_static(command, "a branch decided only when the driver runs");
        for (const ast::List& block : command.blocks) walk_list(block, repeated);
        for (const ast::CaseItem& item : command.case_items) walk_list(item.body, repeated);
        return;
      case ast::CommandKind::function_def:
        report_not_static(command, "a function");
        return;
      case ast::CommandKind::subshell:
      case ast::CommandKind::brace_group:
        for (const ast::List& block : command.blocks) walk_list(block, repeated);
        return;
      case ast::CommandKind::arith_command:
      case ast::CommandKind::cond_command:
        return;
    }
  }

  /// `for x in a b c`: unrolled when every word is literal; else walked once.
  void walk_for(const ast::Command& command, bool repeated) {
    if (command.blocks.empty()) return;
    std::vector<std::string> values;
    bool literal = !command.words.empty() && command.words.size() <= kMaxUnrolled;
    for (const ast::Word& word : command.words) {
      const auto value = render_literal(word);
      if (!value) literal = false;
      if (value) values.push_back(*value);
    }
    // Nested loops multiply: one budget for all unrolled iterations.
    const bool affordable = values.size() <= unroll_budget_;
    if (!literal || !affordable || !submits(command.blocks[0])) {
      if (!literal) report_not_static(command, "a loop over words known only when it runs");
      if (literal && !affordable) report_not_static(command, "a loop nested too deep to unroll");
      walk_list(command.blocks[0], true);
      return;
    }
    unroll_budget_ -= values.size();
    const auto saved = bindings_;
    loop_names_.push_back(command.name);
    for (const std::string& value : values) {
      bindings_[command.name] = value;
      walk_list(command.blocks[0], repeated);
    }
    loop_names_.pop_back();
    bindings_ = saved;
  }

  /// Does this list submit anything? (Only then is a loop worth reporting.)
  static bool submits(const ast::List& list) {
    bool found = false;
    visit_simple(list, [&](const ast::Command& c) {
      if (!c.words.empty() && slurm::program_name(c.words[0]) == "sbatch") found = true;
    });
    return found;
  }

  template <class F>
  static void visit_simple(const ast::List& list, F&& f) {
    for (const ast::ListItem& item : list.items) visit_command(item.command, f);
  }
  template <class F>
  static void visit_command(const ast::Command& command, F& f) {
    if (command.kind == ast::CommandKind::simple) f(command);
    for (const ast::Command& child : command.children) visit_command(child, f);
    for (const ast::List& block : command.blocks) visit_simple(block, f);
    for (const ast::CaseItem& item : command.case_items) visit_simple(item.body, f);
    auto words = [&](const std::vector<ast::Word>& ws) {
      for (const ast::Word& w : ws) visit_parts(w.parts, f);
    };
    words(command.words);
    for (const ast::Assignment& a : command.assignments) visit_parts(a.value.parts, f);
  }
  template <class F>
  static void visit_parts(const std::vector<ast::WordPart>& parts, F& f) {
    for (const ast::WordPart& part : parts) {
      if (part.script) visit_simple(part.script->body, f);
      visit_parts(part.parts, f);
    }
  }

  void report_not_static(const ast::Command& command, const std::string& what) {
    bool inner = false;
    for (const ast::List& block : command.blocks) inner = inner || submits(block);
    for (const ast::CaseItem& item : command.case_items) inner = inner || submits(item.body);
    if (!inner) return;
    const Span head{command.span.begin, std::min(command.span.end, line_end(command.span.begin))};
    found_.push_back(
        {Code::control_flow_not_static, head,
         "sbatch runs inside " + what +
             "; each submission in it becomes one task, as if it ran "
             "once",
         "write the tasks out (one sbatch line each) if it ran several times, or use a "
         "for_each_task"});
  }

  uint32_t line_end(uint32_t offset) const {
    const std::string_view text = file_.text();
    const size_t nl = text.find('\n', offset);
    return static_cast<uint32_t>(nl == std::string_view::npos ? text.size() : nl);
  }

  // --- simple commands -------------------------------------------------------

  void walk_simple(const ast::Command& command, bool repeated) {
    std::vector<ast::Assignment> assignments = command.assignments;
    for (ast::Assignment& a : declaration_assignments(command)) assignments.push_back(std::move(a));
    for (const ast::Assignment& assignment : assignments) assign(assignment, repeated);
    if (!command.words.empty() && slurm::program_name(command.words[0]) == "sbatch") {
      (void)submit(command, repeated);
      return;
    }
    // `echo "$(sbatch ...)"` and similar: submissions inside the words.
    for (const ast::Word& word : command.words) submit_in_parts(word.parts, repeated);
  }

  void assign(const ast::Assignment& assignment, bool repeated) {
    const ast::Command* sbatch = single_sbatch(assignment.value);
    if (sbatch != nullptr) {
      const std::optional<size_t> index = submit(*sbatch, repeated);
      if (index) {
        job_vars_[assignment.name] = *index;
        return;
      }
    } else {
      submit_in_parts(assignment.value.parts, repeated);
    }
    // jid2=$jid keeps the job; anything else forgets it.
    const Rendered value = render(assignment.value);
    const auto known = job_vars_.find(expansion_name(value.text));
    if (known != job_vars_.end()) {
      job_vars_[assignment.name] = known->second;
    } else {
      job_vars_.erase(assignment.name);
    }
    // NAME=literal (or built from known values) is known from here on.
    if (value.resolved && !assignment.is_array && !assignment.append && known == job_vars_.end()) {
      bindings_[assignment.name] = value.text;
    } else {
      bindings_.erase(assignment.name);
    }
  }

  void submit_in_parts(const std::vector<ast::WordPart>& parts, bool repeated) {
    for (const ast::WordPart& part : parts) {
      if (part.script) walk_list(part.script->body, repeated);
      submit_in_parts(part.parts, repeated);
    }
  }

  /// `$(sbatch ...)` or `$(sbatch ... | cut -d';' -f1)` as the whole value.
  static const ast::Command* single_sbatch(const ast::Word& word) {
    const ast::WordPart* subst = nullptr;
    for (const ast::WordPart& part : word.parts) {
      const ast::WordPart* p = &part;
      if (p->kind == ast::PartKind::double_quoted && p->parts.size() == 1) p = &p->parts[0];
      if (p->kind != ast::PartKind::command_subst && p->kind != ast::PartKind::backtick) {
        return nullptr;
      }
      if (subst != nullptr) return nullptr;
      subst = p;
    }
    if (subst == nullptr || !subst->script || subst->script->body.items.size() != 1) {
      return nullptr;
    }
    const ast::Command* c = &subst->script->body.items[0].command;
    if (c->kind == ast::CommandKind::pipeline && !c->children.empty()) c = &c->children[0];
    if (c->kind != ast::CommandKind::simple || c->words.empty()) return nullptr;
    return slurm::program_name(c->words[0]) == "sbatch" ? c : nullptr;
  }

  // --- rendering words -------------------------------------------------------

  struct Rendered {
    std::string text;
    bool resolved = true;  // false when an expansion is left as written
  };

  std::optional<std::string> render_literal(const ast::Word& word) const {
    Rendered r = render(word);
    if (!r.resolved) return std::nullopt;
    return r.text;
  }

  Rendered render(const ast::Word& word) const {
    Rendered r;
    render_parts(word.parts, r);
    return r;
  }

  void render_parts(const std::vector<ast::WordPart>& parts, Rendered& r) const {
    for (const ast::WordPart& part : parts) render_part(part, r);
  }

  void render_part(const ast::WordPart& part, Rendered& r) const {
    switch (part.kind) {
      case ast::PartKind::literal:
      case ast::PartKind::single_quoted:
      case ast::PartKind::ansi_c_quoted:
        r.text += part.text;
        return;
      case ast::PartKind::double_quoted:
        render_parts(part.parts, r);
        return;
      case ast::PartKind::param:
        render_param(part, r);
        return;
      default:
        r.text += file_.slice(part.span);
        r.resolved = false;
        return;
    }
  }

  void render_param(const ast::WordPart& part, Rendered& r) const {
    const bool is_job = job_vars_.count(part.text) > 0;
    const auto bound = bindings_.find(part.text);
    const std::string_view op = part.op;
    const bool is_set = is_job || bound != bindings_.end();
    const bool non_empty = is_job || (is_set && !bound->second.empty());
    // ${jid:+--dependency=afterok:$jid}: the alternative when the job is known.
    if (op.rfind(":+", 0) == 0 || op.rfind('+', 0) == 0) {
      if (!is_set) {
        r.text += file_.slice(part.span);
        r.resolved = false;
      } else if (op[0] == '+' || non_empty) {
        render_parts(part.parts, r);
      }
      return;
    }
    // ${X:-default} with X known to be empty: the default.
    if (bound != bindings_.end() && (op.rfind(":-", 0) == 0 || op.rfind('-', 0) == 0)) {
      if (bound->second.empty()) {
        render_parts(part.parts, r);
      } else {
        r.text += bound->second;
      }
      return;
    }
    if (is_job && (op.empty() || op[0] == '%')) {
      r.text += "$" + part.text;  // the dependency parser keeps it for resolve_job()
      return;
    }
    if (bound != bindings_.end() && op.empty()) {
      r.text += bound->second;
      return;
    }
    r.text += file_.slice(part.span);
    r.resolved = false;
  }

  // --- one sbatch call -------------------------------------------------------

  static bool is_quoted(const ast::Word& word) {
    return std::any_of(word.parts.begin(), word.parts.end(), [](const ast::WordPart& p) {
      return p.kind == ast::PartKind::single_quoted || p.kind == ast::PartKind::double_quoted ||
             p.kind == ast::PartKind::ansi_c_quoted;
    });
  }

  std::optional<size_t> submit(const ast::Command& command, bool repeated) {
    (void)repeated;
    if (plan_.submissions.size() >= kMaxSubmissions) {
      if (!too_many_reported_) {
        too_many_reported_ = true;
        found_.push_back({Code::submission_not_static, command.span,
                          "the driver submits more than " + std::to_string(kMaxSubmissions) +
                              " jobs; the rest are not converted",
                          "a bundle job holds at most 1000 tasks"});
      }
      return std::nullopt;
    }
    Submission s;
    s.span = command.span;
    s.label = label();
    std::vector<directives::Word> words;
    std::vector<bool> resolved;
    for (size_t i = 1; i < command.words.size(); ++i) {
      Rendered r = render(command.words[i]);
      if (r.text.empty() && r.resolved && !is_quoted(command.words[i])) continue;  // vanishes
      words.push_back({r.text, command.words[i].span});
      resolved.push_back(r.resolved);
    }
    const directives::OptionParse parse =
        directives::parse_options(words, directives::sbatch_options());
    for (const Diagnostic& d : parse.diagnostics) found_.push_back(d);
    std::vector<std::string> types;
    bool any = false;
    std::vector<const directives::Option*> dependencies;
    for (const directives::Option& option : parse.options) {
      const std::string_view name = option.name();
      if (name == "parsable" || name == "wait" || name == "kill-on-invalid-dep") continue;
      if (name == "dependency") {
        if (option.value && !option.overridden) dependencies.push_back(&option);
        continue;
      }
      if (name == "wrap") {
        if (option.value) s.inline_script = "#!/bin/bash\n" + *option.value + "\n";
        continue;
      }
      std::string line = "--" + std::string(name);
      if (option.value) line += "=" + *option.value;
      s.option_lines.push_back(line);
    }
    // After the loop: singleton needs the --job-name given anywhere on the line.
    for (const directives::Option* option : dependencies) add_dependency(*option, s, types, any);
    if (!types.empty()) {
      std::string why;
      s.run_if = map_run_if(types, any, why);
      if (!why.empty()) {
        found_.push_back({Code::dependency_unsupported, command.span, why,
                          "check the task's run_if in databricks.yml"});
      }
    }
    if (!s.inline_script) find_script(command, parse.first_operand, words, resolved, s);
    if (!s.script && !s.inline_script) return std::nullopt;
    singleton_last_[singleton_name(s)] = plan_.submissions.size();
    plan_.submissions.push_back(std::move(s));
    return plan_.submissions.size() - 1;
  }

  void find_script(const ast::Command& command, size_t first_operand,
                   const std::vector<directives::Word>& words, const std::vector<bool>& resolved,
                   Submission& s) {
    if (first_operand < words.size()) {
      if (!resolved[first_operand]) {
        found_.push_back({Code::submission_not_static, words[first_operand].span,
                          "the submitted script " + words[first_operand].text +
                              " is known only when the driver runs, so it is not converted",
                          "write the script's path literally"});
        return;
      }
      s.script = words[first_operand].text;
      if (first_operand + 1 < words.size()) {
        found_.push_back(
            {Code::submission_arguments,
             {words[first_operand + 1].span.begin, words.back().span.end},
             "the arguments after " + *s.script +
                 " are not passed on: a bundle task runs its command without arguments",
             "set the values in the script, or as env_variables"});
      }
      return;
    }
    for (const ast::Redirect& redirect : command.redirects) {
      if (redirect.op == "<<" || redirect.op == "<<-") {
        s.inline_script = heredoc_text(redirect, command);
        return;
      }
      if (redirect.op == "<" && redirect.fd.empty()) {
        const auto path = render_literal(redirect.target);
        if (path) {
          s.script = *path;
          return;
        }
      }
    }
    found_.push_back({Code::submission_not_static, command.span,
                      "sbatch reads the job script from its standard input here, which is "
                      "known only when the driver runs",
                      "pass the script as a file or a here-document"});
  }

  std::string heredoc_text(const ast::Redirect& redirect, const ast::Command& command) {
    if (redirect.heredoc_quoted) return std::string(file_.slice(redirect.heredoc_body));
    Rendered r;
    render_parts(redirect.heredoc_parts, r);
    if (!r.resolved) {
      found_.push_back(
          {Code::submission_not_static,
           {command.span.begin, redirect.heredoc_body.end},
           "the here-document expands values known only when the driver runs; they are left as "
           "written in the job script",
           "write the values literally, or escape them (\\$) if the job should expand them"});
    }
    return r.text;
  }

  void add_dependency(const directives::Option& option, Submission& s,
                      std::vector<std::string>& types, bool& any) {
    const auto parsed = values::parse_dependency(*option.value);
    if (!parsed) {
      found_.push_back({Code::dependency_unsupported, option.span,
                        "--dependency=" + *option.value + " is not valid: " + parsed.error,
                        "fix the dependency"});
      return;
    }
    any = parsed->any;
    for (const values::DependencyItem& item : parsed->items) {
      if (item.type == "singleton") {
        add_singleton_edge(s, types);
        continue;
      }
      if (const std::string why = unsupported_dependency(item); !why.empty()) {
        found_.push_back({Code::dependency_unsupported, option.span, why,
                          "check the task's depends_on in databricks.yml"});
        if (item.type != "aftercorr" && item.type != "after") continue;
      }
      const std::string type = item.type == "aftercorr" ? "afterok"
                               : item.type == "after"   ? "afterany"
                                                        : item.type;
      for (const values::DependencyTarget& target : item.targets) {
        const auto known = job_vars_.find(expansion_name(target.job));
        if (known == job_vars_.end()) {
          found_.push_back(
              {Code::dependency_dropped, option.span,
               item.type + ":" + target.job +
                   " names a job this driver did not submit, so the dependency is dropped",
               "make that job a task of the same bundle job"});
          continue;
        }
        if (std::find(s.after.begin(), s.after.end(), known->second) == s.after.end()) {
          s.after.push_back(known->second);
          types.push_back(type);
        }
      }
    }
  }

  /// singleton: jobs of one name run one at a time, so the task waits for the
  /// previous task of that name (whatever its outcome).
  void add_singleton_edge(Submission& s, std::vector<std::string>& types) {
    const std::string key = singleton_name(s);
    const auto previous = singleton_last_.find(key);
    if (previous != singleton_last_.end()) {
      s.after.push_back(previous->second);
      types.push_back("afterany");
    }
    const std::string name = key.rfind("name:", 0) == 0 ? "\"" + key.substr(5) + "\"" : "like it";
    found_.push_back(
        {Code::dependency_singleton, s.span,
         "singleton: this task waits for the previous task named " + name + " (run_if: ALL_DONE)",
         ""});
  }

  /// Jobs are "the same" for singleton by name: --job-name given to sbatch,
  /// else the script (whose #SBATCH --job-name is read later).
  static std::string singleton_name(const Submission& s) {
    std::string name;
    for (const std::string& line : s.option_lines) {
      if (line.rfind("--job-name=", 0) == 0) name = line.substr(11);
    }
    if (!name.empty()) return "name:" + name;
    return "script:" + s.script.value_or(s.inline_script.value_or(""));
  }

  std::string label() const {
    std::string out;
    for (const std::string& name : loop_names_) {
      if (!out.empty()) out += ",";
      out += name + "=" + bindings_.at(name);
    }
    return out;
  }

  const SourceFile& file_;
  Diagnostics& diagnostics_;
  Diagnostics found_;  // deduplicated into diagnostics_ at the end
  DriverPlan plan_;
  std::map<std::string, size_t> job_vars_;        // jid -> submission index
  std::map<std::string, std::string> bindings_;   // loop variable -> value
  std::map<std::string, size_t> singleton_last_;  // job name -> last submission
  std::vector<std::string> loop_names_;           // variables of the loops being unrolled
  size_t unroll_budget_ = 10 * kMaxSubmissions;   // loop iterations left to unroll
  bool too_many_reported_ = false;
};

}  // namespace

std::string_view run_if_name(RunIf run_if) {
  switch (run_if) {
    case RunIf::all_success:
      return "ALL_SUCCESS";
    case RunIf::all_done:
      return "ALL_DONE";
    case RunIf::at_least_one_success:
      return "AT_LEAST_ONE_SUCCESS";
    case RunIf::at_least_one_failed:
      return "AT_LEAST_ONE_FAILED";
    case RunIf::all_failed:
      return "ALL_FAILED";
  }
  return "ALL_SUCCESS";
}

RunIf map_run_if(const std::vector<std::string>& types, bool any, std::string& why) {
  why.clear();
  if (types.empty()) return RunIf::all_success;
  const bool same =
      std::all_of(types.begin(), types.end(), [&](const std::string& t) { return t == types[0]; });
  if (!same) {
    why = "the dependency mixes types, but a task has one run_if; it waits with ALL_DONE";
    return RunIf::all_done;
  }
  const std::string& type = types[0];
  if (type == "afterany") return RunIf::all_done;  // with '?' too: it then waits for all
  if (type == "afternotok") {
    if (types.size() == 1 || any) return RunIf::at_least_one_failed;
    return RunIf::all_failed;
  }
  return any && types.size() > 1 ? RunIf::at_least_one_success : RunIf::all_success;
}

std::string unsupported_dependency(const values::DependencyItem& item) {
  const std::string& type = item.type;
  if (type == "aftercorr") {
    return "aftercorr pairs array tasks one to one, which depends_on cannot express; the task "
           "waits for the whole job to succeed (afterok)";
  }
  if (type == "after") {
    return "after waits only for the other job to start; a task can wait only for tasks to "
           "finish (run_if: ALL_DONE)";
  }
  if (type == "expand" || type == "afterburstbuffer") {
    return type + " has no equivalent between tasks and is dropped";
  }
  for (const values::DependencyTarget& target : item.targets) {
    if (target.plus_minutes) {
      return "+" + std::to_string(*target.plus_minutes) +
             " (a delay after the other job) has no equivalent and is dropped";
    }
    if (!target.task.empty()) {
      return "a dependency on array task _" + target.task +
             " waits for the whole for_each_task instead";
    }
  }
  return {};
}

std::optional<std::string> sbatch_script_operand(const ast::Command& command,
                                                 std::string_view text) {
  std::vector<directives::Word> words;
  for (size_t i = 1; i < command.words.size(); ++i) {
    const ast::Word& word = command.words[i];
    const auto literal = slurm::literal_value(word);
    if (literal) {
      words.push_back({*literal, word.span});
      continue;
    }
    // "$0" -> $0: drop the double quotes around a lone expansion.
    std::string written(text.substr(word.span.begin, word.span.size()));
    if (written.size() >= 2 && written.front() == '"' && written.back() == '"') {
      written = written.substr(1, written.size() - 2);
    }
    words.push_back({written, word.span});
  }
  const directives::OptionParse parse =
      directives::parse_options(words, directives::sbatch_options());
  if (parse.first_operand >= words.size()) return std::nullopt;
  return words[parse.first_operand].text;
}

DriverPlan analyze_driver(const SourceFile& file, const slurm::Body& body,
                          Diagnostics& diagnostics) {
  return DriverWalker(file, diagnostics).run(body.parse.script);
}

}  // namespace s2a::bundle
