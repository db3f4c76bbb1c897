#include "air/jax_job.hpp"

#include <algorithm>

#include "air/setup.hpp"
#include "slurm/container_call.hpp"
#include "source/ascii.hpp"

namespace s2a::air {
namespace {

using namespace std::string_view_literals;

std::string_view word_text(const slurm::Body& body, const slurm::Site& site,
                           const ast::Word& word) {
  const std::string_view text = body.views[site.view].text;
  return word.span.end <= text.size() ? text.substr(word.span.begin, word.span.size())
                                      : std::string_view{};
}

/// `XLA_FLAGS=...`, `export XLA_PYTHON_CLIENT_MEM_FRACTION=.9`,
/// `JAX_PLATFORMS=cuda python t.py`: settings only JAX reads.
bool sets_jax_variable(const slurm::Body& body, const slurm::Site& site) {
  const auto is_jax_name = [](std::string_view name) {
    return name.starts_with("XLA_") || name.starts_with("JAX_");
  };
  const ast::Command& command = *site.command;
  if (std::any_of(command.assignments.begin(), command.assignments.end(),
                  [&](const ast::Assignment& a) { return is_jax_name(a.name); })) {
    return true;
  }
  if (site.program != "export"sv && site.program != "declare"sv && site.program != "typeset"sv) {
    return false;
  }
  const auto assignments = assignments_of(command, site, body.views[site.view].text);
  return std::any_of(assignments.begin(), assignments.end(),
                     [&](const Assignment& a) { return is_jax_name(a.name); });
}

/// pip (also `python -m pip`, `uv pip`), conda's family and the module
/// tools: their arguments name packages, environments and modules.
bool names_packages(const slurm::Site& site) {
  const std::string_view program = site.program;
  if (is_setup_tool(program) || program == "pip"sv || program == "pip3"sv || program == "uv"sv) {
    return true;
  }
  const auto& words = site.command->words;
  return program.starts_with("python") && words.size() > 2 &&
         slurm::literal_value(words[1]) == "-m" && slurm::literal_value(words[2]) == "pip";
}

/// The words before the program a step or container call runs: srun's
/// options (`--container-image=nvcr.io#nvidia/jax:24.04`), the container's
/// image (`singularity exec jax.sif python t.py`, `shifter --image=...`).
/// The program's own words (its file name) are not among them.
size_t program_position(const slurm::Body& body, const slurm::Site& site) {
  if (site.launcher.kind != slurm::Launcher::none) return site.launcher.program_word;
  if (site.nested_script < 0) return 0;
  const Span script = body.nested[static_cast<size_t>(site.nested_script)]->word;
  const auto& words = site.command->words;
  size_t i = 0;
  while (i < words.size() && words[i].span.begin < script.begin) ++i;
  return i;
}

bool site_names_jax(const slurm::Body& body, const slurm::Site& site) {
  if (sets_jax_variable(body, site)) return true;
  const auto& words = site.command->words;
  size_t end = 0;
  if (names_packages(site) || site.program == "source"sv || site.program == "."sv) {
    end = words.size();
  } else if (site.program == "srun"sv || slurm::is_container_program(site.program) ||
             site.program == "shifter"sv) {
    end = program_position(body, site);
  }
  for (size_t i = 1; i < end && i < words.size(); ++i) {
    if (names_jax(word_text(body, site, words[i]))) return true;
  }
  return false;
}

}  // namespace

bool names_jax(std::string_view word) {
  size_t from = 0;
  while (from < word.size()) {
    size_t end = word.find_first_of("/=#", from);
    if (end == std::string_view::npos) end = word.size();
    std::string_view part = word.substr(from, end - from);
    while (!part.empty() && (part.front() == '"' || part.front() == '\'')) part.remove_prefix(1);
    if (part.size() >= 3 && ascii_lower(part.substr(0, 3)) == "jax") return true;
    from = end + 1;
  }
  return false;
}

bool job_uses_jax(const slurm::Body& body, const slurm::Job& job) {
  // Most scripts never name it: the whole text (directives included) first.
  const std::string_view text = body.views.empty() ? std::string_view{} : body.views[0].text;
  if (!ascii_contains_ignoring_case(text, "jax") && text.find("XLA_") == std::string_view::npos) {
    return false;
  }
  // `#SBATCH --image=ghcr.io/nvidia/jax:jax` (shifter), --container-image (pyxis), ...
  for (const char* name : {"container-image", "image", "environment", "container"}) {
    const directives::Option* option = job.final_option(name);
    if (option != nullptr && option->value && names_jax(*option->value)) return true;
  }
  return std::any_of(body.sites.begin(), body.sites.end(),
                     [&](const slurm::Site& site) { return site_names_jax(body, site); });
}

}  // namespace s2a::air
