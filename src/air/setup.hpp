// Environment setup, variables and credentials in the script body.
//
// `module load`, conda/venv activation, `pip install` and `spack load` are
// how a cluster builds its software stack; AI Runtime builds it from
// `environment`. Literal exports become env_variables, credentials become
// secret references, container wrappers (singularity exec IMAGE ...) are
// unwrapped. The command mapper (command.cpp) calls in here at fixed points
// and lends its edit log through CommandEditor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "air/container_call.hpp"
#include "air/workload.hpp"
#include "diag/diagnostic.hpp"
#include "profile/profile.hpp"
#include "slurm/body.hpp"

namespace s2a::air {

struct SetupOptions {
  std::string secret_scope = "slurm2air";
  const profile::Profile* profile = nullptr;  // module and conda mappings (may be null)
  bool custom_image = false;  // an image replaces environment: pip installs stay in the command
  // Where container mounts put cluster directories under another name
  // (/workspace for `--bind /scratch/u:/workspace`): paths there are the
  // mount's, reported with it (S2A5008), not as the cluster's storage.
  std::vector<std::string> mount_targets;
  // SINGULARITYENV_X/APPTAINERENV_X the script exports: an unwrapped
  // container command still gets X.
  std::vector<std::string> container_variables;
};

/// How the report of a removal rule says the line goes. remove_statement()
/// puts what happens instead in its place when the command is one stage of
/// a pipeline (the pipeline goes whole, or the stage alone is replaced).
inline constexpr std::string_view kLineRemoved = "the line is removed";
/// The same after the program's name: "`conda` does not exist on AI Runtime
/// nodes and is removed".
inline constexpr std::string_view kAndIsRemoved = " and is removed";

/// What the command mapper lends to the setup rules: its edits and reports.
class CommandEditor {
 public:
  virtual ~CommandEditor() = default;
  /// Takes a statement out of the command; `shown` replaces the source text
  /// in the comment left behind (used for lines holding a secret). The
  /// reports the rule made for the command just before say kLineRemoved
  /// or kAndIsRemoved (or nothing) about its fate; for a pipeline stage they are restated.
  virtual void remove_statement(const slurm::Site& site, std::string reason,
                                std::string_view shown) = 0;
  virtual void replace(uint32_t view, Span span, std::string replacement, std::string reason) = 0;
  virtual void edit(uint32_t view, Span span, std::string replacement, std::string reason) = 0;
  [[nodiscard]] virtual Span file_span(uint32_t view, Span span) const = 0;
  [[nodiscard]] virtual std::string_view source(uint32_t view, Span span) const = 0;
  virtual void report(Code code, uint32_t view, Span span, std::string message,
                      std::string hint) = 0;
};

/// One assignment a statement makes: `A=1 B=2` alone, or `export A=1 ...`.
struct Assignment {
  std::string name;
  std::optional<std::string> literal;  // the value when it has no expansions
  Span value_span;
  bool exported = false;
};

/// How many commands of the script assign or unset each variable
/// (`NAME=`, `export`/`declare`/`local`, `unset`, `read`, `for NAME`, ...).
[[nodiscard]] std::unordered_map<std::string_view, int> count_variable_writes(
    const slurm::Body& body);

/// The assignments of a statement that only assigns (`A=1`, `export A=1 B`).
[[nodiscard]] std::vector<Assignment> assignments_of(const ast::Command& command,
                                                     const slurm::Site& site,
                                                     std::string_view view_text);

/// Module systems and package managers whose loads report_module() reads:
/// module, ml, spack, VALET's vpkg_*.
[[nodiscard]] bool is_module_tool(std::string_view program);
/// A setup tool AI Runtime nodes do not have: a module tool or conda's family.
[[nodiscard]] bool is_setup_tool(std::string_view program);

/// Programs that set up a cluster software environment (module, ml, spack,
/// conda, mamba, micromamba, source .../activate).
[[nodiscard]] bool is_setup_command(const ast::Command& command, const std::string& program,
                                    std::string_view view_text);

/// Values that look like a credential whatever their name (hf_..., sk-..., ghp_..., AKIA...).
[[nodiscard]] bool looks_like_token(std::string_view value);

struct SetupResult {
  std::vector<std::string> dependencies;  // pip requirement specs, in script order
  std::vector<NamedValue> env_variables;
  std::vector<NamedValue> secrets;  // value is scope/key
  std::vector<Span> redactions;     // secret bytes in the file
};

class SetupMapper {
 public:
  SetupMapper(CommandEditor& editor, const slurm::Body& body, const SetupOptions& options,
              SetupResult& result)
      : editor_(editor), body_(body), options_(options), result_(result) {}

