#include "air/map_workload.hpp"

#include <algorithm>

#include "air/cluster_paths.hpp"
#include "air/compute.hpp"
#include "air/container_call.hpp"
#include "air/device_variables.hpp"
#include "air/inherited_variables.hpp"
#include "air/job_log_files.hpp"
#include "air/keyword_list.hpp"
#include "air/launch.hpp"
#include "air/script_arguments.hpp"
#include "air/variables.hpp"
#include "source/ascii.hpp"

namespace s2a::air {
namespace {

using namespace std::string_view_literals;

constexpr size_t kMaxExperimentName = 100;  // the Jobs API task_key limit

std::string file_stem(std::string_view path) {
  const size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const size_t dot = base.rfind('.');
  if (dot != std::string_view::npos && dot > 0) base = base.substr(0, dot);
  return std::string(base);
}

/// SLURM_JOB_NAME: --job-name, else the script's file name with its
/// extension; `sbatch` for a script read from stdin.
std::string slurm_job_name(const SourceFile& file, const slurm::Job& job) {
  if (job.name) return job.name->value;
  if (file.name() == "<stdin>") return "sbatch";
  const size_t slash = file.name().rfind('/');
  return std::string(slash == std::string::npos ? file.name() : file.name().substr(slash + 1));
}

void map_experiment_name(const SourceFile& file, const slurm::Job& job,
                         const WorkloadOptions& options, Workload& workload,
                         Diagnostics& diagnostics) {
  if (options.experiment_name) {
    workload.experiment_name = sanitize_experiment_name(*options.experiment_name);
    return;
  }
  std::string original = job.name ? job.name->value : file_stem(file.name());
  std::string name = sanitize_experiment_name(original);
  const Span from = job.name ? job.name->from->span : Span{};
  if (name.empty()) {
    name = "slurm-job";
    diagnostics.push_back(
        {Code::experiment_name_changed, from,
         "no usable experiment name in \"" + original + "\"; using \"" + name + "\"",
         "set a name with --experiment-name"});
  } else if (name != original) {
    diagnostics.push_back(
        {Code::experiment_name_changed, from,
         "experiment_name allows only letters, digits, '-' and '_' (at most 100); \"" + original +
             "\" becomes \"" + name + "\"",
         "choose the name with --experiment-name"});
  }
  workload.experiment_name = name;
  workload.experiment_name_from = from;
}

void map_timeout(const slurm::Job& job, Workload& workload, Diagnostics& diagnostics) {
  if (!job.time) {
    diagnostics.push_back({Code::no_time_limit,
                           {},
                           "the script sets no --time, so Slurm used the partition's default; "
                           "timeout_minutes is left out and AI Runtime's default applies",
                           "set timeout_minutes to bound the run"});
    return;
  }
  workload.timeout_from = job.time->from->span;
  if (job.time->value.unlimited) {
    diagnostics.push_back({Code::no_time_limit, job.time->from->span,
                           "an unlimited time limit has no equivalent; timeout_minutes is left "
                           "out and AI Runtime's default applies",
                           "set timeout_minutes to bound the run"});
    return;
  }
  workload.timeout_minutes = job.time->value.minutes;
}

void map_retries(const slurm::Job& job, const WorkloadOptions& options, Workload& workload) {
  // A requeued Slurm job restarts from the top; a retried workload does too.
  // One retry by default: Slurm requeues after node failure, not endlessly.
  // The profile's default applies only when the script says nothing.
  workload.max_retries = job.requeue && !job.requeue->value ? 0 : 1;
  if (!job.requeue && options.default_max_retries) {
    workload.max_retries = *options.default_max_retries;
  }
  if (job.requeue) workload.max_retries_from = job.requeue->from->span;
}

// --- containers --------------------------------------------------------------

/// Where the script runs in a container, and with which image and mounts.
struct ContainerUse {
  std::string written;  // the image as written ("$IMAGE" when computed)
  bool literal = true;
  Span from;                        // in the file
  std::vector<std::string> mounts;  // SRC:DST[:FLAGS] or SRC
  Span mounts_from;
  // How the script made the file or instance it ran (`x.sif, pulled from
  // docker://...`): `written` is then where it came from.
  std::string made_from;
  // Later container calls that ran another image, as shown, and where.
  std::vector<std::pair<std::string, Span>> other_images;
  // A docker image named without registry or namespace (`docker run segdet`):
  // an image the cluster built (`docker build -t segdet .`) more often than
  // one of Docker Hub's official ones, so no URL is made up for it; so is
  // sarus' `load/...`, an image `sarus load` read from a file.
  bool bare_name = false;
  // enroot's or udocker's name for a container or image file it made on the
  // cluster (`enroot start rcdo`, `udocker run grom`) that the script does
  // not follow back to a registry image: "enroot", "udocker", else empty.
  std::string_view made_by;
};

/// The image as the reports show it.
std::string shown_image(const ContainerUse& use) {
  return use.made_from.empty() ? use.written : use.made_from;
}

/// Images the script makes before it runs them: files that `singularity
/// pull`/`build` saves (by file name) and instances (`instance://NAME`).
struct MadeImage {
  std::string source;  // what the file or instance was made from, as written
  bool literal = true;
  std::string how;                  // "pulled from", "built from", "started from"
  std::vector<std::string> mounts;  // an instance's binds
};
using MadeImages = std::unordered_map<std::string, MadeImage>;

/// The image as the rules see it: a pulled file is the image it was
/// pulled from, an instance the image it was started from.
void resolve_made_image(ContainerUse& use, const MadeImages& made) {
  const auto key =
      use.written.starts_with("instance://") ? use.written : slurm::made_image_key(use.written);
  const auto found = key.empty() ? made.end() : made.find(key);
  if (found == made.end()) return;
  use.made_from = use.written + ", " + found->second.how + " " + found->second.source;
  // A definition file or sandbox directory it was built from is no image.
  if (found->second.source.find("://") != std::string::npos) {
    use.written = found->second.source;
    use.literal = found->second.literal;
    use.made_by = {};
  }
  use.mounts.insert(use.mounts.end(), found->second.mounts.begin(), found->second.mounts.end());
}

/// A value for mount lists and messages: as the shell passes it when it is
/// `literal`, else as `written` without its double quotes ("$DATA:/data,/ds"
/// -> $DATA:/data,/ds).
std::string value_as_shown(std::optional<std::string> literal, const slurm::Body& body,
                           const slurm::Site& site, Span written) {
  if (literal) return std::move(*literal);
  std::string text(body.views[site.view].text.substr(written.begin, written.size()));
  std::erase(text, '"');
  return text;
}

/// An srun option's value as the shell passes it, when it has no expansion
/// (the parsed value has `$?` for each).
std::optional<std::string> srun_literal(const directives::Option& option) {
  if (option.value->find('$') != std::string::npos) return std::nullopt;
  return option.value;
}

void add_mounts(ContainerUse& use, const std::vector<std::string>& mounts, Span from) {
  if (use.mounts.empty()) use.mounts_from = from;
  for (const std::string& mount : mounts) {
    if (std::find(use.mounts.begin(), use.mounts.end(), mount) == use.mounts.end()) {
      use.mounts.push_back(mount);
    }
  }
}

/// SRC:DST[:FLAGS] -> (SRC, DST); DST is empty for a bare SRC.
std::pair<std::string_view, std::string_view> mount_parts(std::string_view mount) {
  const size_t colon = mount.find(':');
  if (colon == std::string_view::npos) return {mount, {}};
  const std::string_view rest = mount.substr(colon + 1);
  return {mount.substr(0, colon), rest.substr(0, rest.find(':'))};
}

/// The directories mounts show under a name of their own: DST of SRC:DST
/// when it differs from SRC.
std::vector<std::string> renamed_mount_targets(const ContainerUse& use) {
  const auto directory = [](std::string_view path) {
    while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
    return path;
  };
  std::vector<std::string> targets;
  for (std::string_view mount : use.mounts) {
    const auto [written_source, written_target] = mount_parts(mount);
    const std::string_view source = directory(written_source);
    const std::string_view target = directory(written_target);  // empty: at the same path
    if (target.starts_with('/') && target != source) targets.emplace_back(target);
  }
  return targets;
}

/// A `shifter` call (at words[start]): its `-V/--volume` mounts (`;`
/// separates several) go with the container like singularity's binds, and
/// its own `--image` (or the literal a variable it names was set to once) is
/// the job's image when nothing earlier named one.
bool add_shifter_use(const slurm::Site& site, size_t start, const slurm::Body& body,
                     const auto& from_variable, std::optional<ContainerUse>& use) {
  const auto call =
      slurm::find_shifter_call(site.command->words, start, body.views[site.view].text);
  if (!call) return false;
  std::vector<std::string> mounts;
  const ContainerOption* image = nullptr;
  for (const ContainerOption& option : call->options) {
    if (!option.has_value) continue;
    if (option.name == "-V" || option.name == "--volume") {
      const std::string value = value_as_shown(option.value, body, site, option.value_span);
      for (size_t from = 0; from <= value.size();) {
        const size_t end = std::min(value.find(';', from), value.size());
        if (end > from) mounts.push_back(value.substr(from, end - from));
        from = end + 1;
      }
    } else if (option.name == "-i" || option.name == "--image") {
      image = &option;
    }
  }
  const Span command = body.file_span(site, site.command->span);
  if (use) {
    add_mounts(*use, mounts, command);
  } else if (image != nullptr) {
    // `--image="$IMAGE"` with IMAGE=nvcr.io/... assigned once: that image.
    std::optional<std::string> literal =
        image->value ? image->value : from_variable(site, image->value_span);
    const bool known = literal.has_value();
    use = ContainerUse{value_as_shown(std::move(literal), body, site, image->value_span),
                       known,
                       body.file_span(site, image->value_span),
                       std::move(mounts),
                       command,
                       {},
                       {},
                       false,
                       {}};
  }
  return true;
}

/// The directories a container call's mounts (singularity's -B/--bind/--mount,
/// docker's -v/--volume/--mount) put in the container.
void add_bind_mounts(const ContainerCall& call, const slurm::Body& body, const slurm::Site& site,
                     std::vector<std::string>& mounts) {
  for (const ContainerOption& option : call.options) {
    if (option.has_value && slurm::is_mount_option(call, option)) {
      slurm::split_container_mounts(
          call, option, value_as_shown(option.value, body, site, option.value_span), mounts);
    }
  }
}

/// Who made the image a call runs, when it is a name of the cluster's:
/// enroot's NAME|FILE always is; udocker's CONTAINER|IMAGE is when it has
/// no namespace (`udocker run grom`), else it is a Docker Hub reference.
std::string_view made_by(slurm::ContainerEngine engine, const std::optional<std::string>& image) {
  if (engine == slurm::ContainerEngine::enroot) return "enroot";
  if (engine == slurm::ContainerEngine::udocker && image && image->find('/') == std::string::npos) {
    return "udocker";
  }
  return {};
}

/// `enroot import -o FILE URI` (FILE is URI), `enroot create -n NAME FILE`
/// (NAME is what FILE is), `udocker create --name=NAME IMAGE` (NAME is
/// IMAGE; an IMAGE with a namespace is a Docker Hub reference, one without
/// one was more often loaded on the cluster): recorded in `made` for a
/// later `enroot start`/`udocker run`. True for any enroot/udocker image step.
bool record_user_space_image(const slurm::Site& site, size_t start, const slurm::Body& body,
                             const auto& literal_of, MadeImages& made) {
  const auto& words = site.command->words;
  auto step = slurm::find_enroot_step(words, start, body.views[site.view].text);
  const bool enroot = step.has_value();
  if (!enroot) step = slurm::find_udocker_step(words, start);
  if (!step) return false;
  using Kind = slurm::ContainerImageStep::Kind;
  if (step->made.empty() || step->source >= words.size() || step->kind == Kind::upkeep) {
    return true;
  }
  const std::optional<std::string> source = literal_of(site, words[step->source]);
  const std::string_view text = body.views[site.view].text;
  const std::string written(
      text.substr(words[step->source].span.begin, words[step->source].span.size()));
  if (step->kind == Kind::fetch) {  // udocker pull names no file
    if (enroot) {
      made[step->made] = MadeImage{source ? slurm::without_enroot_user(*source) : written,
                                   source.has_value(),
                                   "imported from",
                                   {}};
    }
    return true;
  }
  ContainerUse created{source.value_or(written), source.has_value(), {}, {}, {}, {}, {}, false, {}};
  if (enroot) {
    resolve_made_image(created, made);
  } else if (source && source->find('/') != std::string::npos) {
    created.written = "docker://" + *source;
  }
  made[step->made] = MadeImage{created.written, created.literal, "created from", created.mounts};
  return true;
}

/// `singularity pull|build` and `instance start` (at words[start]) make an
/// image that a later exec runs by its file or instance name: recorded in
/// `made`. True when the command is one of them.
bool record_made_image(const slurm::Site& site, size_t start, const slurm::Body& body,
                       const auto& literal_of, MadeImages& made) {
  // Asked of every command: the site's program is the first word's already.
  if (start == 0 && site.program != "singularity"sv && site.program != "apptainer"sv &&
      site.program != "enroot"sv && site.program != "udocker"sv) {
    return false;
  }
  const auto& words = site.command->words;
  if (record_user_space_image(site, start, body, literal_of, made)) return true;
  const std::string_view text = body.views[site.view].text;
  const auto written = [&](size_t word) {
    return std::string(text.substr(words[word].span.begin, words[word].span.size()));
  };
  if (const auto fetch = slurm::find_image_fetch(words, start, text)) {
    if (fetch->file.empty() || fetch->source >= words.size()) return true;
    const std::optional<std::string> source = literal_of(site, words[fetch->source]);
    made[fetch->file] = MadeImage{source ? *source : written(fetch->source),
                                  source.has_value(),
                                  fetch->build ? "built from" : "pulled from",
                                  {}};
    return true;
  }
  const auto instance = slurm::find_instance_start(words, start, text);
  if (!instance) return false;
  const ContainerCall& call = instance->call;
  const std::optional<std::string> name =
      instance->name < words.size() ? slurm::literal_value(words[instance->name]) : std::nullopt;
  if (!name) return true;
  const std::optional<std::string> image = literal_of(site, words[call.image]);
  ContainerUse started{
      image ? *image : written(call.image), image.has_value(), {}, {}, {}, {}, {}, false, {}};
  resolve_made_image(started, made);
  add_bind_mounts(call, body, site, started.mounts);
  made["instance://" + *name] =
      MadeImage{started.written, started.literal, "started from", std::move(started.mounts)};
  return true;
}

/// Whether the command from words[start] on runs shifter, singularity,
/// apptainer or a docker-style engine, the only calls the container rules
/// read. Asked of every command: from the first word on, the site's program
/// is its name already.
bool runs_container_engine(const slurm::Site& site, size_t start) {
  const auto& words = site.command->words;
  std::optional<std::string> storage;
  const std::string_view program = start == 0 ? std::string_view(site.program)
                                   : start < words.size()
                                       ? slurm::program_view(words[start], storage)
                                       : std::string_view();
  return program == "shifter"sv || slurm::is_container_program(program);
}

/// Every image the job runs, as the reports show it.
std::vector<JobImage> job_images(const std::optional<ContainerUse>& use) {
  std::vector<JobImage> images;
  if (!use) return images;
  images.push_back({use->written, use->from});
  if (!use->made_from.empty()) images.push_back({use->made_from, use->from});
  for (const auto& [shown, from] : use->other_images) images.push_back({shown, from});
  return images;
}

/// The job's image: #SBATCH --container-image / --image / --environment /
/// --container, else the first srun --container-image or singularity image.
std::optional<ContainerUse> find_container(const slurm::Job& job, const slurm::Body& body) {
  std::optional<ContainerUse> use;
  for (const char* name : {"container-image", "image", "environment", "container"}) {
    const directives::Option* option = job.final_option(name);
    if (option == nullptr || !option->value) continue;
    use = ContainerUse{*option->value, true, option->span, {}, {}, {}, {}, false, {}};
    break;
  }
  if (const directives::Option* mounts = job.final_option("container-mounts");
      use && mounts != nullptr && mounts->value) {
    slurm::split_mount_list(*mounts->value, use->mounts);
    use->mounts_from = mounts->span;
  }
  slurm::BatchAssignments assignments(body);
  // A value kept in a variable the batch script sets once to a literal
  // (`IMAGE=nvcr.io/...` ... `--container-image="$IMAGE"`) is that literal.
  const auto from_variable = [&](const slurm::Site& site,
                                 Span written) -> std::optional<std::string> {
    const slurm::TextView& view = body.views[site.view];
    if (site.view != 0 && view.exact) return std::nullopt;  // the inner shell's variables
    const auto before = static_cast<size_t>(&site - body.sites.data());
    return slurm::sole_literal(assignments, before,
                               view.text.substr(written.begin, written.size()));
  };
  const auto literal_of = [&](const slurm::Site& site,
                              const ast::Word& word) -> std::optional<std::string> {
    std::optional<std::string> literal = slurm::literal_value(word);
    return literal ? literal : from_variable(site, word.span);
  };
  MadeImages made;
  // The first call names the image; every call's binds are gone.
  const auto add_container_call = [&](const slurm::Site& site, const std::vector<ast::Word>& words,
                                      const ContainerCall& call) {
    std::vector<std::string> mounts;
    add_bind_mounts(call, body, site, mounts);
    const Span command = body.file_span(site, site.command->span);
    const size_t i = call.image;
    if (i >= words.size()) {
      if (use) add_mounts(*use, mounts, command);
      return;
    }
    const std::optional<std::string> image = literal_of(site, words[i]);
    const std::string_view text = body.views[site.view].text;
    ContainerUse found{
        image ? *image : std::string(text.substr(words[i].span.begin, words[i].span.size())),
        image.has_value(),
        body.file_span(site, words[i].span),
        std::move(mounts),
        command,
        {},
        {},
        call.engine == slurm::ContainerEngine::docker && image &&
            (image->find('/') == std::string::npos || image->starts_with("load/")),
        made_by(call.engine, image)};
    resolve_made_image(found, made);
    if (!use) {
      use = std::move(found);
      return;
    }
    add_mounts(*use, found.mounts, command);
    const std::string other = shown_image(found);
    const bool known = found.written == use->written ||
                       std::ranges::any_of(use->other_images,
                                           [&](const auto& seen) { return seen.first == other; });
    if (!known) use->other_images.emplace_back(other, found.from);
  };
  for (const slurm::Site& site : body.sites) {
    const auto& words = site.command->words;
    const bool is_srun_step = site.program == "srun"sv && site.srun;
    if (is_srun_step) {
      for (const directives::Option& option : site.srun->options) {
        if (!option.value) continue;
        const std::string_view name = option.name();
        std::optional<std::string> literal = srun_literal(option);
        if (!literal && (name == "container-image" || name == "container-mounts")) {
          literal = from_variable(site, option.value_span);
        }
        if (name == "container-image" && !use) {
          use = ContainerUse{value_as_shown(literal, body, site, option.value_span),
                             literal.has_value(),
                             body.file_span(site, site.command->span),
                             {},
                             {},
                             {},
                             {},
                             false,
                             {}};
        }
        if (name == "container-mounts" && use && use->mounts.empty()) {
          // From a variable's value (srun $MOUNTS): the mounts are that variable's.
          const std::string_view written =
              body.views[site.view].text.substr(option.span.begin, option.span.size());
          const Span shown = written.starts_with('-') ? option.value_span : option.span;
          slurm::split_mount_list(value_as_shown(literal, body, site, shown), use->mounts);
          use->mounts_from = body.file_span(site, site.command->span);
        }
      }
    }
    const size_t start = slurm::container_step_start(site);
    if (runs_container_engine(site, start)) {
      if (add_shifter_use(site, start, body, from_variable, use)) continue;
      if (record_made_image(site, start, body, literal_of, made)) continue;
      if (const std::optional<ContainerCall> call = find_container_call(
              words, start, body.views[site.view].text, body.container_options_of(site))) {
        add_container_call(site, words, *call);
      }
    }
    if (site.view != 0) continue;
    slurm::for_each_held_container_call(
        *site.command, body.views[0].text,
        [&](const slurm::HeldContainerCall& held, std::string_view /*name*/) {
          if (!body.read_as_nested_script(held.inner)) {
            add_container_call(site, held.words(), held.call);
          }
        });
  }
  return use;
}

/// `nvidia/pytorch` + `24.01-py3` -> `pytorch`, `24.01-py3`: the parts of a
/// placeholder Unity Catalog name (no dots or colons in the name part).
std::pair<std::string, std::string> placeholder_parts(const ContainerUse& use) {
  std::string name = "image", tag = "latest";
  if (auto ref = parse_image_reference(use.written)) {
    name = ref->image.substr(ref->image.rfind('/') + 1);
    tag = ref->tag;
  } else if (use.literal) {
    name = use.written.substr(use.written.rfind('/') + 1);
    for (std::string_view ext : {".sif", ".sqsh", ".simg", ".img", ".toml"}) {
      if (name.size() > ext.size() && name.substr(name.size() - ext.size()) == ext) {
        name.resize(name.size() - ext.size());
      }
    }
  }
  auto clean = [](std::string text, bool tag_part) {
    for (char& c : text) {
      const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ||
                      (tag_part && c == '.');
      if (!ok) c = '-';
    }
    return text.empty() ? std::string("image") : text.substr(0, 100);
  };
  return {clean(name, false), clean(tag, true)};
}

/// Where the image goes: a workload's environment, or a bundle task's
/// docker_image_url (the bundle schema's only image field, spec §3.1).
std::string_view image_field(const WorkloadOptions& options) {
  return options.bundle ? "the task's docker_image_url" : "environment.docker_image";
}

/// A site profile's image fits the field it would go to: a Unity Catalog name
/// for the cli-1.20 workload, a registry URL for a bundle task.
bool profile_image_fits(std::string_view mapped, bool uc, const WorkloadOptions& options) {
  if (options.bundle) return !is_unity_catalog_image(mapped);
  return !uc || is_unity_catalog_image(mapped);
}

void map_container(const ContainerUse& use, const WorkloadOptions& options, Environment& env,
                   Diagnostics& diagnostics) {
  // A bundle task takes a registry URL whatever the CLI's schema: the bundle
  // schema has no Unity Catalog image field.
  const bool uc = options.target == TargetSchema::cli_1_20 && !options.bundle;
  const std::string field(image_field(options));
  const std::string image = !use.made_from.empty() ? "the image " + use.made_from + ","
                            : use.literal          ? "the image " + use.written
                                                   : "the computed image " + use.written;
  std::string dropped;
  if (env.version || !env.dependencies.empty()) {
    dropped = "; environment.version and dependencies are left out because an image replaces them";
  }
  env.version.reset();
  env.dependencies.clear();
  env.image_from = use.from;
  const profile::Profile* profile = options.profile;
  const auto mapped =
      profile != nullptr ? profile->images.find(use.written) : decltype(profile->images.end()){};
  if (profile != nullptr && mapped != profile->images.end() &&
      profile_image_fits(mapped->second, uc, options)) {
    (uc ? env.unity_catalog_image : env.docker_image) = mapped->second;
    diagnostics.push_back(
        {Code::container_image_registration, use.from,
         image + " becomes " + (options.bundle ? field + " " : std::string()) + mapped->second +
             " (site profile)" + dropped,
         uc ? "check that the image is pushed to the Unity Catalog artifact registry"
            : "check that the image is registered with `databricks experimental "
              "air register-image`"});
    return;
  }
  if (profile != nullptr && mapped != profile->images.end()) {  // a mapping of the wrong kind
    dropped += "; the site profile's image " + mapped->second + " is not used: " +
               (options.bundle ? "a bundle task's docker_image_url takes a registry URL, not a "
                                 "Unity Catalog name"
                               : "environment.unity_catalog_image takes a Unity Catalog name");
  }
  const auto ref = use.literal && !use.bare_name && use.made_by.empty()
                       ? parse_image_reference(use.written)
                       : std::nullopt;
  if (!uc && ref) {
    env.docker_image = ref->url();
    diagnostics.push_back(
        {Code::container_image_registration, use.from,
         image + " becomes " + field + " " + ref->url() + dropped,
         options.bundle
             ? "docker_image_url is a Beta field documented as {organization}/{repository}:{tag}: "
               "check that the job accepts this URL, and register the image once with "
               "`databricks experimental air register-image " +
                   ref->url() + "` as a workload would need"
             : "register it once with `databricks experimental air register-image " + ref->url() +
                   "`; the current CLI (>= 1.20) takes environment.unity_catalog_image instead "
                   "(--target-schema cli-1.20)"});
    return;
  }
  const auto [name, tag] = placeholder_parts(use);
  if (uc) {
    env.unity_catalog_image = "CATALOG.SCHEMA." + name + ":" + tag;
    diagnostics.push_back(
        {Code::container_image_unknown, use.from,
         image +
             " is not in Unity Catalog; environment.unity_catalog_image is the "
             "placeholder " +
             *env.unity_catalog_image + dropped,
         "push the image to the Unity Catalog artifact registry and set "
         "environment.unity_catalog_image, or map it under images: in the site profile"});
  } else {
    env.docker_image = "REGISTRY.EXAMPLE.COM/REPLACE-ME/" + name + ":" + tag;
    diagnostics.push_back(
        {Code::container_image_unknown, use.from,
         image +
             (!use.made_by.empty()
                  ? " is a container or image file " + std::string(use.made_by) +
                        " made on the cluster, and the script does not say from which registry "
                        "image"
              : use.bare_name ? " names no registry or namespace: an image built on the cluster "
                                "(`docker build -t NAME`), or one of Docker Hub's official ones"
                              : std::string(" has no registry URL")) +
             "; " + field + " is the placeholder " + *env.docker_image + dropped,
         "rebuild it as an OCI image in a registry, register it with `databricks experimental "
         "air register-image URL` and set " +
             std::string(options.bundle ? "docker_image_url" : "environment.docker_image.url") +
             ", or map it under images: in the site profile"});
  }
}

/// A workload has one image: commands the script ran in other images now run
/// in that one.
void report_other_images(const ContainerUse& use, Diagnostics& diagnostics) {
  for (const auto& [image, from] : use.other_images) {
    diagnostics.push_back(
        {Code::container_image_second, from,
         "this call ran its command in the image " + image + ", but the workload has one image, " +
             shown_image(use) + " (the first the script runs), and every command runs in that one",
         "build one image that has what both had, or run these steps as a workload (or "
         "bundle task) of their own with that image"});
  }
}

/// A mount source in the job's directory is the uploaded code on AI Runtime:
/// "$CODE_SOURCE_PATH" or "$CODE_SOURCE_PATH/sub".
std::optional<std::string> code_root_directory(std::string_view source) {
  const std::optional<std::string> sub = under_job_directory(source);
  if (!sub) return std::nullopt;
  return sub->empty() ? "$CODE_SOURCE_PATH" : "$CODE_SOURCE_PATH/" + *sub;
}

/// A mount of the job's directory is the uploaded code under another name:
/// the fix is a path rewrite, not a volume.
void report_code_root_mount(const ContainerUse& use, std::string_view source,
                            std::string_view target, const std::string& directory,
                            Diagnostics& diagnostics) {
  const std::string shown(target);
  const std::string what = directory == "$CODE_SOURCE_PATH"
                               ? "the job's directory (" + std::string(source) + ")"
                               : std::string(source) + " of the job's directory";
  diagnostics.push_back({Code::container_mounts, use.mounts_from,
                         "the container showed " + what + " at " + shown +
                             "; on AI Runtime that is the uploaded code, " + directory + ", not " +
                             shown,
                         "write paths under " + shown + " as \"" + directory +
                             "\"/... in the command (" + shown + "/x -> \"" + directory + "\"/x)"});
}

/// The first `cd DIR` (or pushd) into `directory` or below it.
struct DirectoryChange {
  std::string shown;  // "cd /openrlhf"
  Span span;          // the command, in the file
};

std::optional<DirectoryChange> first_change_into(const slurm::Body& body,
                                                 std::string_view directory) {
  for (const slurm::Site& site : body.sites) {
    if (site.program != "cd" && site.program != "pushd") continue;
    const auto& words = site.command->words;
    if (words.size() < 2) continue;
    std::optional<std::string> path = slurm::literal_value(words[1]);
    if (!path) continue;
    while (path->size() > 1 && path->back() == '/') path->pop_back();
    if (is_under(*path, directory)) {
      return DirectoryChange{site.program + " " + *path, body.file_span(site, site.command->span)};
    }
  }
  return std::nullopt;
}

/// `--container-mounts=$PROJECT_PATH:/openrlhf` and then `cd /openrlhf`: the
/// command changes into the directory the mount showed, which AI Runtime
/// nodes do not have (the cd fails) or have without the mount's files
/// (`/home`, `/root`), so what follows does not run in SRC. The mount's
/// report says so, with the line of the cd.
struct ChangeIntoMount {
  std::string source;
  std::string target;
  DirectoryChange change;
};

std::optional<ChangeIntoMount> change_into_mount(const ContainerUse& use, const slurm::Body& body) {
  for (const std::string& mount : use.mounts) {
    const auto [source, target] = mount_parts(mount);
    if (!target.starts_with('/') || target == source || code_root_directory(source)) continue;
    std::string_view directory = target;
    while (directory.size() > 1 && directory.back() == '/') directory.remove_suffix(1);
    if (directory == "/") continue;
    if (auto change = first_change_into(body, directory)) {
      return ChangeIntoMount{std::string(source), std::string(directory), std::move(*change)};
    }
  }
  return std::nullopt;
}

void report_mounts(const ContainerUse& use, const SourceFile& file, const slurm::Body& body,
                   Diagnostics& diagnostics) {
  if (use.mounts.empty()) return;
  std::vector<std::string> sources;  // each once: SRC may be mounted at two places
  for (const std::string& mount : use.mounts) {
    const auto [source, target] = mount_parts(mount);
    // A node's own device directory at the same path (`-v /dev/shm:/dev/shm`)
    // is on AI Runtime nodes too.
    if (source.starts_with("/dev/") && (target.empty() || target == source)) continue;
    if (const auto directory = code_root_directory(source)) {
      const bool renamed = target.starts_with('/');
      if (renamed) report_code_root_mount(use, source, target, *directory, diagnostics);
      // At its own path (`-B $PWD`, `$PWD:$PWD`) it is simply the job's
      // directory, where AI Runtime's command starts too.
      if (renamed || target.empty() || target == source) continue;
    }
    if (std::find(sources.begin(), sources.end(), source) == sources.end()) {
      sources.emplace_back(source);
    }
  }
  if (sources.empty()) return;
  std::string list;
  for (const std::string& s : sources) list += (list.empty() ? "" : ", ") + s;
  std::string message =
      "container mounts do not exist on AI Runtime: " + list + " will not be there";
  std::string hint =
      "copy the data to a Unity Catalog volume and read it under /Volumes/<catalog>/<schema>/"
      "<volume>/..., and change the paths in the command";
  if (const std::optional<ChangeIntoMount> into = change_into_mount(use, body)) {
    message += "; `" + into->change.shown + "` (line " +
               std::to_string(file.line_col(into->change.span.begin).line) +
               ") enters where the container showed " + into->source +
               ", which is not there on AI Runtime: the commands after it do not run in " +
               into->source;
    hint = "if " + into->source +
           " is the code the job runs, upload it as code_source.root_path and write "
           "\"$CODE_SOURCE_PATH\" "
           "in place of " +
           into->target + "; " + hint;
  }
  diagnostics.push_back(
      {Code::container_mounts, use.mounts_from, std::move(message), std::move(hint)});
}

// --- --export ------------------------------------------------------------------

/// Splits an --export value at commas outside quotes (env.c:find_quote_token()).
std::vector<std::pair<std::string, size_t>> split_export(std::string_view value) {
  std::vector<std::pair<std::string, size_t>> items;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i <= value.size(); ++i) {
    const char c = i < value.size() ? value[i] : ',';
    if (quote != 0) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == ',') {
      if (i > start) items.emplace_back(std::string(value.substr(start, i - start)), start);
      start = i + 1;
    }
  }
  return items;
}

