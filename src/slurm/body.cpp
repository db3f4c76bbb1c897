#include "slurm/body.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

#include "slurm/container_call.hpp"
#include "source/ascii.hpp"

namespace s2a::slurm {

namespace {

/// `text == word`, inline: string_view's == calls compare() out of line here,
/// and the name lookups below run for every command of every script. The size
/// check folds away after their switch on the length.
template <size_t N>
bool is_word(std::string_view text, const char (&word)[N]) {
  return text.size() == N - 1 && std::memcmp(text.data(), word, N - 1) == 0;
}

}  // namespace

bool may_wrap_a_command(std::string_view program) {
  switch (program.size()) {
    case 3:
      return is_word(program, "env");
    case 4:
      return is_word(program, "time") || is_word(program, "exec") || is_word(program, "nice") ||
             is_word(program, "sudo");
    case 5:
      return is_word(program, "nohup") || is_word(program, "conda") || is_word(program, "mamba");
    case 6:
      return is_word(program, "stdbuf");
    case 7:
      return is_word(program, "numactl") || is_word(program, "timeout") ||
             is_word(program, "command");
    case 10:
      return is_word(program, "micromamba");
    default:
      return false;
  }
}

bool is_expansion(const ast::WordPart& part) {
  switch (part.kind) {
    case ast::PartKind::literal:
    case ast::PartKind::single_quoted:
    case ast::PartKind::ansi_c_quoted:
    case ast::PartKind::double_quoted:
      return false;
    default:
      return true;
  }
}

namespace {

/// Interpreters whose `-c SCRIPT` we parse again as a nested script.
bool is_shell(std::string_view program) {
  switch (program.size()) {  // asked of every command: the length rules out most at once
    case 2:
      return is_word(program, "sh");
    case 3:
      return is_word(program, "zsh");
    case 4:
      return is_word(program, "bash") || is_word(program, "dash");
    default:
      return false;
  }
}

bool is_python(std::string_view program) {
  return program.rfind("python", 0) == 0 &&
         std::all_of(program.begin() + 6, program.end(), [](char c) {
           return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
         });
}

std::string text_with_placeholders(const ast::Word& word);

/// detect_launcher() for words[from] whose launcher_name() is `program`.
LauncherCall detect_named_launcher(const std::vector<ast::Word>& words, size_t from,
                                   std::string_view program);

enum class ScriptWord { readable, unquoted_expansion, only_expansions };

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \t\n") == std::string_view::npos;
}

/// Whether a `bash -c` word holds a script that can be read: not when it is
/// nothing but expansions (`"$CMD"`, or `$CMD`, which bash also splits).
/// Expansions among written commands are kept as written (`"$SETUP; python
/// t.py"`, `"python t.py --lr "$LR`).
ScriptWord classify_script_word(const ast::Word& word) {
  bool has_text = false;
  bool unquoted_expansion = false;
  for (const ast::WordPart& part : word.parts) {
    if (is_expansion(part)) {
      unquoted_expansion = true;
    } else if (part.kind != ast::PartKind::double_quoted) {
      has_text = has_text || !is_blank(part.text);
    } else {
      for (const ast::WordPart& inner : part.parts) {
        has_text = has_text || (!is_expansion(inner) && !is_blank(inner.text));
      }
    }
  }
  if (has_text) return ScriptWord::readable;
  return unquoted_expansion ? ScriptWord::unquoted_expansion : ScriptWord::only_expansions;
}

/// Whether a value, as written, starts with `-` once its opening quote,
/// blanks and line continuations are passed (`SRUN_ARGS=" \` then
/// `--wait=60 ...` on the next lines).
bool starts_with_option(std::string_view written) {
  const bool single_quoted = written.starts_with('\'');
  size_t i = single_quoted || written.starts_with('"') ? 1 : 0;
  for (;;) {
    while (i < written.size() && (written[i] == ' ' || written[i] == '\t')) ++i;
    if (single_quoted || written.substr(i, 2) != "\\\n") break;  // '\<newline>' stays
    i += 2;
  }
  return i < written.size() && written[i] == '-';
}

/// `"${NAME} --env A=1"` or `$NAME -B x` written as NAME's own value: the
/// text after the reference to NAME (the words added to it); `own` itself
/// when it does not start with one.
std::string_view after_self_reference(std::string_view own, std::string_view name) {
  std::string_view rest = own.substr(own.starts_with('"') ? 1 : 0);
  if (rest.starts_with("${") && rest.substr(2).starts_with(name) &&
      rest.substr(2 + name.size()).starts_with('}')) {
    return rest.substr(3 + name.size());
  }
  if (rest.starts_with('$') && rest.substr(1).starts_with(name)) {
    const std::string_view after = rest.substr(1 + name.size());
    if (after.empty() || !(std::isalnum(static_cast<unsigned char>(after[0])) || after[0] == '_')) {
      return after;
    }
  }
  return own;
}

/// `"${NAME:1}"`, NAME's own value cut (a leading space dropped): no word added.
bool is_substring_of_itself(std::string_view own, std::string_view name) {
  std::string_view rest = own.substr(own.starts_with('"') ? 1 : 0);
  if (!rest.starts_with("${") || !rest.substr(2).starts_with(name)) return false;
  rest.remove_prefix(2 + name.size());
  if (!rest.starts_with(':')) return false;
  const size_t close = rest.find('}');
  return close != std::string_view::npos &&
         rest.substr(close + 1).find_first_not_of('"') == std::string_view::npos;
}

std::string script_text_of(const ast::Word& word, std::string_view source, NestedScript& nested);

/// The value part of a declaration builtin's `NAME=value` word.
std::optional<ast::Word> declared_value(const ast::Word& word, std::string_view name) {
  if (word.parts.empty() || word.parts[0].kind != ast::PartKind::literal) return std::nullopt;
  const ast::WordPart& head = word.parts[0];
  if (head.text.size() <= name.size() || !head.text.starts_with(name) ||
      head.text[name.size()] != '=') {
    return std::nullopt;
  }
  ast::Word value;
  const auto skip = static_cast<uint32_t>(name.size() + 1);
  value.span = Span{head.span.begin + skip, word.span.end};
  if (head.text.size() > skip) {
    ast::WordPart rest = head;
    rest.text.erase(0, skip);
    rest.span.begin += skip;
    value.parts.push_back(std::move(rest));
  }
  value.parts.insert(value.parts.end(), word.parts.begin() + 1, word.parts.end());
  return value;
}

bool is_srun(const ast::Word& word) {
  std::optional<std::string> storage;
  return is_word(program_view(word, storage), "srun");
}

/// Builds the list of sites by walking the AST. The AST depth is bounded by
/// the parser's ParseLimits, so recursion here is bounded too.
class Walker {
 public:
  Walker(Body& body, Diagnostics& diagnostics) : body_(body), diagnostics_(diagnostics) {}

  void walk_script(const ast::Script& script, uint32_t view, Context context) {
    walk_list(script.body, view, context);
  }

