#include "air/cluster_paths.hpp"

#include <algorithm>
#include <array>
#include <unordered_set>
#include <utility>

#include "air/container_call.hpp"
#include "air/keyword_list.hpp"
#include "source/ascii.hpp"

namespace s2a::air {
namespace {

/// `"/scratch/${USER}/run/"` as `/scratch/$USER/run`: the same directory
/// however it is quoted, braced or ended.
std::string directory_text(std::string_view written) {
  std::string text;
  for (char c : written) {
    if (c != '"' && c != '\'' && c != '{' && c != '}') text.push_back(c);
  }
  while (text.size() > 1 && text.back() == '/') text.pop_back();
  return text;
}

using namespace std::string_view_literals;

/// Top-level directories that exist on the node image or are AI Runtime's
/// own: a path under them is not the cluster's storage. /opt is left out of
/// the report too: images install software there.
constexpr std::array kNodeDirectories = {
    "bin"sv,       "boot"sv,   "dev"sv,         "etc"sv,       "lib"sv,  "lib32"sv,
    "lib64"sv,     "libx32"sv, "opt"sv,         "proc"sv,      "root"sv, "run"sv,
    "sbin"sv,      "sys"sv,    "tmp"sv,         "usr"sv,       "var"sv,  "Volumes"sv,
    "Workspace"sv, "dbfs"sv,   "local_disk0"sv, "databricks"sv};

/// Programs whose arguments are not the node's paths: messages and patterns
/// (echo, sed, ...), container engines' own options (their mounts are
/// reported by the container rules; the command of a singularity call,
/// which runs on the node once unwrapped, is read), and commands other rules
/// report with their paths (pip install -r FILE, module use DIR).
constexpr std::array kSkippedPrograms = {
    "echo"sv,    "printf"sv,      "sed"sv,       "awk"sv,           "gawk"sv,    "mawk"sv,
    "grep"sv,    "egrep"sv,       "fgrep"sv,     "perl"sv,          "tr"sv,      "expr"sv,
    "logger"sv,  "singularity"sv, "apptainer"sv, "docker"sv,        "podman"sv,  "enroot"sv,
    "shifter"sv, "ch-run"sv,      "pip"sv,       "nvidia-docker"sv, "nerdctl"sv, "sarus"sv,
    "pip3"sv,    "module"sv,      "ml"sv,        "conda"sv,         "mamba"sv,   "micromamba"sv,
    "udocker"sv, "podman-hpc"sv};

/// kSkippedPrograms, hashed: asked of most commands that name a path.
bool is_skipped_program(std::string_view program) {
  static const std::unordered_set<std::string_view> skipped(kSkippedPrograms.begin(),
                                                            kSkippedPrograms.end());
  return skipped.contains(program);
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-' || c == '.';
}

/// $HOME (or ${HOME}) where a path starts reads as "~"; any other expansion
/// ends the text a path is read from.
std::optional<std::string_view> home_as_tilde(const ast::WordPart& part, std::string_view so_far) {
  const bool path_start = so_far.empty() || so_far.back() == '=' || so_far.back() == ':';
  if (path_start && part.kind == ast::PartKind::param && part.text == "HOME" && part.op.empty()) {
    return "~";
  }
  return std::nullopt;
}

/// `..` or `../x`: a relative path that climbs out of the current directory.
bool is_parent_relative(std::string_view path) { return path == ".." || path.starts_with("../"); }

/// TensorFlow's device names (`/gpu:0`, `/device:CPU:0`, `/job:worker/task:1`)
/// start with `/` and are no paths.
bool is_device_name(std::string_view text) {
  const size_t colon = text.find(':');
  // `/scratch:/scratch` is a bind mount.
  if (!text.starts_with('/') || colon == std::string_view::npos || colon + 1 == text.size() ||
      text[colon + 1] == '/') {
    return false;
  }
  const std::string top = ascii_lower(text.substr(1, colon - 1));
  return contains({"gpu", "cpu", "tpu", "device", "job", "replica", "task", "xla_gpu", "xla_cpu"},
                  top);
}

/// A container image file (`/apps/train.sif`): the container call that runs
/// it reports it as the workload's image (S2A5006, S2A5007), whose fix is a
/// registry, not a volume.
bool is_image_file(std::string_view path) {
  return path.ends_with(".sif") || path.ends_with(".simg") || path.ends_with(".sqsh") ||
         path.ends_with(".squashfs");
}

/// The path a word's text starts with, or names after `=` (`--data=/x`,
/// `DATA=/x`): up to the first `:` or `,` (lists such as PATH). A path with
/// blanks is a message, not a path.
std::optional<std::string_view> path_in(std::string_view text) {
  const auto starts_path = [](std::string_view t) {
    return t.starts_with('/') || t.starts_with('~') || is_parent_relative(t);
  };
  if (!starts_path(text)) {
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    text.remove_prefix(eq + 1);
  }
  if (is_device_name(text)) return std::nullopt;
  text = text.substr(0, std::min(text.find(':'), text.find(',')));
  const bool blank = std::any_of(text.begin(), text.end(),
                                 [](char c) { return c == ' ' || c == '\t' || c == '\n'; });
  if (!starts_path(text) || blank || is_image_file(text)) return std::nullopt;
  return text;
}

/// Before any folding, on the word as written: a path needs a `/`, a `~`,
/// $HOME or `..`. Most words of a script have none.
bool may_name_path(std::string_view written) {
  return written.find('/') != std::string_view::npos ||
         written.find('~') != std::string_view::npos ||
         written.find("HOME") != std::string_view::npos ||
         written.find("..") != std::string_view::npos;
}

class Finder {
 public:
  Finder(const slurm::Body& body, std::vector<ClusterPath>& out) : body_(body), out_(out) {}

