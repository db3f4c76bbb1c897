#include "air/code_root_outputs.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "air/cluster_paths.hpp"

namespace s2a::air {

namespace {

using namespace std::string_view_literals;

// Sorted, for binary search; names as names_output_directory() folds them.
// Not `ckpt_dir`, `checkpoint_path` or `model_dir`: as often what a program
// loads (a model to fine-tune or evaluate) as where it saves.
constexpr std::array kOutputDirectoryNames = {
    "checkpoint_dir"sv,   "checkpoints_dir"sv, "dump_dir"sv,    "exp_dir"sv,
    "experiment_dir"sv,   "log_dir"sv,         "logdir"sv,      "logging_dir"sv,
    "model_save_dir"sv,   "out_dir"sv,         "outdir"sv,      "output_dir"sv,
    "output_directory"sv, "output_folder"sv,   "output_path"sv, "output_root"sv,
    "result_dir"sv,       "results_dir"sv,     "run_dir"sv,     "save_dir"sv,
    "save_folder"sv,      "save_path"sv,       "save_root"sv,   "savedir"sv,
    "tensorboard_dir"sv,  "work_dir"sv,
};
constexpr std::array kOutputFileNames = {
    "out"sv, "out_file"sv, "outfile"sv, "output"sv, "output_file"sv, "save"sv,
};

// Programs whose words are messages, patterns or another tool's options.
constexpr std::array kNotPrograms = {
    "echo"sv,        "printf"sv,    "sbatch"sv, "sed"sv,    "awk"sv,    "grep"sv, "logger"sv,
    "singularity"sv, "apptainer"sv, "docker"sv, "podman"sv, "module"sv, "ml"sv};

/// `Output-Dir` -> `output_dir`, into a small buffer (names are short).
std::optional<std::string> folded(std::string_view name) {
  if (name.empty() || name.size() > 32) return std::nullopt;
  std::string out(name);
  for (char& c : out) {
    if (c == '-') c = '_';
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

template <size_t N>
bool listed(const std::array<std::string_view, N>& names, std::string_view name) {
  const auto key = folded(name);
  return key && std::binary_search(names.begin(), names.end(), std::string_view(*key));
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
    if (words.empty() ||
        std::find(kNotPrograms.begin(), kNotPrograms.end(), site.program) != kNotPrograms.end()) {
      return;
    }
    const size_t first = site.program == "srun" ? site.srun_operand : 1;
    for (size_t i = first; i < words.size(); ++i) {
      const auto& parts = words[i].parts;
      // Nearly every word is ruled out by its first two bytes.
      if (parts.empty() || parts.front().kind != ast::PartKind::literal ||
          !parts.front().text.starts_with("--")) {
        continue;
      }
      const std::string_view head = slurm::literal_prefix(words[i], storage_);
      const size_t eq = head.find('=');
      const std::string_view name = head.substr(2, eq == std::string_view::npos ? eq : eq - 2);
      const bool directory = names_output_directory(name);
      if (!directory && !names_output_file(name)) continue;
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
      const std::optional<std::string_view> name = slurm::variable_of(written);
      const std::optional<std::string> held =
          name ? slurm::sole_literal(assignments_, index, written) : std::nullopt;
      if (!held) return;
      shown += " (" + std::string(*name) + "=" + *held + ")";
      value = *held;
    }
    if (!is_code_root_path(value) || (!directory && !looks_like_path(value))) return;
    out_.push_back({site.view, option, std::move(shown)});
  }

  /// The word's text before its first expansion, quotes removed (the value
  /// `"outputs/$RUN"` is under `outputs/`); a leading `$` is kept so that a
  /// value held in a variable is looked up.
  static std::string unquoted(std::string_view written) {
    std::string out;
    for (char c : written) {
      if (c == '"' || c == '\'') continue;
      if (c == '$' && !out.empty()) break;
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

bool names_output_directory(std::string_view name) { return listed(kOutputDirectoryNames, name); }

bool names_output_file(std::string_view name) { return listed(kOutputFileNames, name); }

bool is_code_root_path(std::string_view value) {
  if (value.empty() || value.front() == '/' || value.front() == '~' || value.front() == '-' ||
      value.front() == '$' || value.front() == '`') {
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