 private:
  void walk_list(const ast::List& list, uint32_t view, Context context) {
    for (const ast::ListItem& item : list.items) {
      Context item_context = context;
      item_context.background = context.background || item.background;
      walk_command(item.command, &item, view, item_context);
    }
  }

  void walk_command(const ast::Command& command, const ast::ListItem* statement, uint32_t view,
                    Context context) {
    ++context.depth;
    // A compound command's own words and redirections are expanded once,
    // around its body: in the context it stands in.
    const Context outer = context;
    add_compound_head(command, view, outer);
    switch (command.kind) {
      case ast::CommandKind::simple:
        add_site(command, statement, view, context);
        return;
      case ast::CommandKind::pipeline:
        for (const auto& child : command.children) walk_command(child, nullptr, view, context);
        return;
      case ast::CommandKind::and_or: {
        Context branch = context;
        for (size_t i = 0; i < command.children.size(); ++i) {
          if (i > 0) branch.in_branch = true;  // runs only if the left side allowed it
          walk_command(command.children[i], nullptr, view, branch);
        }
        return;
      }
      case ast::CommandKind::if_clause:
      case ast::CommandKind::case_clause:
        context.in_branch = true;
        break;
      case ast::CommandKind::for_clause:
      case ast::CommandKind::arith_for:
      case ast::CommandKind::while_clause:
      case ast::CommandKind::until_clause:
      case ast::CommandKind::select_clause:
        context.in_loop = true;
        break;
      case ast::CommandKind::function_def:
        context.in_function = true;
        break;
      case ast::CommandKind::subshell:
      case ast::CommandKind::brace_group:
      case ast::CommandKind::arith_command:
      case ast::CommandKind::cond_command:
        break;
    }
    walk_words(command.words, view, outer);
    for (const ast::List& block : command.blocks) walk_list(block, view, context);
    for (const ast::CaseItem& item : command.case_items) walk_list(item.body, view, context);
    // `done < <(scontrol show hostnames ...)` runs before the body but comes
    // after it in the text, where its sites go (sites are in source order).
    for (const auto& redirect : command.redirects) {
      walk_parts(redirect.target.parts, view, outer);
      walk_parts(redirect.heredoc_parts, view, outer);
    }
  }

  /// The words, arithmetic and redirections a compound command expands
  /// itself (`done < hosts_$SLURM_JOB_ID`), in the context around it.
  void add_compound_head(const ast::Command& command, uint32_t view, Context context) {
    if (command.kind == ast::CommandKind::simple) return;
    if (command.words.empty() && command.text.empty() && command.redirects.empty()) return;
    Site head;
    head.command = &command;
    head.context = context;
    head.view = view;
    body_.compound_heads.push_back(std::move(head));
  }

  /// Unquoted and single-quoted text hold no command and no inner parts.
  static bool is_leaf(const ast::WordPart& part) {
    return part.kind == ast::PartKind::literal || part.kind == ast::PartKind::single_quoted;
  }

  void walk_words(const std::vector<ast::Word>& words, uint32_t view, const Context& context) {
    for (const ast::Word& word : words) {
      // Most words are one plain part (`python`, `--lr`, `0.1`): no call for them.
      if (word.parts.size() == 1 && is_leaf(word.parts.front())) continue;
      walk_parts(word.parts, view, context);
    }
  }

  void walk_parts(const std::vector<ast::WordPart>& parts, uint32_t view, const Context& context) {
    for (const ast::WordPart& part : parts) {
      if (is_leaf(part)) continue;
      if (part.script) {
        Context inner = context;
        inner.in_substitution = true;
        walk_script(*part.script, view, inner);
      }
      // Most parts are leaves: no call for them.
      if (!part.parts.empty()) walk_parts(part.parts, view, context);
    }
  }

  void add_site(const ast::Command& command, const ast::ListItem* statement, uint32_t view,
                Context context) {
    // Substitutions inside the command run before it, in the same context.
    for (const auto& assignment : command.assignments) {
      walk_parts(assignment.value.parts, view, context);
      walk_words(assignment.elements, view, context);
    }
    walk_words(command.words, view, context);
    for (const auto& redirect : command.redirects) {
      walk_parts(redirect.target.parts, view, context);
      walk_parts(redirect.heredoc_parts, view, context);
    }

    Site site;
    site.command = &command;
    site.statement = statement;
    site.context = context;
    site.view = view;
    if (!command.words.empty()) {
      std::optional<std::string> storage;
      site.program = program_view(command.words.front(), storage);
    }
    remember_option_variables(command, site.program, view);
    // `stdbuf -oL srun ...`, `timeout 11h srun ...`: the step is what runs.
    const size_t wrapped =
        may_wrap_a_command(site.program) ? skip_command_wrappers(command.words, 0) : 0;
    if (wrapped > 0 && wrapped < command.words.size() && is_srun(command.words[wrapped])) {
      site.program = "srun";
      site.srun_word = wrapped;
    }
    if (is_word(site.program, "srun") && !context.in_srun) {
      describe_srun(site);
    } else {
      // The program's name rules out nearly every command before the call is read.
      // `timeout 2h docker run ...`: the engine behind a wrapper is read alike.
      const size_t program = is_container_program(site.program) || wrapped > 0
                                 ? program_after_container(command.words, 0, site)
                                 : 0;
      // From the first word on, the site's program is its launcher name already.
      const bool named = program == 0 && site.srun_word == 0 && !site.program.empty();
      site.launcher =
          named ? detect_named_launcher(command.words, 0, site.program)
                : detect_launcher(command.words, program < command.words.size() ? program : 0);
      if (view == 0) site.nested_script = parse_line_shell_c(site, program);
    }
    const int nested = site.nested_script;
    body_.sites.push_back(std::move(site));
    if (nested >= 0) {
      Context inner = context;
      inner.in_srun = true;
      const NestedScript& script = *body_.nested[static_cast<size_t>(nested)];
      walk_script(script.parse.script, script.view, inner);
    }
  }

  /// `NAME=value` and `export NAME=value` of the batch script whose
  /// value starts with `-` (srun options kept in a variable), last one wins
  /// in walk order. Other assignments only end an earlier one, looked at on
  /// their written text: nearly all of them, and none is copied.
  void remember_option_variables(const ast::Command& command, std::string_view program,
                                 uint32_t view) {
    if (view != 0) return;
    const std::string_view text = body_.views[0].text;
    const auto written = [&](Span span) { return text.substr(span.begin, span.size()); };
    if (command.words.empty()) {
      for (const ast::Assignment& a : command.assignments) {
        if (a.is_array) {
          remember_array(a);
        } else {
          remember(a.name, written(a.value.span), a.value, 0);
        }
      }
      return;
    }
    if (!is_declaration_builtin(program)) return;
    for (size_t i = 1; i < command.words.size(); ++i) {
      const std::string_view word = written(command.words[i].span);
      const size_t eq = word.find('=');
      if (eq == std::string_view::npos || eq == 0) continue;
      remember(word.substr(0, eq), word.substr(eq + 1), command.words[i], eq + 1);
    }
  }