  void visit(const slurm::Site& site) {
    const ast::Command& command = *site.command;
    if (!may_name_path(text_of(site.view, command.span))) return;  // most commands
    // A container variable (SINGULARITYENV_X) holds a path inside the image.
    for (const ast::Assignment& a : command.assignments) {
      // `X+=/sub` appends to X's value: not a path of its own.
      if (!a.is_array && !a.append && container_variable_target(a.name).empty()) {
        add(site, a.value, PathUse::argument, true);
      }
    }
    for (const ast::Redirect& r : command.redirects) {
      if (r.op == "<" || r.op == ">" || r.op == ">>" || r.op == "&>" || r.op == "&>>" ||
          r.op == "<>" || r.op == ">|") {
        add(site, r.target, PathUse::argument, false);
      }
    }
    if (command.words.empty()) return;
    // `srun sudo docker run ...`, `timeout 2h singularity exec ...`: the call
    // behind wrappers is unwrapped alike (container_step_start()).
    if (const size_t start = slurm::container_step_start(site);
        start > 0 && start < command.words.size() &&
        slurm::is_container_program(slurm::program_name(command.words[start]))) {
      visit_unwrapped_container(site, start);
      return;
    }
    if (is_skipped_program(site.program)) {
      if (slurm::is_container_program(site.program)) visit_unwrapped_container(site, 0);
      return;
    }
    const bool declaration = slurm::is_declaration_builtin(site.program);
    const std::string_view program = site.program;
    const bool cd = program == "cd" || program == "pushd";
    const bool source = program == "source" || program == ".";
    // srun's own options are reported with srun; its command is read here.
    const size_t first = program == "srun"             ? site.srun_operand
                         : declaration || cd || source ? 1
                                                       : 0;
    if (first >= command.words.size() || runs_pip(command, first)) return;
    if (first > 0 && program == "srun" &&
        is_skipped_program(slurm::program_name(command.words[first]))) {
      // srun singularity exec ..., srun docker run ...
      if (slurm::is_container_program(slurm::program_name(command.words[first]))) {
        visit_unwrapped_container(site, first);
      }
      return;
    }
    visit_words(site, first, cd, source, declaration);
  }

  /// `singularity exec [OPTIONS] IMAGE CMD...` (and `docker run ...`) is
  /// unwrapped (air/setup.cpp): CMD runs on the node now, and the cluster
  /// paths singularity bound by itself ($HOME, the site's /scratch), or the
  /// image's own, are read there. Paths under the
  /// call's own -B/--bind targets are dropped here: S2A5008 reports them.
  void visit_unwrapped_container(const slurm::Site& site, size_t start) {
    const auto& words = site.command->words;
    const std::optional<slurm::ContainerCall> call = slurm::find_container_call(
        words, start, body_.views[site.view].text, body_.container_options_of(site));
    if (!call || call->image + 1 >= words.size()) return;
    const size_t before = out_.size();
    visit_words(site, call->image + 1, false, false, false);
    // Paths under the call's own mounts are reported with them (S2A5008).
    const std::vector<std::string> targets = bind_targets(*call);
    const auto mounted = [&](const ClusterPath& p) {
      return std::any_of(targets.begin(), targets.end(),
                         [&](const std::string& target) { return is_under(p.path, target); });
    };
    out_.erase(
        std::remove_if(out_.begin() + static_cast<std::ptrdiff_t>(before), out_.end(), mounted),
        out_.end());
    for (size_t i = before; i < out_.size(); ++i) {
      out_[i].in_container = true;
      out_[i].bound_by_engine = call->engine == slurm::ContainerEngine::singularity;
    }
  }