struct ExportResult {
  std::vector<NamedValue> env_variables;
  std::vector<NamedValue> secrets;
  std::vector<Span> redactions;
  bool handled = false;  // the generic "not mapped" report is replaced
};

ExportResult map_export(const SourceFile& file, const slurm::Job& job,
                        const WorkloadOptions& options, Diagnostics& diagnostics) {
  ExportResult out;
  const directives::Option* found = job.final_option("export");
  if (found == nullptr || !found->value) return out;
  const directives::Option& option = *found;
  const std::string& value = *option.value;
  const std::string_view written = file.slice(option.value_span);
  for (const auto& [item, offset] : split_export(value)) {
    // No lambda here: clang 14 cannot capture a structured binding.
    const std::string upper_item = ascii_upper(item);
    if (upper_item == "ALL" || upper_item == "NONE" || upper_item == "NIL") continue;
    out.handled = true;
    const size_t eq = item.find('=');
    std::string name = item.substr(0, eq);
    if (eq == std::string::npos) {
      diagnostics.push_back(
          {Code::export_from_submit_shell, option.span,
           "--export passed " + name +
               " with the submitting shell's value, which AI Runtime does not see",
           "set " + name + " under env_variables (or secrets, for a credential)"});
      continue;
    }
    std::string v = item.substr(eq + 1);
    if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
      v = v.substr(1, v.size() - 2);
    }
    if ((is_secret_name(name) && could_be_credential(name, v)) || looks_like_token(v)) {
      // The bytes of the value in the file: exact when the directive is written plainly.
      const size_t at = written == value ? offset + eq + 1 : std::string_view::npos;
      const Span secret =
          at == std::string_view::npos
              ? option.span
              : Span{static_cast<uint32_t>(option.value_span.begin + at),
                     static_cast<uint32_t>(option.value_span.begin + offset + item.size())};
      out.redactions.push_back(secret);
      const std::string key = ascii_lower(name);
      out.secrets.push_back({name, options.secret_scope + "/" + key, option.span});
      diagnostics.push_back({Code::secret_in_script, option.span,
                             "the value of " + name +
                                 " is a credential written in the script; it "
                                 "is left out and replaced by a secret reference",
                             "store it with `databricks secrets put-secret " +
                                 options.secret_scope + " " + key + "` (or change secrets." + name +
                                 " to your scope/key) and rotate the exposed value"});
      continue;
    }
    out.env_variables.push_back({name, v, option.span});
    diagnostics.push_back({Code::export_value_moved, option.span,
                           "--export's " + name + "=" + v + " becomes env_variables." + name, ""});
  }
  return out;
}