  /// Pass 1: a setup command is removed (and mapped to dependencies where it
  /// can be); true when the statement was handled.
  bool map_setup_command(const slurm::Site& site);
  /// Pass 1: assignments not provided by AI Runtime: literal exports at the
  /// top move to env_variables, credentials become secrets.
  void move_exports_to_env(const slurm::Site& site, const std::vector<Assignment>& assignments,
                           bool after_first_launch);
  /// Pass 2: credentials written on a command line (`--token X`, URLs with
  /// a password, `wandb login KEY`, `echo X | docker login --password-stdin`).
  void hide_inline_secrets(const slurm::Site& site);
  /// `echo KEY | docker login --password-stdin` removed whole: the key is
  /// needed nowhere, so it is masked and reported, with no secret made.
  void report_credential_removed_with_pipeline(const slurm::Site& feeder);
  /// Tokens in the comments the command keeps (`# export HF_TOKEN=hf_...`):
  /// masked wherever the translation prints them, and reported.
  void redact_tokens_in_comments();
  /// Pass 1: `eval $(spack load --sh X)` (or `module`, `conda`): the shell
  /// code a setup tool prints, evaluated; removed and reported as the tool's
  /// own command would be.
  void map_evaluated_setup(const slurm::Site& eval, const slurm::Site& tool);
  /// Pass 2: `singularity exec [--nv] [-B ..] IMAGE CMD` runs CMD directly.
  void unwrap_container(const slurm::Site& site);
  /// Pass 1: `PY="singularity exec IMG python"` (later `$PY t.py`): the
  /// call leaves the value, so the command it holds runs directly; true when
  /// one did (the assignment then stays where it is).
  bool unwrap_held_containers(const slurm::Site& site);
  /// Pass 2: `conda run -n ENV CMD` (mamba, micromamba) runs CMD directly.
  void unwrap_conda_run(const slurm::Site& site);