  /// `-B /scratch/u:/data,/datasets`: /data and /datasets, where the
  /// container sees the bound directories.
  static std::vector<std::string> bind_targets(const slurm::ContainerCall& call) {
    std::vector<std::string> targets;
    for (const slurm::ContainerOption& option : call.options) {
      if (!slurm::is_mount_option(call, option) || !option.value) continue;
      std::vector<std::string> mounts;
      slurm::split_container_mounts(call, option, *option.value, mounts);
      for (std::string_view item : mounts) {
        const size_t colon = item.find(':');
        std::string_view target = colon == std::string_view::npos ? item : item.substr(colon + 1);
        target = target.substr(0, target.find(':'));
        while (target.size() > 1 && target.back() == '/') target.remove_suffix(1);
        if (!target.empty()) targets.emplace_back(target);
      }
    }
    return targets;
  }

  void visit_words(const slurm::Site& site, size_t first, bool cd, bool source, bool declaration) {
    const ast::Command& command = *site.command;
    bool target_seen = false;
    for (size_t i = first; i < command.words.size(); ++i) {
      const ast::Word& word = command.words[i];
      PathUse use = PathUse::argument;
      if ((cd || source) && !target_seen && !is_option(word)) {
        target_seen = true;
        use = cd ? PathUse::change_directory : PathUse::source_file;
      }
      if (declaration && is_container_variable_assignment(word)) continue;
      add(site, word, use, declaration);
    }
  }

  /// After a `cd` elsewhere, `..` may be inside the code again: from there on
  /// relative paths are not judged (walk order, so a cd in a function or a
  /// subshell counts too: fewer reports rather than wrong ones).
  void note_directory_change(const slurm::Site& site) {
    const ast::Command& command = *site.command;
    const std::string_view program = site.program;
    if (program != "cd" && program != "pushd" && program != "popd") return;
    const bool home = command.words.size() < 2;  // `cd` alone goes home
    if (home || under_job_directory(text_of(site.view, command.words[1].span)) != "") {
      left_code_root_ = true;
    }
  }

 private:
  /// `python -m pip ...` (also under srun).
  static bool runs_pip(const ast::Command& command, size_t first) {
    const auto& words = command.words;
    return first + 2 < words.size() && slurm::literal_is(words[first + 1], "-m") &&
           slurm::literal_is(words[first + 2], "pip");
  }

  /// `SINGULARITYENV_X=...` as a word of export/declare.
  static bool is_container_variable_assignment(const ast::Word& word) {
    std::string storage;
    const std::string_view head = slurm::literal_prefix(word, storage);
    const size_t eq = head.find('=');
    return eq != std::string_view::npos && !container_variable_target(head.substr(0, eq)).empty();
  }

  static bool is_option(const ast::Word& word) {
    return !word.parts.empty() && word.parts[0].kind == ast::PartKind::literal &&
           word.parts[0].text.starts_with('-');
  }

  void add(const slurm::Site& site, const ast::Word& word, PathUse use, bool assignment) {
    const std::string_view written = text_of(site.view, word.span);
    if (!may_name_path(written)) return;
    const std::optional<std::string_view> path =
        path_in(slurm::literal_prefix(word, storage_, home_as_tilde));
    if (!path) return;
    std::optional<std::string> root = is_parent_relative(*path) && !left_code_root_
                                          ? std::optional<std::string>("..")
                                          : cluster_storage_root(*path);
    if (!root) return;
    out_.push_back({site.view, word.span, site.program, written, std::string(*path),
                    std::move(*root), use, assignment, false, false, &site});
  }

  std::string_view text_of(uint32_t view, Span span) const {
    return body_.views[view].text.substr(span.begin, span.size());
  }

