#include "air/code_root_outputs.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "air/cluster_paths.hpp"

namespace s2a::air {

namespace {

using namespace std::string_view_literals;

/// What an option name says about its value.
enum class OutputKind : uint8_t {
  none,
  directory,  // where results go, whatever the value
  file,       // as often a format or a flag: a path only when it looks like one
};

struct OutputName {
  std::string_view name;
  OutputKind kind;
};

// Sorted by name, for binary search; names as output_kind() folds them.
// Not `ckpt_dir`, `checkpoint_path` or `model_dir`: as often what a program
// loads (a model to fine-tune or evaluate) as where it saves.
constexpr auto D = OutputKind::directory;
constexpr auto F = OutputKind::file;
constexpr std::array<OutputName, 46> kOutputNames = {{
    {"checkpoint_dir", D},
    {"checkpoints_dir", D},
    {"dump_dir", D},
    {"dump_path", D},
    {"exp_dir", D},
    {"exp_path", D},
    {"exp_root", D},
    {"experiment_dir", D},
    {"experiment_path", D},
    {"log_dir", D},
    {"log_directory", D},
    {"log_path", F},
    {"log_root", D},
    {"logdir", D},
    {"logging_dir", D},
    {"model_save_dir", D},
    {"out", F},
    {"out_dir", D},
    {"out_file", F},
    {"out_folder", D},
    {"out_path", D},
    {"outdir", D},
    {"outfile", F},
    {"outpath", D},
    {"output", F},
    {"output_dir", D},
    {"output_directory", D},
    {"output_file", F},
    {"output_folder", D},
    {"output_path", D},
    {"output_root", D},
    {"outputdir", D},
    {"outputfolder", D},
    {"result_dir", D},
    {"results_dir", D},
    {"results_folder", D},
    {"results_path", D},
    {"run_dir", D},
    {"save", F},
    {"save_dir", D},
    {"save_folder", D},
    {"save_path", D},
    {"save_root", D},
    {"savedir", D},
    {"tensorboard_dir", D},
    {"work_dir", D},
}};

// Programs whose words are messages, patterns or another tool's options.
constexpr std::array kNotPrograms = {
    "echo"sv,        "printf"sv,    "sbatch"sv, "sed"sv,    "awk"sv,    "grep"sv, "logger"sv,
    "singularity"sv, "apptainer"sv, "docker"sv, "podman"sv, "module"sv, "ml"sv,   "podman-hpc"sv};

constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// The first letters of the names in kOutputNames, lower case.
constexpr bool starts_output_name(char c) {
  switch (lower(c)) {
    case 'c':
    case 'd':
    case 'e':
    case 'l':
    case 'm':
    case 'o':
    case 'r':
    case 's':
    case 't':
    case 'w':
      return true;
    default:
      return false;
  }
}

/// `--out...`, `-save...`: a word that may be an output option, by its
/// first two or three bytes.
bool may_name_output(std::string_view word) {
  if (!word.starts_with('-')) return false;
  const size_t dashes = word.starts_with("--") ? 2 : 1;
  return word.size() > dashes && starts_output_name(word[dashes]);
}

/// The kind of an option name without its dashes, case and `-`/`_` ignored
/// (`Output-Dir` is `output_dir`). Asked of every `--name` of a script:
/// the first letter rules out most names before any comparison.
OutputKind output_kind(std::string_view name) {
  constexpr size_t kLongest = 16;  // "output_directory"
  if (name.size() < 3 || name.size() > kLongest || !starts_output_name(name[0])) {
    return OutputKind::none;
  }
  std::array<char, kLongest> folded{};
  for (size_t i = 0; i < name.size(); ++i) folded[i] = name[i] == '-' ? '_' : lower(name[i]);
  const std::string_view key(folded.data(), name.size());
  const auto* found =
      std::lower_bound(kOutputNames.begin(), kOutputNames.end(), key,
                       [](const OutputName& entry, std::string_view k) { return entry.name < k; });
  return found != kOutputNames.end() && found->name == key ? found->kind : OutputKind::none;
}

/// The name of `--name` or `-name` (argparse and gflags take both: `-out_path
/// DIR`), empty for `---x` or a word that is only dashes.
std::string_view option_name(std::string_view option) {
  const size_t dashes = option.starts_with("--") ? 2 : 1;
  if (option.size() <= dashes || option[dashes] == '-') return {};
  return option.substr(dashes);
}

/// `outputs/run.json`, `model.pt`, not `json` or `true`.
bool looks_like_path(std::string_view value) {
  if (value.find('/') != std::string_view::npos) return true;
  const size_t dot = value.rfind('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < value.size() &&
         std::isalpha(static_cast<unsigned char>(value[dot + 1])) != 0;
}

/// `cd DIR` leaves the code root unless DIR is the job's directory or a
/// relative directory inside it.
bool leaves_code_root(const slurm::Site& site, std::string_view text) {
  if (site.program != "cd" && site.program != "pushd" && site.program != "popd") return false;
  const auto& words = site.command->words;
  if (words.size() < 2) return true;  // `cd` alone goes home; popd goes back
  const Span target = words[1].span;
  const std::string_view written = text.substr(target.begin, target.size());
  std::string unquoted(written);
  std::erase_if(unquoted, [](char c) { return c == '"' || c == '\''; });
  return !under_job_directory(written) && !is_code_root_path(unquoted);
}

class Finder {
 public:
  Finder(const slurm::Body& body, slurm::BatchAssignments& assignments)
      : body_(body), assignments_(assignments) {}

  std::vector<CodeRootOutput> run() {
    for (size_t k = 0; k < body_.sites.size(); ++k) {
      const slurm::Site& site = body_.sites[k];
      if (leaves_code_root(site, body_.views[site.view].text)) break;
      visit(site, k);
    }
    return std::move(out_);
  }

 private:
  void visit(const slurm::Site& site, size_t index) {
    const auto& words = site.command->words;
    const size_t first = site.program == "srun" ? site.srun_operand : 1;
    for (size_t i = first; i < words.size(); ++i) {
      const auto& parts = words[i].parts;
      // Nearly every word is ruled out by its first bytes: a dash or two,
      // then a letter an output name starts with.
      if (parts.empty() || parts.front().kind != ast::PartKind::literal ||
          !may_name_output(parts.front().text)) {
        continue;
      }
      const std::string_view head = slurm::literal_prefix(words[i], storage_);
      const size_t eq = head.find('=');
      const std::string_view name = option_name(head.substr(0, eq));
      const OutputKind kind = output_kind(name);
      if (kind == OutputKind::none) continue;
      if (std::find(kNotPrograms.begin(), kNotPrograms.end(), site.program) != kNotPrograms.end()) {
        return;
      }
      const bool directory = kind == OutputKind::directory;
      if (eq != std::string_view::npos) {
        const Span value_span{static_cast<uint32_t>(words[i].span.begin + eq + 1),
                              words[i].span.end};
        add(site, index, words[i].span, value_span, directory);
      } else if (i + 1 < words.size()) {
        add(site, index, Span{words[i].span.begin, words[i + 1].span.end}, words[i + 1].span,
            directory);
      }
    }
  }

  void add(const slurm::Site& site, size_t index, Span option, Span value_span, bool directory) {
    const std::string_view text = body_.views[site.view].text;
    const std::string_view written = text.substr(value_span.begin, value_span.size());
    std::string shown(text.substr(option.begin, option.size()));
    std::string value = unquoted(written);
    if (value.starts_with('$')) {
      const std::optional<slurm::LeadingVariable> variable = slurm::leading_variable(written);
      std::optional<Held> held = variable ? held_value(variable->name, index) : std::nullopt;
      if (!held) return;
      shown += " (" + std::string(variable->name) + "=" + held->shown + ")";
      value = std::move(held->prefix);
      // `$OUT/sub`: what follows a value known to its end is part of the path.
      if (held->whole) value += unquoted(variable->rest, /*keep_leading_expansion=*/false);
    }
    if (!is_code_root_path(value) || (!directory && !looks_like_path(value))) return;
    out_.push_back({site.view, option, std::move(shown)});
  }

  /// What a variable the batch script assigns holds, as far as it is known.
  struct Held {
    std::string prefix;  // the value up to its first unknown expansion, quotes removed
    bool whole = true;   // the prefix is the whole value
    std::string shown;   // for the message: the literal value, or the value as written
  };

  /// The value of NAME's one assignment before site `before`, when the
  /// assignment always runs (not in a branch, loop, function, background
  /// or substitution: `[ -n "$1" ] && OUT=$1` may not have). A value with
  /// expansions is known up to the first (`OUT="outputs/${SLURM_JOB_ID}"`
  /// is under `outputs/`); `${OUT:-ckpt}` as OUT's own first value is its
  /// default, which is what runs on AI Runtime, where the environment sbatch
  /// passed on is gone.
  std::optional<Held> held_value(std::string_view name, size_t before) {
    std::optional<slurm::BatchAssignments::Assigned> assigned =
        assignments_.sole_assignment(name, before);
    if (!assigned || !always_runs(body_.sites[assigned->site].context)) return std::nullopt;
    Held held;
    held.whole = fold_known(assigned->value.parts, name, held.prefix);
    std::optional<std::string> literal = slurm::literal_value(assigned->value);
    held.shown =
        literal ? std::move(*literal)
                : shown_with_expansions(body_.views[0].text.substr(assigned->value.span.begin,
                                                                   assigned->value.span.size()),
                                        held.prefix);
    return held;
  }

  /// A value with expansions as written (`"outputs/${SLURM_JOB_ID}"`),
  /// unless it would not read inside the message's own backquotes
  /// (`"exp/"`date +%F``) or runs on for a line of `${lr}_${wd}_...`: then
  /// its known start and `...`, which is what places it under the code root.
  static std::string shown_with_expansions(std::string_view written, const std::string& prefix) {
    constexpr size_t kLongest = 64;
    if (written.find('`') == std::string_view::npos && written.size() <= kLongest) {
      return std::string(written);
    }
    return prefix + "...";
  }

  static bool always_runs(const slurm::Context& context) {
    return !context.in_branch && !context.in_loop && !context.in_function && !context.background &&
           !context.in_substitution;
  }

  /// Appends the parts' text, quotes removed, rendering NAME's own default
  /// (`${NAME:-x}`, `${NAME-x}`, `${NAME:=x}`); false at the first other
  /// expansion.
  static bool fold_known(const std::vector<ast::WordPart>& parts, std::string_view name,
                         std::string& out) {
    for (const ast::WordPart& part : parts) {
      switch (part.kind) {
        case ast::PartKind::literal:
        case ast::PartKind::single_quoted:
        case ast::PartKind::ansi_c_quoted:
          out += part.text;
          break;
        case ast::PartKind::double_quoted:
          if (!fold_known(part.parts, name, out)) return false;
          break;
        case ast::PartKind::param:
          if (part.text != name || !is_default_operator(part.op) ||
              !fold_known(part.parts, name, out)) {
            return false;
          }
          break;
        default:
          return false;
      }
    }
    return true;
  }

  static bool is_default_operator(std::string_view op) {
    return op.starts_with(":-") || op.starts_with(":=") || op.starts_with('-') ||
           op.starts_with('=');
  }

  /// The word's text before its first expansion, quotes removed (the value
  /// `"outputs/$RUN"` is under `outputs/`); a leading `$` is kept, when
  /// asked, so that a value held in a variable is looked up.
  static std::string unquoted(std::string_view written, bool keep_leading_expansion = true) {
    std::string out;
    for (char c : written) {
      if (c == '"' || c == '\'') continue;
      if (c == '$' && (!out.empty() || !keep_leading_expansion)) break;
      out.push_back(c);
    }
    return out;
  }

  const slurm::Body& body_;
  slurm::BatchAssignments& assignments_;
  std::string storage_;
  std::vector<CodeRootOutput> out_;
};

}  // namespace

bool names_output_directory(std::string_view name) {
  return output_kind(name) == OutputKind::directory;
}

bool names_output_file(std::string_view name) { return output_kind(name) == OutputKind::file; }

bool is_code_root_path(std::string_view value) {
  // `<PATH>/out`, `#/fst`: a template's placeholder for a path, not a directory.
  if (value.empty() || value.front() == '/' || value.front() == '~' || value.front() == '-' ||
      value.front() == '$' || value.front() == '`' || value.front() == '<' ||
      value.front() == '#') {
    return false;
  }
  if (value == ".." || value.starts_with("../")) return false;  // above the root: S2A5013
  return value.find("://") == std::string_view::npos && !value.starts_with("dbfs:") &&
         value.find_first_of(" \t\n={}*?") == std::string_view::npos;
}

std::vector<CodeRootOutput> find_code_root_outputs(const slurm::Body& body,
                                                   slurm::BatchAssignments& assignments) {
  return Finder(body, assignments).run();
}

}  // namespace s2a::air