  /// NAME's value is `word`'s value from `skip` on, written `value`. An
  /// expansion in it (`--nodelist=$NODELIST`, `--jobid $SLURM_JOB_ID`) reads
  /// `$?`, as it does written on the srun line: the options are still known.
  void remember(std::string_view name, std::string_view value, const ast::Word& word, size_t skip) {
    std::optional<std::string> options =
        starts_with_option(value) ? text_with_placeholders(word) : std::optional<std::string>();
    if (options && options->size() >= skip) {
      option_variables_[std::string(name)] = options->substr(skip);
    } else if (const auto it = option_variables_.find(name); it != option_variables_.end()) {
      option_variables_.erase(it);
    }
    if (!option_arrays_.empty()) option_arrays_.erase(std::string(name));
  }

  /// `SRUN_PARAMS=(--mpi=pmi2 --label)`, literal elements from an option on
  /// (and `+=(...)` to such an array): "${SRUN_PARAMS[@]}" is those words.
  void remember_array(const ast::Assignment& a) {
    std::vector<std::string> elements;
    for (const ast::Word& element : a.elements) {
      std::optional<std::string> literal = literal_value(element);
      if (!literal) {
        option_arrays_.erase(a.name);
        return;
      }
      elements.push_back(std::move(*literal));
    }
    const auto it = option_arrays_.find(a.name);
    if (a.append && it != option_arrays_.end()) {
      it->second.insert(it->second.end(), elements.begin(), elements.end());
    } else if (!a.append && !elements.empty() && elements.front().starts_with('-')) {
      option_arrays_[a.name] = std::move(elements);
    } else if (it != option_arrays_.end()) {
      option_arrays_.erase(it);
    }
  }

  /// The words an unquoted `$NAME` / `${NAME}` splits into, when NAME holds
  /// options: `srun $SRUN_ARGS python t.py` with SRUN_ARGS="--wait=60 -l".
  std::optional<std::vector<std::string>> split_expansion(const ast::Word& word) const {
    if (word.parts.size() != 1) return std::nullopt;
    if (const ast::WordPart* array = whole_array(word.parts[0])) {
      const auto elements = option_arrays_.find(array->text);
      if (elements == option_arrays_.end()) return std::nullopt;
      return elements->second;
    }
    if (word.parts[0].kind != ast::PartKind::param || !word.parts[0].op.empty()) {
      return std::nullopt;
    }
    const auto value = option_variables_.find(word.parts[0].text);
    if (value == option_variables_.end()) return std::nullopt;
    return split_fields(value->second);
  }

  /// The `${NAME[@]}` of `part`, alone or alone in double quotes.
  static const ast::WordPart* whole_array(const ast::WordPart& part) {
    const ast::WordPart* param = &part;
    if (part.kind == ast::PartKind::double_quoted && part.parts.size() == 1) {
      param = &part.parts[0];
    }
    if (param->kind != ast::PartKind::param || (param->op != "[@]" && param->op != "[*]")) {
      return nullptr;
    }
    return param;
  }