/// Drops the generic "no equivalent" report of a directive this stage maps.
void replace_generic_report(const directives::Option* option, Diagnostics& diagnostics) {
  if (option == nullptr) return;
  diagnostics.erase(std::remove_if(diagnostics.begin(), diagnostics.end(),
                                   [&](const Diagnostic& d) {
                                     return d.code == Code::directive_not_mapped &&
                                            d.span == option->span;
                                   }),
                    diagnostics.end());
}

std::optional<std::string> profile_accelerator_type(const slurm::Job& job,
                                                    const profile::Profile* profile) {
  if (profile == nullptr) return std::nullopt;
  if (job.partition) {
    if (auto it = profile->partitions.find(job.partition->value); it != profile->partitions.end()) {
      return it->second;
    }
  }
  if (auto it = profile->gpu_types.find(job.gpu_type()); it != profile->gpu_types.end()) {
    return it->second;
  }
  return std::nullopt;
}

/// Later assignments win (the body runs after --export); a name that is a
/// secret is never also a plain variable.
std::vector<NamedValue> merge_env(std::vector<NamedValue> first, std::vector<NamedValue> later,
                                  const std::vector<NamedValue>& secrets) {
  for (NamedValue& v : later) {
    first.erase(std::remove_if(first.begin(), first.end(),
                               [&](const NamedValue& f) { return f.name == v.name; }),
                first.end());
    first.push_back(std::move(v));
  }
  first.erase(std::remove_if(first.begin(), first.end(),
                             [&](const NamedValue& f) {
                               return std::any_of(
                                   secrets.begin(), secrets.end(),
                                   [&](const NamedValue& s) { return s.name == f.name; });
                             }),
              first.end());
  return first;
}

}  // namespace