 private:
  bool map_pip_install(const slurm::Site& site);
  void report_container_without_command(const slurm::Site& site, size_t start,
                                        const ContainerCall& call);
  bool add_env_option_items(const slurm::Site& site, const ContainerOption& option, bool list,
                            std::vector<std::string>& env_items, std::vector<std::string>& passed);
  /// One variable a container call gave its command: new text, or a
  /// computed `NAME=$X` kept where it is written (`written`), so the
  /// rewrites of the rest of the command ($SLURM_NNODES -> $NUM_NODES) reach
  /// it. `after` replaces what follows a kept value up to the next one: the
  /// comma of `--env "A=$X,B=$Y"` becomes `" "`.
  struct CarriedVariable {
    std::string text;
    Span written;
    std::string_view after = " ";
  };
  std::vector<CarriedVariable> container_environment(const slurm::Site& site,
                                                     const ContainerCall& call);
  std::vector<CarriedVariable> docker_environment(const slurm::Site& site,
                                                  const ContainerCall& call);
  /// A written `NAME=...` the command must not be given (AI Runtime's own
  /// variable, Slurm's GPU list) or that passed the script's own NAME, which
  /// the command now sees by itself: reported, and true. `shown` is what the
  /// report quotes.
  bool settle_container_variable(const slurm::Site& site, Span value, Span shown,
                                 std::vector<std::string>& passed);
  /// A computed singularity/apptainer `--env A=$X,B=1` (a `list`) or
  /// docker `-e A=$X` kept where it is written, item by item; false (nothing
  /// done) when it cannot be.
  bool carry_computed_env(const slurm::Site& site, const ContainerOption& option, bool list,
                          std::vector<CarriedVariable>& carried, std::vector<std::string>& passed);
  /// Replaces `prefix` (the call up to the command) with the carried
  /// variables, `env` first when `through_env`.
  void write_container_environment(const slurm::Site& site, Span prefix,
                                   const std::vector<CarriedVariable>& carried, bool through_env);
  void report_docker_workdir(const slurm::Site& site, const ContainerCall& call,
                             const ContainerOption& option);
  void report_dropped_container_option(const slurm::Site& site, const ContainerOption& option);
  void report_replaced_search_paths(const slurm::Site& site,
                                    const std::vector<Assignment>& assignments);
  void report_preloaded_node_libraries(const slurm::Site& site,
                                       const std::vector<Assignment>& assignments);
  void unwrap_shifter(const slurm::Site& site, size_t start);
  [[nodiscard]] std::string shifter_variable(const slurm::Site& site,
                                             const ContainerOption& option) const;
  /// `engine`: the program of the command's words[start]; `runner`, when
  /// below the word count, the job's script that starts it (`wrap.sh
  /// singularity exec ...`).
  void report_container_engine(const slurm::Site& site, size_t start, std::string_view engine,
                               size_t runner = SIZE_MAX);
  /// `srun scripts/env.sh singularity exec IMG cmd`: a container call given
  /// to a script of the job's (at words[start], whose program is `program`)
  /// as its arguments.
  void report_engine_behind_script(const slurm::Site& site, size_t start, std::string_view program);
  /// ` (`IMAGE`)`, the image word of the container call at words[start] as
  /// written; empty when the call is not read.
  [[nodiscard]] std::string image_named(const slurm::Site& site, size_t start) const;
  /// `python3 -m venv env` / `virtualenv env` of an environment the script
  /// activates: removed with the activation; true when it was.
  bool remove_environment_creation(const slurm::Site& site);
  bool remove_container_image_step(const slurm::Site& site);
  /// `docker pull|build|rm|...` at words[start] (engine: its program),
  /// removed like singularity's pull; false for any other command.
  bool remove_docker_image_step(const slurm::Site& site, size_t start, std::string_view engine);
  bool remove_user_space_image_step(const slurm::Site& site, size_t start, std::string_view engine);
  /// The line that creates the environment in `dir`, or nullptr.
  const slurm::Site* creation_of(std::string_view dir);
  /// `source DIR/bin/activate` (the word `target`) of an environment the
  /// script creates.
  bool activates_created_environment(std::string_view target);
  /// `program`: the program of the command's words[start].
  void report_foreign_program(const slurm::Site& site, size_t start, std::string_view program);
  void report_unset_search_paths(const slurm::Site& site);
  /// (package, module as written) of the unmapped module whose program this is.
  [[nodiscard]] const std::pair<std::string, std::string>* unmapped_module_of(
      std::string_view program) const;
  /// The site profile's requirements file for conda environment `env`,
  /// added to the dependencies; nullptr when the profile does not map it.
  const std::string* add_conda_environment(const std::string& env);
  void report_conda_activation(const slurm::Site& site, const std::string& env);
  void report_module(const slurm::Site& site);
  std::string add_secret(const slurm::Site& site, std::string name, Span value_in_view);
  void add_env_or_secret(const slurm::Site& site, const Assignment& a);
  [[nodiscard]] bool top_level(const slurm::Site& site) const;
  /// The directory a top-level command runs in, relative to the code root
  /// ("" for the root), as the `cd`s before it leave it; when one of them
  /// goes somewhere unknown (a variable, a cluster path, a cd in a loop),
  /// `relative` is empty and `unknown_cd` is that cd.
  struct WorkingDirectory {
    std::optional<std::string> relative = std::string();
    const slurm::Site* unknown_cd = nullptr;
  };
  [[nodiscard]] WorkingDirectory working_directory_at(const slurm::Site& site);
  /// The working directory after each top-level cd, pushd or popd (where it
  /// starts, what it leaves), in order; the first that goes somewhere
  /// unknown is the last.
  [[nodiscard]] std::vector<std::pair<uint32_t, WorkingDirectory>> directory_changes() const;
  [[nodiscard]] std::string secret_reference(const std::string& name) const;
  size_t hide_option_secret(const slurm::Site& site, size_t i, std::string_view arg);
  [[nodiscard]] const ast::Word* piped_password(const slurm::Site& site) const;
  void hide_secret_in_value(const slurm::Site& site, const ast::Word& word, std::string_view arg);
  void hide_assigned_secret(const slurm::Site& site, const ast::Word& word, std::string_view arg);
  void replace_word_with_secret(const slurm::Site& site, const ast::Word& word,
                                std::string_view literal, size_t begin, size_t end,
                                const std::string& name);

  CommandEditor& editor_;
  const slurm::Body& body_;
  const SetupOptions& options_;
  SetupResult& result_;
  /// Where the first `source FILE` that stays in the command starts: an
  /// export after it moved up front would lose to a value FILE sets.
  uint32_t first_kept_source();

  std::optional<std::unordered_map<std::string_view, int>> variable_writes_;  // when first asked
  std::optional<uint32_t> first_kept_source_;                                 // when first asked
  std::optional<std::vector<std::pair<uint32_t, WorkingDirectory>>> directory_changes_;  // same
  std::optional<std::string> kept_pip_install_;  // the first `pip install` left in the command
  std::vector<std::string> foreign_runtimes_reported_;  // "R", "MATLAB": once each
  // (package, module as written) of the modules with no known mapping.
  std::vector<std::pair<std::string, std::string>> unmapped_modules_;
  struct CreatedEnvironment {
    std::string dir;  // as written, without quotes, `./` or a trailing `/`
    const slurm::Site* site = nullptr;
  };
  std::optional<std::vector<CreatedEnvironment>> created_environments_;  // when first asked
};

}  // namespace s2a::air