  /// `srun $SRUN_ARGS -u bash -c "..."` with SRUN_ARGS set nowhere in the
  /// script: the expansion is read as srun's first operand, yet it stands
  /// before more srun options and a program (a shell, a launcher, a
  /// container) the translation knows. Under Slurm it held whatever srun
  /// options the submitting shell had, most often none; it is taken as
  /// such, and goes with srun instead of staying as the program (an empty
  /// one, which would run `-u` as the command).
  void skip_unset_options_variable(Site& site, std::vector<directives::Word>& option_words,
                                   std::vector<size_t>& word_of) const {
    const size_t first = site.srun->first_operand;
    if (first + 1 >= option_words.size() || site.view != 0) return;
    const size_t index = word_of[first];
    const ast::Word& word = site.command->words[index];
    // Only a bare `$NAME` / `${NAME}`: a quoted one is one word even when empty.
    if (word.parts.size() != 1 || word.parts[0].kind != ast::PartKind::param ||
        !word.parts[0].op.empty() || word_of[first + 1] == index) {
      return;
    }
    const std::string& name = word.parts[0].text;
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) != 0) return;
    std::vector<directives::Word> rest = option_words;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(first));
    std::vector<size_t> rest_word_of = word_of;
    rest_word_of.erase(rest_word_of.begin() + static_cast<std::ptrdiff_t>(first));
    directives::OptionParse parse = directives::parse_options(rest, directives::srun_options());
    // The step's own words first; the script's whole text last, once a name.
    if (parse.first_operand >= rest.size() ||
        !names_known_program(site.command->words, rest_word_of[parse.first_operand]) ||
        script_may_set(name)) {
      return;
    }
    site.srun = std::move(parse);
    site.srun_unset_options = index;
    option_words = std::move(rest);
    word_of = std::move(rest_word_of);
  }

  /// NAME appears in the batch script's code other than as `$NAME` or
  /// `${NAME...}` (`NAME=`, `export NAME`, `read NAME`, `for NAME in`): it
  /// may be set. Asked only of a bare expansion where srun's program could
  /// be, and remembered: a script with many such steps reads its text once
  /// for each name, not once for each step.
  bool script_may_set(const std::string& name) const {
    const auto known = may_set_.find(name);
    if (known != may_set_.end()) return known->second;
    return may_set_[name] = names_other_than_expanded(name);
  }

  bool names_other_than_expanded(std::string_view name) const {
    const std::string_view text = body_.views[0].text;
    for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
      const size_t end = at + name.size();
      const bool starts_word = at == 0 || !is_variable_name_char(text[at - 1]);
      const bool ends_word = end == text.size() || !is_variable_name_char(text[end]);
      if (!starts_word || !ends_word || in_comment(text, at)) continue;
      const bool expansion = (at >= 1 && text[at - 1] == '$') ||
                             (at >= 2 && text[at - 1] == '{' && text[at - 2] == '$');
      if (!expansion) return true;
    }
    return false;
  }

  /// A `#` opening a word earlier on the line: `# run as SRUN_ARGS=... sbatch`.
  static bool in_comment(std::string_view text, size_t at) {
    const size_t line = text.rfind('\n', at);
    for (size_t i = line == std::string_view::npos ? 0 : line + 1; i < at; ++i) {
      if (text[i] == '#' &&
          (i == 0 || text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n')) {
        return true;
      }
    }
    return false;
  }

  /// A shell, a launcher (python included) or a container engine.
  static bool names_known_program(const std::vector<ast::Word>& words, size_t index) {
    std::optional<std::string> storage;
    const std::string_view program = program_view(words[index], storage);
    if (program.empty()) return false;
    return is_shell(program) || is_container_program(program) ||
           detect_launcher(words, index).kind != Launcher::none;
  }

  void describe_srun(Site& site) {
    const auto& words = site.command->words;
    std::vector<directives::Word> option_words;
    std::vector<size_t> word_of;  // the command word each option word came from
    for (size_t i = site.srun_word + 1; i < words.size(); ++i) {
      // srun options are parsed as the shell hands them over: a variable that
      // holds options is split into them; another expansion stands for
      // itself, which is enough to find the operand.
      if (const auto fields = split_expansion(words[i])) {
        for (const std::string& field : *fields) {
          // Its bytes were written as the variable: value spans cover `$NAME`.
          option_words.push_back(
              {field, words[i].span, std::vector<uint32_t>(field.size(), words[i].span.begin)});
          word_of.push_back(i);
        }
        continue;
      }
      option_words.push_back({text_with_placeholders(words[i]), words[i].span});
      word_of.push_back(i);
    }
    site.srun = directives::parse_options(option_words, directives::srun_options());
    skip_unset_options_variable(site, option_words, word_of);
    const size_t first = site.srun->first_operand;
    site.srun_operand = first < word_of.size() ? word_of[first] : words.size();
    site.srun_operand_in_variable =
        first > 0 && first < word_of.size() && word_of[first - 1] == word_of[first];
    site.srun_operand_unread =
        site.srun_operand_in_variable && option_words[first].text.starts_with("$?");
    if (site.srun_operand >= words.size()) return;
    const size_t program = program_after_container(words, site.srun_operand, site);
    std::optional<std::string> storage;
    // A step script is inlined in place of the whole line: not under a wrapper.
    // NERSC's `srun shifter [OPTIONS] bash -c "..."` runs its script per task too.
    const size_t shell =
        program == site.srun_operand ? shifter_program(words, program, site) : program;
    if (site.view == 0 && site.srun_word == 0 && shell < words.size() &&
        is_shell(program_view(words[shell], storage))) {
      site.nested_script = parse_shell_c(words, shell + 1);
      if (site.nested_script >= 0) return;
    }
    site.launcher = detect_launcher(words, program < words.size() ? program : site.srun_operand);
  }

  /// The program a `shifter [OPTIONS] PROGRAM` call at `from` runs, or `from`.
  size_t shifter_program(const std::vector<ast::Word>& words, size_t from, const Site& site) {
    const auto call = find_shifter_call(words, from, body_.views[site.view].text);
    return call && call->program < words.size() ? call->program : from;
  }

  /// The index of the program a command from `from` on runs: the word after
  /// the image when it is a container call (also behind command wrappers:
  /// `nice -n 5 docker run`, like container_step_start()), which the mapping
  /// takes off (the index may be one past the end); else `from`. An unquoted
  /// `$NAME` where the image would be, holding options, is one of the call's
  /// options: recorded in Body::container_option_words.
  size_t program_after_container(const std::vector<ast::Word>& words, size_t from,
                                 const Site& site) {
    const std::string_view text = body_.views[site.view].text;
    const size_t start = skip_command_wrappers(words, from);
    if (start >= words.size()) return from;
    auto call = find_container_call(words, start, text);
    std::vector<size_t> option_words;
    while (call && call->image < words.size() &&
           (split_expansion(words[call->image]) || holds_options_or_nothing(words, call->image))) {
      option_words.push_back(call->image);
      call = find_container_call(words, start, text, option_words);
    }
    if (!option_words.empty()) body_.container_option_words[site.command] = option_words;
    return call ? call->image + 1 : from;
  }

  /// An unquoted `$NAME` where a container call's image would be, and NAME
  /// is only ever set to options or nothing (`NV=--nv` / `NV=""` in an
  /// if/else), or never set while options or an image follow
  /// (`singularity exec $nv --overlay o.ext3 img.sif ...`): bash drops it
  /// when empty, so it is not the image.
  bool holds_options_or_nothing(const std::vector<ast::Word>& words, size_t i) {
    const ast::Word& word = words[i];
    if (i + 2 > words.size() || word.parts.size() != 1 ||
        word.parts[0].kind != ast::PartKind::param || !word.parts[0].op.empty()) {
      return false;
    }
    const std::string& name = word.parts[0].text;
    const auto cached = options_or_nothing_.find(name);
    if (cached != options_or_nothing_.end()) return cached->second;
    const std::optional<bool> assigned = assigned_only_options_or_nothing(name);
    const bool result = assigned ? *assigned : looks_like_options_or_image(words[i + 1]);
    options_or_nothing_.emplace(name, result);
    return result;
  }

  /// Whether every assignment of NAME so far is a literal option string or
  /// empty; nullopt when there is none.
  std::optional<bool> assigned_only_options_or_nothing(std::string_view name) const {
    std::optional<bool> result;
    const std::string_view text = body_.views[0].text;
    auto classify = [&](const ast::Word& value, std::string_view written, size_t skip,
                        bool append) {
      const std::string_view own = written.substr(skip);
      if (is_substring_of_itself(own, name)) return;  // `X="${X:1}"` adds no word
      const std::optional<std::string> literal = literal_value(value);
      // Words added to the variable itself (`X+=" -v $A:$B"`, `X="${X} --env
      // $K=$V"`) are options when they start with one, whatever they expand.
      const std::string_view added = append ? own : after_self_reference(own, name);
      const bool grows = append || added.size() != own.size();
      const bool option = (literal && (literal->size() <= skip || starts_with_option(own))) ||
                          (grows && (added.find_first_not_of(" \t\"") == std::string_view::npos ||
                                     starts_with_option(added)));
      result = result.value_or(true) && option;
    };
    for (const Site& earlier : body_.sites) {
      if (earlier.view != 0) continue;
      for (const ast::Assignment& a : earlier.command->assignments) {
        if (a.name == name && !a.is_array && earlier.command->words.empty()) {
          classify(a.value, text.substr(a.value.span.begin, a.value.span.size()), 0, a.append);
        }
      }
      if (!is_declaration_builtin(earlier.program)) continue;
      for (const ast::Word& w : earlier.command->words) {
        const std::string_view written = text.substr(w.span.begin, w.span.size());
        if (written.size() > name.size() && written.starts_with(name) &&
            written[name.size()] == '=') {
          classify(w, written, name.size() + 1, false);
        }
      }
    }
    return result;
  }

  static bool looks_like_options_or_image(const ast::Word& next) {
    std::string storage;
    const std::string_view head = literal_prefix(next, storage);
    if (head.starts_with('-')) return true;
    const std::optional<std::string> literal = literal_value(next);
    if (!literal) return false;
    for (std::string_view scheme : {"docker://", "library://", "shub://", "oras://"}) {
      if (literal->starts_with(scheme)) return true;
    }
    for (std::string_view suffix : {".sif", ".simg", ".img", ".sqsh"}) {
      if (literal->ends_with(suffix)) return true;
    }
    return false;
  }

  /// `bash [-flags] -c SCRIPT`: parses SCRIPT and returns its index in Body::nested.
  int parse_shell_c(const std::vector<ast::Word>& words, size_t from) {
    const std::optional<size_t> script = shell_c_script(words, from);
    return script ? add_script_word(words[*script]) : -1;
  }

  /// Parses a `bash -c` word whose script can be read; reports one that is
  /// made when the job runs, whose commands then go on untranslated.
  int add_script_word(const ast::Word& word) {
    const ScriptWord kind = classify_script_word(word);
    if (kind == ScriptWord::readable) {
      const std::optional<ast::Word> expanded = with_program_variable(word);
      return add_nested(expanded ? *expanded : word, word.span);
    }
    if (std::optional<ast::Word> value = script_variable_value(word)) {
      if (std::optional<ast::Word> expanded = with_program_variable(*value)) {
        value = std::move(expanded);
      }
      return add_nested(*value, word.span);
    }
    const std::string written(body_.views[0].text.substr(word.span.begin, word.span.size()));
    std::string message =
        kind == ScriptWord::unquoted_expansion
            ? "the `bash -c` script is `" + written +
                  "`, unquoted: bash splits it and takes only its first word as the script "
                  "(the rest become $0, $1, ...)"
            : "the `bash -c` script is `" + written + "`, whose value is set when the job runs";
    message += "; the commands in it are not translated";
    diagnostics_.push_back(
        {Code::shell_script_unread, word.span, std::move(message),
         "write the commands into the `bash -c` word itself, or check them by hand: setup "
         "commands, cluster paths, srun and launchers in them are passed on as written"});
    return -1;
  }

  /// `bash -c SCRIPT` as a line of the batch script, alone or as the command
  /// of a singularity/apptainer call (which comes off on AI Runtime): SCRIPT
  /// runs where the line runs, and its commands are mapped like the
  /// script's. A rewritten script goes back into the word it came in, in the
  /// same single quotes or else double quotes (air/command.cpp).
  /// `shell` is program_after_container(words, 0, site): the word after a
  /// container call's image, else 0.
  int parse_line_shell_c(Site& site, size_t shell) {
    const std::vector<ast::Word>& words = site.command->words;
    std::string_view program = site.program;
    std::optional<std::string> storage;
    if (shell != 0) {
      if (shell >= words.size()) return -1;
      program = program_view(words[shell], storage);
    }
    if (!is_shell(program)) return -1;
    const std::optional<size_t> script = shell_c_script(words, shell + 1);
    return script ? add_script_word(words[*script]) : -1;
  }

  /// The index of SCRIPT in `bash [-flags] -c SCRIPT`, the flags from `from` on.
  static std::optional<size_t> shell_c_script(const std::vector<ast::Word>& words, size_t from) {
    for (size_t i = from; i + 1 < words.size(); ++i) {
      const auto flag = literal_value(words[i]);
      if (!flag || flag->empty() || flag->front() != '-') return std::nullopt;
      if (flag->find('c') != std::string::npos) return i + 1;
    }
    return std::nullopt;
  }

  /// The script in `"$NAME"` or `"$LAUNCHER $CMD"` (the idiom `CMD="python
  /// train.py ..."; srun bash -c "$CMD"`): the variables' values joined as
  /// written, when the batch script sets each once, before this point, and
  /// they make a script that can be read. One variable's value is the word
  /// itself (its reports point there); several make a word of their parts.
  /// A value that is itself such a word (`CMD="$LAUNCHER $PROGRAM"`) is
  /// followed, a few levels deep.
  std::optional<ast::Word> script_variable_value(const ast::Word& word, int depth = 0) const {
    if (depth > 3 || word.parts.size() != 1 || word.parts[0].kind != ast::PartKind::double_quoted) {
      return std::nullopt;
    }
    const auto& inner = word.parts[0].parts;
    ast::Word joined;
    joined.span = word.span;
    for (const ast::WordPart& part : inner) {
      if (part.kind == ast::PartKind::literal && is_blank(part.text)) {
        joined.parts.push_back(part);
        continue;
      }
      if (part.kind != ast::PartKind::param || !part.op.empty()) return std::nullopt;
      std::optional<ast::Word> value = assignments_.sole(part.text, body_.sites.size());
      if (value && classify_script_word(*value) == ScriptWord::only_expansions) {
        value = script_variable_value(*value, depth + 1);
      }
      if (!value) return std::nullopt;
      if (inner.size() == 1) {
        joined = std::move(*value);
      } else {
        joined.parts.insert(joined.parts.end(), value->parts.begin(), value->parts.end());
      }
    }
    if (classify_script_word(joined) != ScriptWord::readable) return std::nullopt;
    return joined;
  }

  /// A script whose program is a variable (`"${LAUNCHER} run.py ..."`,
  /// `"$BIND_CMD python t.py"`) set once to a readable value: the value
  /// stands in its place, as bash pasted it in before reading the script,
  /// so the launcher in it is mapped. Nullopt when nothing changes.
  std::optional<ast::Word> with_program_variable(const ast::Word& word, int depth = 0) const {
    if (depth > 3 || word.parts.empty()) return std::nullopt;
    const ast::WordPart& first = word.parts[0];
    const bool quoted = first.kind == ast::PartKind::double_quoted;
    const ast::WordPart* program =
        quoted ? (first.parts.empty() ? nullptr : &first.parts[0]) : &first;
    if (program == nullptr || program->kind != ast::PartKind::param || !program->op.empty()) {
      return std::nullopt;
    }
    std::optional<ast::Word> value = assignments_.sole(program->text, body_.sites.size());
    if (!value || classify_script_word(*value) != ScriptWord::readable) return std::nullopt;
    if (std::optional<ast::Word> deeper = with_program_variable(*value, depth + 1)) {
      value = std::move(deeper);
    }
    ast::Word out;
    out.span = word.span;
    out.parts = std::move(value->parts);
    if (quoted) {
      ast::WordPart rest = first;  // the rest of the double-quoted text
      rest.parts.erase(rest.parts.begin());
      out.parts.push_back(std::move(rest));
    }
    out.parts.insert(out.parts.end(), word.parts.begin() + 1, word.parts.end());
    return out;
  }

  /// Parses the script in `word` for the command word at `use` (the same
  /// word, or `"$NAME"` for a script kept in a variable).
  int add_nested(const ast::Word& word, Span use) {
    auto nested = std::make_unique<NestedScript>();
    nested->word = use;
    TextView view;
    // A lone single-quoted word is the file's own bytes: keep exact positions.
    if (word.parts.size() == 1 && word.parts[0].kind == ast::PartKind::single_quoted) {
      const Span inner = word.parts[0].inner;
      view = TextView{body_.views[0].text, inner, true, word.span};
      nested->parse =
          parse_script(body_.views[0].text.substr(inner.begin, inner.size()), inner.begin);
    } else {
      // A double-quoted script whose expansions the batch shell filled in:
      // on AI Runtime the same shell runs the script itself, so each
      // expansion is kept as written and evaluated there.
      nested->text = script_text_of(word, body_.views[0].text, *nested);
      view = TextView{nested->text,
                      {0, static_cast<uint32_t>(nested->text.size())},
                      false,
                      word.span,
                      nested->file_offsets};
      nested->parse = parse_script(nested->text, 0);
      for (Diagnostic& d : nested->parse.diagnostics) d.span = view.file_span(d.span);
    }
    for (const Diagnostic& d : nested->parse.diagnostics) diagnostics_.push_back(d);
    // A script bash could not run either (a template's `{{ x|join(' ') }}`)
    // stays the quoted word it was: unwrapped, it would break the command.
    const bool broken =
        !nested->parse.complete ||
        std::any_of(nested->parse.diagnostics.begin(), nested->parse.diagnostics.end(),
                    [](const Diagnostic& d) { return d.severity() == Severity::error; });
    if (broken) return -1;
    nested->view = static_cast<uint32_t>(body_.views.size());
    body_.views.push_back(view);
    body_.nested.push_back(std::move(nested));
    return static_cast<int>(body_.nested.size() - 1);
  }

  Body& body_;
  Diagnostics& diagnostics_;
  std::map<std::string, std::string, std::less<>> option_variables_;
  std::unordered_map<std::string, std::vector<std::string>> option_arrays_;  // remember_array()
  std::unordered_map<std::string, bool> options_or_nothing_;  // holds_options_or_nothing()
  mutable std::unordered_map<std::string, bool> may_set_;     // script_may_set()
  mutable BatchAssignments assignments_{body_};  // read only for `bash -c "$CMD"`
};