namespace {

/// ASCII letters and digits, '-' and '_': compared inline, where
/// std::isalnum is a call into the C library for every character.
bool is_experiment_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

}  // namespace

std::string sanitize_experiment_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());  // a dash replaces a run of other bytes: never longer
  bool last_dash = false;
  for (char c : name) {
    if (is_experiment_name_char(c)) {
      out.push_back(c);
      last_dash = false;
    } else if (!last_dash && !out.empty()) {
      out.push_back('-');
      last_dash = true;
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  if (out.size() > kMaxExperimentName) out.resize(kMaxExperimentName);
  return out;
}

std::optional<ImageReference> parse_image_reference(std::string_view written) {
  std::string_view ref = written;
  if (ref.empty() || ref.find_first_of("$` \t\r\n\"'") != std::string_view::npos)
    return std::nullopt;
  if (ref.starts_with("docker://")) {
    ref.remove_prefix(9);
  } else if (ref.starts_with("docker:")) {
    ref.remove_prefix(7);  // shifter: docker:IMAGE:TAG
  } else if (ref.front() == '/' || ref.front() == '.' || ref.front() == '~' ||
             ref.find("://") != std::string_view::npos) {
    return std::nullopt;  // a file on the cluster (squashfs, sif) or another scheme
  }
  for (std::string_view ext : {".sif", ".sqsh", ".simg", ".img", ".toml", ".squashfs"}) {
    if (ref.size() > ext.size() && ref.substr(ref.size() - ext.size()) == ext) return std::nullopt;
  }
  if (const size_t at = ref.find('@'); at != std::string_view::npos && at < ref.find('#')) {
    ref.remove_prefix(at + 1);  // pyxis USER@
  }
  ImageReference out;
  if (const size_t hash = ref.find('#'); hash != std::string_view::npos) {
    out.registry = std::string(ref.substr(0, hash));
    ref.remove_prefix(hash + 1);
  } else {
    // docker: the first component is a registry when it has a dot or a port.
    const size_t slash = ref.find('/');
    const std::string_view first = slash == std::string_view::npos ? "" : ref.substr(0, slash);
    if (!first.empty() && (first.find('.') != std::string_view::npos ||
                           first.find(':') != std::string_view::npos || first == "localhost")) {
      out.registry = std::string(first);
      ref.remove_prefix(slash + 1);
    } else {
      out.registry = "docker.io";
    }
  }
  const size_t colon = ref.rfind(':');
  if (colon != std::string_view::npos && ref.find('/', colon) == std::string_view::npos) {
    out.tag = std::string(ref.substr(colon + 1));
    ref = ref.substr(0, colon);
  } else {
    out.tag = "latest";
  }
  out.image = std::string(ref);
  if (out.image.empty() || out.tag.empty() || out.registry.empty()) return std::nullopt;
  return out;
}

bool is_unity_catalog_image(std::string_view image) {
  // ^[^.:\s]+\.[^.:\s]+\.[^.:\s]+:[^:\s]+$
  auto part_ok = [](std::string_view p, bool tag) {
    return !p.empty() && std::none_of(p.begin(), p.end(), [&](char c) {
      return std::isspace(static_cast<unsigned char>(c)) || c == ':' || (!tag && c == '.');
    });
  };
  const size_t colon = image.find(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view name = image.substr(0, colon);
  const size_t d1 = name.find('.');
  const size_t d2 = d1 == std::string_view::npos ? d1 : name.find('.', d1 + 1);
  if (d2 == std::string_view::npos) return false;
  return part_ok(name.substr(0, d1), false) && part_ok(name.substr(d1 + 1, d2 - d1 - 1), false) &&
         part_ok(name.substr(d2 + 1), false) && part_ok(image.substr(colon + 1), true);
}

WorkloadMapping map_workload(const SourceFile& file, const slurm::Job& job, const slurm::Body& body,
                             const WorkloadOptions& options, Diagnostics& diagnostics) {
  WorkloadMapping mapping;
  Workload& workload = mapping.workload;
  map_experiment_name(file, job, options, workload, diagnostics);
  const std::optional<std::string> accelerator_type =
      options.accelerator_type ? options.accelerator_type
                               : profile_accelerator_type(job, options.profile);
  workload.compute = map_compute(job, body, file.text(), accelerator_type, diagnostics);
  const std::optional<ContainerUse> container = find_container(job, body);
  report_amd_gpus(job, body, workload.compute, job_images(container), diagnostics);
  workload.environment.version = options.env_version;
  workload.environment.dependencies = options.dependencies;
  if (options.requirements) {
    workload.environment.dependencies.push_back("-r " + *options.requirements);
  }
  if (options.code_root) workload.code_source_root = *options.code_root;
  workload.code_source_flat = options.code_source_flat;
  map_timeout(job, workload, diagnostics);
  map_retries(job, options, workload);
  ExportResult exports = map_export(file, job, options, diagnostics);
  if (exports.handled) replace_generic_report(job.final_option("export"), diagnostics);
  SetupOptions setup{options.secret_scope, options.profile, container.has_value(),
                     container ? renamed_mount_targets(*container) : std::vector<std::string>{},
                     exported_container_variables(body)};
  CommandMapping command =
      map_command(file, body, job, workload.compute, slurm_job_name(file, job), diagnostics, setup);
  report_script_arguments(body, diagnostics);
  report_script_path(body, diagnostics);
  report_job_log_reads(body, job, diagnostics);
  report_inherited_variables(body, job, command.removed, command.edits, diagnostics);
  const DeviceContext devices{exports.env_variables, counts_from_node(command.command)};
  report_device_variables(body, job, workload.compute, devices, diagnostics);
  if (auto visible = slurm_visible_devices(body, job, workload.compute, devices, diagnostics)) {
    command.env_variables.push_back(std::move(*visible));
  }
  for (std::string& d : command.dependencies) {
    if (std::find(workload.environment.dependencies.begin(),
                  workload.environment.dependencies.end(),
                  d) == workload.environment.dependencies.end()) {
      workload.environment.dependencies.push_back(std::move(d));
    }
  }
  if (container) {
    for (const char* name :
         {"container-image", "image", "environment", "container", "container-mounts"}) {
      replace_generic_report(job.final_option(name), diagnostics);
    }
    map_container(*container, options, workload.environment, diagnostics);
    report_other_images(*container, diagnostics);
    report_mounts(*container, file, body, diagnostics);
  }
  workload.command = std::move(command.command);
  std::vector<NamedValue> secrets = std::move(exports.secrets);
  for (NamedValue& s : command.secrets) {
    secrets.erase(std::remove_if(secrets.begin(), secrets.end(),
                                 [&](const NamedValue& e) { return e.name == s.name; }),
                  secrets.end());
    secrets.push_back(std::move(s));
  }
  workload.env_variables =
      merge_env(std::move(exports.env_variables), std::move(command.env_variables), secrets);
  workload.secrets = std::move(secrets);
  mapping.redactions = std::move(exports.redactions);
  mapping.redactions.insert(mapping.redactions.end(), command.redactions.begin(),
                            command.redactions.end());
  mapping.edits = std::move(command.edits);
  return mapping;
}

}  // namespace s2a::air