  const slurm::Body& body_;
  std::string storage_;
  std::vector<ClusterPath>& out_;
  bool left_code_root_ = false;
};

}  // namespace

std::optional<std::string> under_job_directory(std::string_view path) {
  const std::string directory = directory_text(path);
  const std::string_view rest = directory;
  for (std::string_view root :
       {"$SLURM_SUBMIT_DIR"sv, "$CODE_SOURCE_PATH"sv, "$PWD"sv, "$(pwd)"sv, "`pwd`"sv, "."sv}) {
    if (rest == root) return "";
    if (!rest.starts_with(root) || rest[root.size()] != '/') continue;
    const std::string_view sub = rest.substr(root.size() + 1);
    if (sub.empty() || sub.starts_with('.') || sub.find('$') != std::string_view::npos) break;
    return std::string(sub);
  }
  return std::nullopt;
}

std::optional<std::string> cluster_storage_root(std::string_view path) {
  if (path.starts_with('~')) {
    const size_t slash = path.find('/');
    const std::string_view user = path.substr(1, slash - 1);
    if (!std::all_of(user.begin(), user.end(), is_name_char)) return std::nullopt;
    // `~bob` alone is as often a spack variant (`+mpi ~openmp`) as a home.
    if (!user.empty() && slash == std::string_view::npos) return std::nullopt;
    return "~" + std::string(user);
  }
  if (!path.starts_with('/')) return std::nullopt;
  const size_t begin = path.find_first_not_of('/');
  if (begin == std::string_view::npos) return std::nullopt;
  const std::string_view top = path.substr(begin, path.find('/', begin) - begin);
  if (contains(kNodeDirectories, top) || top == "." || top == "..") return std::nullopt;
  // A regular expression or an odd word (`/^x/`), not a directory name.
  if (!std::all_of(top.begin(), top.end(), is_name_char)) return std::nullopt;
  return "/" + std::string(top);
}

bool is_under(std::string_view path, std::string_view directory) {
  return path.starts_with(directory) &&
         (path.size() == directory.size() || path[directory.size()] == '/');
}

std::vector<ClusterPath> find_cluster_paths(const slurm::Body& body,
                                            const std::vector<std::string>& mount_targets) {
  std::vector<ClusterPath> out;
  Finder finder(body, out);
  for (const slurm::Site& site : body.sites) {
    finder.visit(site);
    finder.note_directory_change(site);
  }
  std::erase_if(out, [&](const ClusterPath& p) {
    return std::any_of(mount_targets.begin(), mount_targets.end(),
                       [&](const std::string& target) { return is_under(p.path, target); });
  });
  return out;
}

namespace {

/// Where a root is and why the node does not have it, for the messages.
struct Whereabouts {
  std::string where;  // "on the cluster's storage (/scratch)"
  std::string why;    // ", which AI Runtime nodes do not mount"
  Code code = Code::cluster_path;
};

Whereabouts whereabouts(const std::string& root) {
  if (root == "..") {
    return {"above the code root",
            " (only code_source.root_path is uploaded, to $CODE_SOURCE_PATH)",
            Code::path_above_code_root};
  }
  const std::string where = root.starts_with('~') ? "in the cluster home directory (" + root + ")"
                                                  : "on the cluster's storage (" + root + ")";
  return {where, ", which AI Runtime nodes do not mount", Code::cluster_path};
}

const std::string kVolumes = "a Unity Catalog volume (/Volumes/<catalog>/<schema>/<volume>/...)";

/// Above the code root, the fix is a wider upload rather than a volume.
std::string hint_for(const ClusterPath& p) {
  if (p.root == "..") {
    return "point code_source.root_path (code_root in the site profile) at a directory that "
           "contains this path too, and cd from $CODE_SOURCE_PATH to where the command expects "
           "to start; or move the files under the code root. Data belongs in " +
           kVolumes;
  }
  switch (p.use) {
    case PathUse::change_directory:
      return std::string(p.removed ? "if this was the code directory, point "
                                   : "if this is the code directory, remove the cd and point ") +
             "code_source.root_path at it; for data, use " + kVolumes;
    case PathUse::source_file:
      return "put the file under code_source.root_path and source it from "
             "\"$CODE_SOURCE_PATH/...\", or do what it sets up in the command";
    case PathUse::argument:
      break;
  }
  return "keep inputs and outputs in " + kVolumes +
         ", and code under code_source.root_path ($CODE_SOURCE_PATH)";
}

}  // namespace

namespace {

/// `cd DIR` as a command of the script's own text: a cd in a step's
/// `bash -c '...'` goes with the rewrite of the step, so it stays reported.
bool is_plain_cd(const ClusterPath& p) {
  if (p.use != PathUse::change_directory || p.program != "cd" || p.root == ".." || p.in_container ||
      p.view != 0 || p.site == nullptr || p.site->context.in_substitution) {
    return false;
  }
  // `cd DIR` with DIR last: `cd DIR extra` is an error bash reports itself.
  const auto& words = p.site->command->words;
  return words.back().span == p.span;
}

}  // namespace

std::vector<size_t> cds_to_remove(const std::vector<ClusterPath>& paths) {
  std::vector<size_t> cds;
  for (size_t i = 0; i < paths.size(); ++i) {
    if (is_plain_cd(paths[i])) cds.push_back(i);
  }
  if (cds.empty()) return cds;
  // The directories the script names other than by cd, sorted once: those
  // under DIR then lie together, from DIR itself and from "DIR/", so each cd
  // is two binary searches rather than a pass over every path.
  std::vector<std::string> named;
  for (const ClusterPath& p : paths) {
    if (p.use != PathUse::change_directory) named.push_back(directory_text(p.written));
  }
  std::sort(named.begin(), named.end());
  const auto names = [&](const std::string& text, bool prefix) {
    const auto at = std::lower_bound(named.begin(), named.end(), text);
    return at != named.end() && (prefix ? at->starts_with(text) : *at == text);
  };
  std::erase_if(cds, [&](size_t cd) {
    const std::string directory = directory_text(paths[cd].written);
    return names(directory, false) || names(directory + "/", true);
  });
  return cds;
}

std::vector<ClusterPathReport> describe_cluster_paths(const std::vector<ClusterPath>& paths) {
  // Other uses are reported once per root, at the first, with their count.
  std::vector<std::pair<std::string_view, size_t>> uses;
  for (const ClusterPath& p : paths) {
    if (p.use != PathUse::argument) continue;
    auto it =
        std::find_if(uses.begin(), uses.end(), [&](const auto& u) { return u.first == p.root; });
    if (it == uses.end()) {
      uses.emplace_back(p.root, 1);
    } else {
      ++it->second;
    }
  }
  std::vector<ClusterPathReport> out;
  for (const ClusterPath& p : paths) {
    // Most uses are a root's later ones, counted at its first: no message is
    // built for them.
    size_t count = 0;
    if (p.use == PathUse::argument) {
      auto it =
          std::find_if(uses.begin(), uses.end(), [&](const auto& u) { return u.first == p.root; });
      if (it->second == 0) continue;  // reported at its first use
      count = std::exchange(it->second, 0);
    }
    Whereabouts at = whereabouts(p.root);
    if (p.in_container && p.root != "..") {
      // Singularity bound the cluster's storage in itself, or the image had it;
      // docker binds nothing it is not told to, so the path was the image's.
      at.where = p.bound_by_engine
                     ? "that the container's command read from the cluster's storage (" + p.root +
                           "), which singularity bound in, or from its image"
                     : "that the container's command read from its image (" + p.root + ")";
      at.why = p.bound_by_engine
                   ? ", neither of which an AI Runtime node has once the container is removed"
                   : ", which an AI Runtime node does not have once the container is removed";
    }
    const auto command = [&] {
      return "`" + std::string(p.program) + " " + std::string(p.written) + "`";
    };
    switch (p.use) {
      case PathUse::change_directory:
        out.push_back({p.view, p.span,
                       command() + ": the directory is " + at.where + at.why +
                           (p.removed        ? "; the cd would fail there, so it is removed and "
                                               "what follows runs in $CODE_SOURCE_PATH, the "
                                               "uploaded code_source.root_path"
                            : p.root == ".." ? ""
                                             : "; the command starts in $CODE_SOURCE_PATH, the "
                                               "uploaded code_source.root_path"),
                       hint_for(p), at.code});
        break;
      case PathUse::source_file:
        out.push_back({p.view, p.span, command() + ": the file is " + at.where + at.why,
                       hint_for(p), at.code});
        break;
      case PathUse::argument: {
        out.push_back(
            {p.view, p.span,
             "`" + std::string(p.written) + "` names a path " + at.where + at.why +
                 ": reads find nothing there and what is written there is lost when "
                 "the run ends" +
                 (count > 1
                      ? " (" + (p.root == ".." ? "paths above it are" : p.root + " is") + " used " +
                            std::to_string(count - 1) + " more time(s) in the script)"
                      : ""),
             hint_for(p), at.code});
        break;
      }
    }
  }
  return out;
}

}  // namespace s2a::air