/// The text a `bash -c` word hands to bash: quotes and escapes removed, each
/// expansion written as in the source (`$head_node`, `$(hostname)`) and
/// recorded in `nested` with where it stands in both texts.
std::string script_text_of(const ast::Word& word, std::string_view source, NestedScript& nested) {
  std::string out;
  std::vector<uint32_t>& from = nested.file_offsets;
  // Text copied from the file: each byte where it stands there.
  auto copy = [&](Span span) {
    out += source.substr(span.begin, span.size());
    for (uint32_t at = span.begin; at < span.end; ++at) from.push_back(at);
  };
  auto append = [&](const ast::WordPart& part) {
    switch (part.kind) {
      case ast::PartKind::single_quoted:
        copy(part.inner);
        break;
      case ast::PartKind::literal:
      case ast::PartKind::ansi_c_quoted:
        // Unescaped text: its bytes point into the part, as near as they can.
        out += part.text;
        for (uint32_t i = 0; i < part.text.size(); ++i) {
          from.push_back(std::min(part.span.begin + i, std::max(part.span.end, 1U) - 1));
        }
        break;
      default: {
        const auto begin = static_cast<uint32_t>(out.size());
        copy(part.span);
        nested.outer_expansions.push_back(Span{begin, static_cast<uint32_t>(out.size())});
        nested.outer_sources.push_back(part.span);
      }
    }
  };
  // Inside double quotes bash drops the backslash of \$ \" \\ \` and the
  // pair \<newline>; the latter is kept here, where it still continues the
  // line, so the user's line breaks survive.
  auto append_double_quoted_literal = [&](const ast::WordPart& part) {
    const std::string_view written = source.substr(part.span.begin, part.span.size());
    for (size_t i = 0; i < written.size(); ++i) {
      if (written[i] == '\\' && i + 1 < written.size() &&
          std::string_view("$\"\\`").find(written[i + 1]) != std::string_view::npos) {
        ++i;
      }
      out.push_back(written[i]);
      from.push_back(part.span.begin + static_cast<uint32_t>(i));
    }
  };
  for (const ast::WordPart& part : word.parts) {
    if (part.kind != ast::PartKind::double_quoted) {
      append(part);
      continue;
    }
    for (const ast::WordPart& inner : part.parts) {
      if (inner.kind == ast::PartKind::literal) {
        append_double_quoted_literal(inner);
      } else {
        append(inner);
      }
    }
  }
  return out;
}

