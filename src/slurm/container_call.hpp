// `singularity|apptainer exec|run [OPTIONS] IMAGE CMD...` and `docker|podman|
// nvidia-docker|nerdctl|sarus run [OPTIONS] IMAGE CMD...` (and `podman-hpc
// run|shared-run`) read once: the body
// walk finds the command inside it (a `bash -c` script to parse), the mapping
// rules report its mounts (air/map_workload.cpp) and unwrap it
// (air/setup.cpp).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "grammar/ast.hpp"
#include "parse/parse_script.hpp"

namespace s2a::slurm {

struct ContainerOption {
  size_t word = 0;       // the option word
  size_t last_word = 0;  // the word of its value when separate (`--bind a:b`), else `word`
  std::string name;      // "--bind", "-B", "--env" (without =value)
  bool has_value = false;
  std::optional<std::string> value;  // the value when it has no expansion
  Span value_span;                   // the value as written, in the command's view
};

/// Whose option grammar a call follows: singularity/apptainer's, docker's
/// (podman, podman-hpc, nvidia-docker, nerdctl and sarus `run` read alike), enroot
/// start's or udocker run's. docker, enroot and udocker calls are mapped
/// alike (`-e` variables, mounts, the image's own command); they differ in
/// the options they have.
enum class ContainerEngine : uint8_t { singularity, docker, enroot, udocker };

struct ContainerCall {
  size_t wrapper = 0;  // the `singularity`/`apptainer`/`docker`... word
  bool run = false;    // singularity `run`: the image's runscript receives CMD as its arguments
  std::vector<ContainerOption> options;
  size_t image = 0;  // the image word; == words.size() when the line ends first
  ContainerEngine engine = ContainerEngine::singularity;
};

/// The word that names what the call does: `exec`, `run` (also of `docker
/// container run`, `udocker -q run`), `start`.
[[nodiscard]] size_t container_subcommand(const std::vector<ast::Word>& words,
                                          const ContainerCall& call);

/// Whether `program` may start a call find_container_call() reads:
/// singularity, apptainer, a docker-style engine, enroot or udocker.
[[nodiscard]] bool is_container_program(std::string_view program);

/// Why a `docker run` (podman, ...) at words[start] is not read as a call
/// that can be unwrapped: the word that stops it and what it means
/// ("runs detached", "replaces the image's entrypoint", "is an option not
/// known here"); nullopt when it is no docker-style run or nothing stops it.
struct DockerRunObstacle {
  size_t word = 0;
  std::string_view why;
};
[[nodiscard]] std::optional<DockerRunObstacle> docker_run_obstacle(
    const std::vector<ast::Word>& words, size_t start, std::string_view view_text,
    std::span<const size_t> option_words = {});

/// Whether the option mounts a directory into the container: singularity's
/// -B/--bind/--mount, docker's -v/--volume/--mount.
[[nodiscard]] bool is_mount_option(const ContainerCall& call, const ContainerOption& option);

/// The mounts of one mount option's `value`, as SRC:DST[:FLAGS] (or SRC):
/// singularity's comma-separated list; docker's -v (one mount); a
/// `--mount type=bind,source=SRC,target=DST` as SRC:DST.
void split_container_mounts(const ContainerCall& call, const ContainerOption& option,
                            std::string_view value, std::vector<std::string>& out);
/// A comma-separated mount list (`-B a:b,c`, pyxis `--container-mounts`), each
/// non-empty item appended to `out`.
void split_mount_list(std::string_view value, std::vector<std::string>& out);

/// The call at words[start...], when it is a singularity or apptainer
/// exec/run. Options are the words up to the image that start with a
/// literal `-`, or are among `option_words` (an unquoted `$BIND` whose value
/// is `-B /data:/data`); their values may be computed (`--env=$VARS`).
/// A docker-style `run` (also `docker container run`) is read with docker's
/// grammar, and only when every option is known and none stops the command
/// from being unwrapped (docker_run_obstacle()).
[[nodiscard]] std::optional<ContainerCall> find_container_call(
    const std::vector<ast::Word>& words, size_t start, std::string_view view_text,
    std::span<const size_t> option_words = {});

/// `shifter [OPTIONS] CMD...` (NERSC): getopt_long options, a value in the
/// same word (`--volume=a:b`, `-Va:b`) or the next (`-V a:b`, `--image IMG`),
/// `--` ending them. `program` is CMD's first word (words.size() if none).
struct ShifterCall {
  size_t wrapper = 0;
  std::vector<ContainerOption> options;
  size_t program = 0;
};

/// A singularity/apptainer exec|run call held in a quoted variable value
/// (`PY="singularity exec --nv $SIF python"`, later run as `$PY t.py`): the
/// value's text read as a command, with spans in the file.
struct HeldContainerCall {
  ParseResult parse;
  ContainerCall call;  // indexes words()
  Span inner;          // the value inside its quotes
  [[nodiscard]] const std::vector<ast::Word>& words() const {
    return parse.script.body.items.front().command.words;
  }
};

/// The call held in `value` (a double- or single-quoted word of view 0,
/// whose text is `file_text`; or `NAME=` and such a word, as `export`'s
/// argument), when its text starts with one.
[[nodiscard]] std::optional<HeldContainerCall> find_held_container_call(const ast::Word& value,
                                                                        std::string_view file_text);

/// Calls fn(held, NAME) for each call held in the command's assignments:
/// `PY="singularity exec ..."` and `export PY="..."`.
template <typename Fn>
void for_each_held_container_call(const ast::Command& command, std::string_view file_text,
                                  Fn&& fn) {
  for (const ast::Assignment& a : command.assignments) {
    if (a.is_array) continue;
    if (auto held = find_held_container_call(a.value, file_text)) {
      fn(*held, std::string_view(a.name));
    }
  }
  // Compared as a view: std::string == "..." is an out-of-line compare, and
  // this is asked of nearly every command.
  const bool exports = command.assignments.empty() && !command.words.empty() &&
                       command.words[0].parts.size() == 1 &&
                       command.words[0].parts[0].kind == ast::PartKind::literal &&
                       std::string_view(command.words[0].parts[0].text) == "export";
  if (!exports) return;
  for (size_t i = 1; i < command.words.size(); ++i) {
    const ast::Word& word = command.words[i];
    if (word.parts.size() != 2) continue;
    if (auto held = find_held_container_call(word, file_text)) {
      const std::string_view head = word.parts[0].text;
      fn(*held, head.substr(0, head.size() - 1));
    }
  }
}

/// `singularity|apptainer pull [OPTIONS] [FILE] SOURCE` or `build [OPTIONS]
/// FILE SOURCE`: an image made on the cluster for a later exec/run. `file` is
/// the name the image is saved under (FILE's last path component, `--name`,
/// or pull's default NAME_TAG.sif from SOURCE), empty when computed.
struct ImageFetch {
  bool build = false;
  size_t source = 0;  // the SOURCE word; words.size() when the line ends first
  std::optional<std::string> source_literal;
  std::string file;
};

[[nodiscard]] std::optional<ImageFetch> find_image_fetch(const std::vector<ast::Word>& words,
                                                         size_t start, std::string_view view_text);

/// `singularity|apptainer instance start [OPTIONS] IMAGE NAME`: the call's
/// options and image as exec's, and the NAME word (words.size() if missing)
/// that `exec instance://NAME` uses.
struct InstanceStart {
  ContainerCall call;
  size_t name = 0;
};

[[nodiscard]] std::optional<InstanceStart> find_instance_start(const std::vector<ast::Word>& words,
                                                               size_t start,
                                                               std::string_view view_text);

/// `docker|podman|nvidia-docker|nerdctl SUBCOMMAND ...` that makes or manages
/// images and containers on the cluster: pull, build, rm, rmi, stop, kill,
/// login, logout, tag, push, ps, images (and `image|container|system ...`
/// forms). `lists` for ps and images, whose output a later command may read;
/// `tag` is the name build's -t/--tag gives the image (empty when computed or none).
struct DockerImageStep {
  size_t subcommand = 0;  // the last word of the subcommand (`rm` of `container rm`)
  bool build = false;
  bool pull = false;
  bool login = false;
  bool lists = false;
  std::string tag;
};

[[nodiscard]] std::optional<DockerImageStep> find_docker_image_step(
    const std::vector<ast::Word>& words, size_t start);

/// `enroot import|create|remove|list|version` and `udocker pull|create|
/// setup|rm|rmi|ps|images|install|verify`: lines that make or manage images
/// and containers on the cluster for a later `enroot start` or `udocker
/// run`. `made` is the name that later call uses for what the line made:
/// import's output file (its last path component; enroot's default
/// `IMAGE+TAG.sqsh` when there is no -o), create's container name (enroot's
/// default is the file's name without .sqsh; udocker's is `--name=`), empty
/// when computed or none. `source` is import's URI, create's image or file,
/// pull's image (words.size() when there is none).
struct ContainerImageStep {
  enum class Kind : uint8_t { fetch, create, upkeep };
  Kind kind = Kind::upkeep;
  size_t subcommand = 0;
  size_t source = 0;
  std::string made;
  bool lists = false;  // enroot list, udocker ps|images: a later command may read the output
};

[[nodiscard]] std::optional<ContainerImageStep> find_enroot_step(
    const std::vector<ast::Word>& words, size_t start, std::string_view view_text);
[[nodiscard]] std::optional<ContainerImageStep> find_udocker_step(
    const std::vector<ast::Word>& words, size_t start);

/// The file `enroot import URI` saves when no -o names one:
/// `docker://[USER@][REGISTRY#]IMAGE[:TAG]` -> IMAGE with `/` as `+`, then
/// `+TAG`, then `.sqsh` (enroot's docker.sh); empty for a URI it cannot read.
[[nodiscard]] std::string enroot_default_import_name(std::string_view uri);

/// An enroot URI without its USER@ (`docker://$oauthtoken@nvcr.io#nvidia/x:1`
/// -> `docker://nvcr.io#nvidia/x:1`): the user logs in, it names no image.
[[nodiscard]] std::string without_enroot_user(std::string_view uri);

/// The name by which a later call finds an image the script made, from the
/// word as written: its last path component (`$SCRATCH/x.sqsh` -> `x.sqsh`),
/// or, when that is computed, the variable it is (`"${CONT_FILE}"` ->
/// `$CONT_FILE`: the same variable names the same file); else empty.
[[nodiscard]] std::string made_image_key(std::string_view written);

/// The last path component of an image as written (`"$SCRATCH/x.sif"` ->
/// `x.sif`), quotes removed; empty when that part is computed.
[[nodiscard]] std::string image_file_name(std::string_view written);

[[nodiscard]] std::optional<ShifterCall> find_shifter_call(const std::vector<ast::Word>& words,
                                                           size_t start,
                                                           std::string_view view_text);

}  // namespace s2a::slurm