/// Folds parts into `out`, quotes removed: literal text as it is, each
/// expansion as `expansion(part, text so far)` renders it. Stops at the first
/// expansion it does not render (nullopt) and returns false.
template <class Expansion>
bool fold_parts(const std::vector<ast::WordPart>& parts, std::string& out, Expansion expansion) {
  for (const ast::WordPart& part : parts) {
    switch (part.kind) {
      case ast::PartKind::literal:
      case ast::PartKind::single_quoted:
      case ast::PartKind::ansi_c_quoted:
        out += part.text;
        break;
      case ast::PartKind::double_quoted:
        if (!fold_parts(part.parts, out, expansion)) return false;
        break;
      default: {
        const auto text = expansion(part, std::string_view(out));
        if (!text) return false;
        out += *text;
      }
    }
  }
  return true;
}

/// A word's text with quotes removed, each expansion rendered by
/// `expansion`; nullopt when one is not.
template <class Expansion>
std::optional<std::string> fold_word(const ast::Word& word, Expansion expansion) {
  std::string out;
  if (!fold_parts(word.parts, out, expansion)) return std::nullopt;
  return out;
}

/// The word's literal text with `$?` standing for each expansion, so
/// `--nodes=$NNODES` still reads as an option with a value.
std::string text_with_placeholders(const ast::Word& word) {
  return *fold_word(word, [](const ast::WordPart&, std::string_view) {
    return std::optional<std::string_view>("$?");
  });
}

/// The one part whose text is the literal value, if the word is just that
/// (most words: no fold needed).
const std::string* single_literal_part(const ast::Word& word) {
  if (word.parts.size() != 1) return nullptr;
  const ast::WordPart& part = word.parts[0];
  const bool plain =
      part.kind == ast::PartKind::literal || part.kind == ast::PartKind::single_quoted;
  return plain ? &part.text : nullptr;
}

}  // namespace

std::vector<std::string> split_fields(std::string_view text) {
  std::vector<std::string> fields;
  while (true) {
    const size_t begin = text.find_first_not_of(" \t\n");
    if (begin == std::string_view::npos) break;
    text.remove_prefix(begin);
    const size_t end = std::min(text.find_first_of(" \t\n"), text.size());
    fields.emplace_back(text.substr(0, end));
    text.remove_prefix(end);
  }
  return fields;
}

std::optional<std::string> literal_value(const ast::Word& word) {
  if (const std::string* text = single_literal_part(word)) return *text;
  return fold_word(word, [](const ast::WordPart&, std::string_view) {
    return std::optional<std::string_view>();
  });
}

std::string program_name(const ast::Word& word) {
  std::optional<std::string> storage;
  return std::string(program_view(word, storage));
}

std::optional<std::string_view> literal_view(const ast::Word& word,
                                             std::optional<std::string>& storage) {
  if (const std::string* text = single_literal_part(word)) return std::string_view(*text);
  storage = literal_value(word);
  if (!storage) return std::nullopt;
  return std::string_view(*storage);
}

bool literal_is(const ast::Word& word, std::string_view text) {
  if (const std::string* part = single_literal_part(word)) return *part == text;
  return literal_value(word) == text;
}

std::string_view literal_prefix(const ast::Word& word, std::string& storage,
                                ExpansionText expansion) {
  if (const std::string* text = single_literal_part(word)) return *text;
  storage.clear();
  fold_parts(word.parts, storage, [expansion](const ast::WordPart& part, std::string_view so_far) {
    return expansion != nullptr ? expansion(part, so_far) : std::nullopt;
  });
  return storage;
}

std::string_view program_view(const ast::Word& word, std::optional<std::string>& storage) {
  const std::optional<std::string_view> literal = literal_view(word, storage);
  if (!literal) return {};
  const size_t slash = literal->rfind('/');
  return slash == std::string_view::npos ? *literal : literal->substr(slash + 1);
}

namespace {

/// The options of a wrapper that take the next word as their value.
bool takes_separate_value(std::string_view wrapper, std::string_view option) {
  if (wrapper == "stdbuf") return option == "-i" || option == "-o" || option == "-e";
  if (wrapper == "timeout") return option == "-s" || option == "-k";
  if (wrapper == "nice") return option == "-n";
  if (wrapper == "env") return option == "-u" || option == "-C" || option == "-S";
  if (wrapper == "time") return option == "-o" || option == "-f";
  if (wrapper == "sudo") {  // -u USER, -g GROUP, -D DIR, -p PROMPT, ... (sudo(8))
    return option == "-u" || option == "-g" || option == "-h" || option == "-p" || option == "-C" ||
           option == "-D" || option == "-r" || option == "-t" || option == "-T" || option == "-U";
  }
  if (wrapper == "conda") {  // `conda|mamba|micromamba run`
    return option == "-n" || option == "--name" || option == "-p" || option == "--prefix" ||
           option == "--cwd" || option == "-a" || option == "--attach";
  }
  if (wrapper == "numactl") {
    return option == "-N" || option == "-m" || option == "-C" || option == "-i" || option == "-p";
  }
  return false;
}

}  // namespace

size_t skip_command_wrappers(const std::vector<ast::Word>& words, size_t from) {
  std::optional<std::string> storage;
  while (from < words.size()) {
    const std::string_view wrapper = program_view(words[from], storage);
    if (!may_wrap_a_command(wrapper)) return from;
    const bool conda = wrapper == "conda" || wrapper == "mamba" || wrapper == "micromamba";
    const bool conda_run = conda && from + 1 < words.size() && literal_is(words[from + 1], "run");
    if (conda && !conda_run) return from;
    // `storage` is reused for the words after it
    const std::string name = conda_run ? "conda" : std::string(wrapper);
    size_t next = from + (conda_run ? 2 : 1);
    for (; next < words.size(); ++next) {
      const auto word = literal_value(words[next]);
      if (!word) break;
      if (*word == "--") {
        ++next;
        break;
      }
      const bool option = word->size() > 1 && word->front() == '-';
      // env and sudo both take NAME=VALUE before the command.
      const bool assignment =
          (name == "env" || name == "sudo") && word->find('=') != std::string::npos;
      if (!option && !assignment) break;
      if (option && takes_separate_value(name, *word)) ++next;
    }
    if (name == "timeout") ++next;  // the duration
    if (next >= words.size()) return words.size();
    from = next;
  }
  return from;
}

size_t container_step_start(const Site& site) {
  // site.srun first: it is set for srun only, so most programs skip the comparison.
  const size_t from = site.srun && site.program == "srun" ? site.srun_operand : 0;
  if (from == 0 && !may_wrap_a_command(site.program)) return 0;  // nearly every command
  return skip_command_wrappers(site.command->words, from);
}

namespace {

/// mpirun and mpiexec under their own names, Debian's alternatives
/// (`mpirun.openmpi`, `mpiexec.hydra`, `mpiexec.mpich`) included.
bool is_mpi_launcher(std::string_view program) {
  for (std::string_view name : {std::string_view("mpirun"), std::string_view("mpiexec")}) {
    if (program == name || (program.starts_with(name) && program.size() > name.size() + 1 &&
                            program[name.size()] == '.')) {
      return true;
    }
  }
  return false;
}

/// The program a command word names: its basename, also when only the
/// directory is computed (`${MPI_DIR}/bin/mpiexec`, `$CONDA_PREFIX/bin/python`).
std::string_view launcher_name(const ast::Word& word, std::optional<std::string>& storage) {
  const std::string_view literal = program_view(word, storage);
  if (!literal.empty() || word.parts.empty()) return literal;
  const ast::WordPart& last = word.parts.back();
  if (last.kind != ast::PartKind::literal) return {};
  const size_t slash = last.text.rfind('/');
  return slash == std::string::npos ? std::string_view{}
                                    : std::string_view(last.text).substr(slash + 1);
}

}  // namespace

namespace {

/// axolotl's `axolotl train CONFIG --launcher torchrun -- [torchrun options]` hands the
/// words after `--` to torchrun (`--launcher accelerate -- ...` to accelerate launch).
/// Without `--` the launcher runs with its defaults and there is nothing to read.
LauncherCall axolotl_launcher(const std::vector<ast::Word>& words, size_t from) {
  Launcher kind = Launcher::none;
  for (size_t i = from + 1; i < words.size(); ++i) {
    const std::optional<std::string> word = literal_value(words[i]);
    if (!word) continue;
    if (*word == "--") {
      return kind == Launcher::none ? LauncherCall{} : LauncherCall{kind, from, i + 1};
    }
    std::optional<std::string> name;
    if (*word == "--launcher" && i + 1 < words.size()) {
      name = literal_value(words[++i]);
    } else if (word->starts_with("--launcher=")) {
      name = word->substr(std::string_view("--launcher=").size());
    }
    if (name == "torchrun") kind = Launcher::torchrun;
    if (name == "accelerate") kind = Launcher::accelerate;
  }
  return {};
}

LauncherCall detect_named_launcher(const std::vector<ast::Word>& words, size_t from,
                                   std::string_view program) {
  std::optional<std::string> storage;
  if (may_wrap_a_command(program)) {
    from = skip_command_wrappers(words, from);
    if (from >= words.size()) return {};
    program = program_view(words[from], storage);
  }
  if (is_word(program, "torchrun")) return {Launcher::torchrun, from, from + 1};
  if (is_word(program, "deepspeed")) return {Launcher::deepspeed, from, from + 1};
  if (is_mpi_launcher(program)) return {Launcher::mpirun, from, from + 1};
  if (is_word(program, "horovodrun")) return {Launcher::horovodrun, from, from + 1};
  if (is_word(program, "accelerate") && from + 1 < words.size() &&
      literal_value(words[from + 1]) == "launch") {
    return {Launcher::accelerate, from, from + 2};
  }
  // torchtune's `tune run [torchrun options] RECIPE ...` hands its options to torchrun.
  if (is_word(program, "tune") && from + 1 < words.size() &&
      literal_value(words[from + 1]) == "run") {
    return {Launcher::torchrun, from, from + 2};
  }
  if (is_word(program, "axolotl")) return axolotl_launcher(words, from);
  if (!is_python(program)) return {};
  // python [-u -O ...] -m torch.distributed.run|launch ...
  for (size_t i = from + 1; i < words.size(); ++i) {
    const auto word = literal_value(words[i]);
    if (!word) break;
    if (*word == "-m" && i + 1 < words.size()) {
      const auto module = literal_value(words[i + 1]);
      if (module == "torch.distributed.run") return {Launcher::torchrun, from, i + 2};
      if (module == "torch.distributed.launch") {
        return {Launcher::torch_distributed_launch, from, i + 2};
      }
      if (module == "accelerate.commands.launch") return {Launcher::accelerate, from, i + 2};
      if (module == "deepspeed.launcher.runner") return {Launcher::deepspeed, from, i + 2};
      return {Launcher::python, from, i + 2};
    }
    if (word->empty() || word->front() != '-') break;
  }
  return {Launcher::python, from, from + 1};
}

}  // namespace

LauncherCall detect_launcher(const std::vector<ast::Word>& words, size_t from) {
  if (from >= words.size()) return {};
  std::optional<std::string> storage;
  return detect_named_launcher(words, from, launcher_name(words[from], storage));
}

bool is_shell_program(std::string_view program) { return is_shell(program); }

bool is_declaration_builtin(std::string_view program) {
  switch (program.size()) {  // asked of every command: the length rules out most at once
    case 5:
      return is_word(program, "local");
    case 6:
      return is_word(program, "export");
    case 7:
      return is_word(program, "declare") || is_word(program, "typeset");
    case 8:
      return is_word(program, "readonly");
    default:
      return false;
  }
}

std::string_view launcher_name(Launcher launcher) {
  switch (launcher) {
    case Launcher::none:
      return "none";
    case Launcher::torchrun:
      return "torchrun";
    case Launcher::torch_distributed_launch:
      return "torch.distributed.launch";
    case Launcher::accelerate:
      return "accelerate";
    case Launcher::deepspeed:
      return "deepspeed";
    case Launcher::mpirun:
      return "mpirun";
    case Launcher::horovodrun:
      return "horovodrun";
    case Launcher::python:
      return "python";
  }
  return "none";
}

Body analyze_body(const SourceFile& file, uint32_t body_offset, Diagnostics& diagnostics) {
  Body body;
  const std::string_view text = file.text();
  body_offset = std::min(body_offset, static_cast<uint32_t>(text.size()));
  body.views.push_back(TextView{text, {body_offset, static_cast<uint32_t>(text.size())}, true, {}});
  body.parse = parse_script(text.substr(body_offset), body_offset);
  for (const Diagnostic& d : body.parse.diagnostics) diagnostics.push_back(d);
  // A Site is large and moved whole each time the vector regrows: room for
  // about two commands per statement of the script (most are one simple
  // command) saves nearly all of those moves.
  body.sites.reserve(2 * body.parse.script.body.items.size());
  Walker(body, diagnostics).walk_script(body.parse.script, 0, Context{});
  body.nounset = NounsetScopes::read(body, text);
  return body;
}

void BatchAssignments::index_up_to(size_t before) {
  for (; indexed_ < before && indexed_ < body_.sites.size(); ++indexed_) {
    const Site& site = body_.sites[indexed_];
    if (site.view != 0) continue;
    const ast::Command& command = *site.command;
    if (command.words.empty()) {  // `NAME=x prog` sets NAME for prog only
      for (const ast::Assignment& a : command.assignments) {
        by_name_[a.name].push_back({indexed_, &a.value, false, a.append || a.is_array});
      }
      continue;
    }
    if (!is_declaration_builtin(site.program)) continue;
    for (size_t i = 1; i < command.words.size(); ++i) {
      const ast::Word& word = command.words[i];
      if (word.parts.empty() || word.parts[0].kind != ast::PartKind::literal) continue;
      const std::string_view head = word.parts[0].text;
      const size_t eq = head.find('=');
      if (eq == std::string_view::npos || eq == 0) continue;
      by_name_[head.substr(0, eq)].push_back({indexed_, &word, true, false});
    }
  }
}

std::optional<ast::Word> BatchAssignments::sole(std::string_view name, size_t before) {
  std::optional<Assigned> assigned = sole_assignment(name, before);
  if (!assigned) return std::nullopt;
  return std::move(assigned->value);
}

std::optional<BatchAssignments::Assigned> BatchAssignments::sole_assignment(std::string_view name,
                                                                            size_t before) {
  index_up_to(before);
  const auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  const Entry* found = nullptr;
  for (const Entry& entry : it->second) {
    if (entry.site >= before) break;
    if (entry.unusable || found != nullptr) return std::nullopt;
    found = &entry;
  }
  if (found == nullptr) return std::nullopt;
  std::optional<ast::Word> value =
      found->declared ? declared_value(*found->word, name) : *found->word;
  if (!value) return std::nullopt;
  return Assigned{std::move(*value), found->site};
}

std::optional<std::string_view> variable_of(std::string_view written) {
  if (written.size() > 2 && written.front() == '"' && written.back() == '"') {
    written = written.substr(1, written.size() - 2);
  }
  if (!written.starts_with('$')) return std::nullopt;
  written.remove_prefix(1);
  if (written.size() > 2 && written.front() == '{' && written.back() == '}') {
    written = written.substr(1, written.size() - 2);
  }
  const bool name = !written.empty() && !std::isdigit(static_cast<unsigned char>(written[0])) &&
                    std::all_of(written.begin(), written.end(), [](char c) {
                      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                    });
  if (!name) return std::nullopt;
  return written;
}

std::optional<LeadingVariable> leading_variable(std::string_view written) {
  if (written.starts_with('"')) written.remove_prefix(1);
  if (!written.starts_with('$')) return std::nullopt;
  size_t end = 1;
  if (written.size() > 1 && written[1] == '{') {
    end = written.find('}');
    if (end == std::string_view::npos) return std::nullopt;
    ++end;
  } else {
    while (end < written.size() &&
           (std::isalnum(static_cast<unsigned char>(written[end])) || written[end] == '_')) {
      ++end;
    }
  }
  const std::optional<std::string_view> name = variable_of(written.substr(0, end));
  if (!name) return std::nullopt;
  return LeadingVariable{*name, written.substr(end)};
}

std::optional<std::string> sole_literal(BatchAssignments& assignments, size_t before,
                                        std::string_view written) {
  const std::optional<std::string_view> name = variable_of(written);
  if (!name) return std::nullopt;
  const std::optional<ast::Word> value = assignments.sole(*name, before);
  return value ? literal_value(*value) : std::nullopt;
}

}  // namespace s2a::slurm
