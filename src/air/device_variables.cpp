#include "air/device_variables.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <string>

#include "air/keyword_list.hpp"

namespace s2a::air {
namespace {

using namespace std::string_view_literals;

constexpr std::string_view kVisibleDevices = "CUDA_VISIBLE_DEVICES"sv;

/// Variables whose value picks network interfaces or adapters by name:
/// NCCL's and Gloo's/TensorPipe's socket interfaces, NCCL's InfiniBand
/// adapters, UCX's devices (MPI).
constexpr std::array kNetworkDevices = {"NCCL_SOCKET_IFNAME"sv, "GLOO_SOCKET_IFNAME"sv,
                                        "TP_SOCKET_IFNAME"sv, "NCCL_IB_HCA"sv, "UCX_NET_DEVICES"sv};

bool is_watched(std::string_view name) {
  return name == kVisibleDevices || contains(kNetworkDevices, name);
}

/// Whether a script may set one of the watched names: nested scripts are
/// copies of the file's text, so one scan from `=` to `=` spares the walk in
/// nearly every script.
bool may_set_watched(std::string_view text) {
  for (size_t eq = text.find('='); eq != std::string_view::npos; eq = text.find('=', eq + 1)) {
    const std::string_view name = text.substr(0, eq);
    if (name.ends_with("_DEVICES"sv) || name.ends_with("_IFNAME"sv) ||
        name.ends_with("_IB_HCA"sv)) {
      return true;
    }
  }
  return false;
}

/// What CUDA makes of a list of GPUs on a node: it shows those listed
/// before the first one the node does not have.
struct DeviceList {
  size_t visible = 0;
  std::string_view missing;  // the first GPU the node does not have, if any
  bool missing_by_uuid = false;
  uint64_t gpus_numbered = 0;  // the highest GPU number listed, plus one
};

bool is_uuid(std::string_view device) {
  return device.starts_with("GPU-"sv) || device.starts_with("MIG-"sv);
}

std::optional<uint64_t> device_number(std::string_view device) {
  uint64_t number = 0;
  const auto [end, error] = std::from_chars(device.data(), device.data() + device.size(), number);
  if (error != std::errc() || end != device.data() + device.size()) return std::nullopt;
  return number;
}

/// A value of numbers and UUIDs is read; anything else (`''`, `-1`,
/// `NoDevFiles`) hides the GPUs on purpose or is not a list: nullopt.
std::optional<DeviceList> read_device_list(std::string_view value, uint32_t gpus_per_node) {
  if (value.empty()) return std::nullopt;
  DeviceList list;
  while (!value.empty()) {
    const size_t comma = value.find(',');
    std::string_view device = value.substr(0, comma);
    while (!device.empty() && (device.front() == ' ' || device.front() == '\t')) {
      device.remove_prefix(1);
    }
    const std::optional<uint64_t> number = device_number(device);
    if (number) list.gpus_numbered = std::max(list.gpus_numbered, *number + 1);
    if (list.missing.empty()) {
      if (!number && !is_uuid(device)) return std::nullopt;
      if (number && *number < gpus_per_node) {
        ++list.visible;
      } else {
        list.missing = device;
        list.missing_by_uuid = !number;
      }
    }
    value = comma == std::string_view::npos ? std::string_view{} : value.substr(comma + 1);
  }
  return list;
}

std::string gpus(uint64_t n) { return std::to_string(n) + (n == 1 ? " GPU" : " GPUs"); }

std::string node_gpus(const Compute& compute) {
  const uint32_t n = compute.gpus_per_node;
  return "a " + compute.accelerator_type + " node has " + gpus(n) +
         (n == 1 ? ", numbered 0" : ", numbered 0 to " + std::to_string(n - 1));
}

/// `NAME=value` in a word of `export`, `declare`, `env`, ... for a watched NAME.
std::optional<std::pair<std::string_view, std::string_view>> setting_in_word(
    const ast::Word& word, std::optional<std::string>& storage) {
  const std::optional<std::string_view> text = slurm::literal_view(word, storage);
  if (!text) return std::nullopt;
  const size_t eq = text->find('=');
  if (eq == std::string_view::npos || !is_watched(text->substr(0, eq))) return std::nullopt;
  return std::pair{text->substr(0, eq), text->substr(eq + 1)};
}

/// NCCL matches interface prefixes (`=eth0` for an exact name).
bool matches_any_node(std::string_view list) {
  while (!list.empty()) {
    const size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    if (item.starts_with('=')) item.remove_prefix(1);
    if (contains({"lo"sv, "en"sv, "eth"sv, "all"sv}, item)) return true;
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
  }
  return false;
}

class DeviceCheck {
 public:
  DeviceCheck(const slurm::Job& job, const Compute& compute, bool counts_from_node,
              Diagnostics& diagnostics)
      : compute_(compute),
        gpus_requested_(job.gpus.has_value()),
        counts_from_node_(counts_from_node),
        diagnostics_(diagnostics) {}

  void check_site(const slurm::Body& body, const slurm::Site& site) {
    const ast::Command& command = *site.command;
    for (const ast::Assignment& a : command.assignments) {
      if (!is_watched(a.name) || a.is_array || a.append) continue;
      std::optional<std::string> storage;
      if (const auto value = slurm::literal_view(a.value, storage)) {
        check(a.name, *value, body.file_span(site, a.span));
      }
    }
    const bool declares = slurm::is_declaration_builtin(site.program);
    if (!declares && site.program != "env"sv) return;
    for (size_t i = 1; i < command.words.size(); ++i) {
      std::optional<std::string> storage;
      if (const auto setting = setting_in_word(command.words[i], storage)) {
        check(setting->first, setting->second, body.file_span(site, command.words[i].span));
        continue;
      }
      // env's assignments end at the program it runs.
      if (declares) continue;
      const std::optional<std::string_view> word = slurm::literal_view(command.words[i], storage);
      if (!word || (!word->starts_with('-') && word->find('=') == std::string_view::npos)) return;
      if (*word == "-u"sv || *word == "--unset"sv || *word == "-C"sv || *word == "--chdir"sv) ++i;
    }
  }

  void check(std::string_view name, std::string_view value, Span at) {
    if (name == kVisibleDevices) {
      check_visible_devices(value, at);
    } else {
      check_network_devices(name, value, at);
    }
  }

 private:
  void check_visible_devices(std::string_view value, Span at) {
    if (compute_.gpus_per_node == 0) return;
    const std::optional<DeviceList> list = read_device_list(value, compute_.gpus_per_node);
    if (!list) return;
    const std::string setting = std::string(kVisibleDevices) + "=" + std::string(value);
    if (list->missing.empty()) {
      check_part_of_node(*list, setting, at);
      return;
    }
    const std::string device(list->missing);
    const std::string named = list->missing_by_uuid
                                  ? "names a GPU of the cluster by its UUID (" + device +
                                        "), which no AI Runtime node has"
                                  : "names GPU " + device + ", but " + node_gpus(compute_);
    const std::string seen = list->visible == 0
                                 ? "CUDA sees no GPU"
                                 : "CUDA stops at the first GPU that is missing, so the program "
                                   "sees " +
                                       gpus(list->visible) + " of the list";
    diagnostics_.push_back(
        {Code::visible_devices_missing, at, setting + " " + named + ": " + seen, hint(*list)});
  }

  /// `CUDA_VISIBLE_DEVICES=0,1,2,3` of a 4-GPU job on an 8-GPU shape: the
  /// translation's launch counts are the node's ($LOCAL_WORLD_SIZE: the
  /// counts it writes for a launcher the script gave none), so a launcher
  /// starts processes for GPUs CUDA does not show.
  void check_part_of_node(const DeviceList& list, const std::string& setting, Span at) {
    const uint32_t n = compute_.gpus_per_node;
    if (list.visible >= n || !counts_from_node_) return;
    diagnostics_.push_back(
        {Code::visible_devices_subset, at,
         setting + " shows " + std::to_string(list.visible) + " of the " + std::to_string(n) +
             " GPUs of a " + compute_.accelerator_type +
             " node, but launch counts on AI Runtime are the node's ($LOCAL_WORLD_SIZE = " +
             std::to_string(n) +
             "): a launcher started with them runs processes that find no GPU of their own",
         "drop the assignment to use the whole node, or give the launcher " +
             std::to_string(list.visible) + " processes per node"});
  }

  /// A list that only excludes (`^docker0,lo`) or that some name of every
  /// node matches (`lo`; the prefixes `en`, `eth`; UCX's `all`) holds
  /// anywhere; a computed one (`$(ip route ...)`) is looked up on the node.
  void check_network_devices(std::string_view name, std::string_view value, Span at) {
    if (value.empty() || value.front() == '^' || matches_any_node(value)) return;
    const bool interfaces = name.ends_with("_SOCKET_IFNAME"sv);
    const std::string setting = std::string(name) + "=" + std::string(value);
    diagnostics_.push_back(
        interfaces
            ? Diagnostic{Code::cluster_network_devices, at,
                         setting +
                             " picks network interfaces by the names they have on the cluster's "
                             "nodes; an AI Runtime node's interfaces may be named otherwise, and "
                             "when none matches, the library finds no interface and the job "
                             "fails as it starts",
                         "drop it: NCCL and Gloo choose a usable interface themselves (a list "
                         "that only excludes, such as ^docker0,lo, can stay)"}
            : Diagnostic{
                  Code::cluster_network_devices, at,
                  setting +
                      " picks the cluster's network adapters by name; an AI Runtime "
                      "node has adapters of its own" +
                      // The 8-GPU shapes are the EFA instances (spec/air-runtime.md).
                      (compute_.gpus_per_node == 8 ? " (EFA on " + compute_.accelerator_type + ")"
                                                   : std::string()) +
                      ", which this setting does not select",
                  "drop it: NCCL and UCX find the node's adapters themselves"});
  }

  /// A job that asked Slurm for no GPUs got them with the node; the shape
  /// was assumed, and one with as many GPUs may be what it needs.
  [[nodiscard]] std::string hint(const DeviceList& list) const {
    const uint32_t n = compute_.gpus_per_node;
    if (!gpus_requested_ && list.gpus_numbered > n) {
      return "the script asks Slurm for no GPUs, so " + compute_.accelerator_type +
             " was assumed: if the job uses the " + gpus(list.gpus_numbered) +
             " it lists, translate it with --accelerator-type GPU_8xH100; otherwise drop the "
             "assignment";
    }
    return n == 1 ? "drop the assignment: the node's one GPU (0) is the job's"
                  : "drop the assignment (every GPU of the node is the job's), or pick GPUs by "
                    "their number on the node, 0 to " +
                        std::to_string(n - 1);
  }

  const Compute& compute_;
  bool gpus_requested_;
  bool counts_from_node_;
  Diagnostics& diagnostics_;
};

/// The first `$CUDA_VISIBLE_DEVICES` the script reads, as a span of the file.
class VisibleDevicesRead {
 public:
  explicit VisibleDevicesRead(const slurm::Body& body) : body_(body) {}

  std::optional<Span> first() {
    for (const slurm::Site& site : body_.sites) visit(site);
    for (const slurm::Site& head : body_.compound_heads) visit(head);
    return first_;
  }

 private:
  void visit(const slurm::Site& site) {
    const ast::Command& command = *site.command;
    for (const ast::Word& word : command.words) visit(site, word.parts);
    for (const ast::Assignment& a : command.assignments) visit(site, a.value.parts);
    for (const ast::Redirect& redirect : command.redirects) visit(site, redirect.target.parts);
  }

  void visit(const slurm::Site& site, const std::vector<ast::WordPart>& parts) {
    for (const ast::WordPart& part : parts) {
      if (part.kind == ast::PartKind::param && part.text == kVisibleDevices) {
        const Span at = body_.file_span(site, part.span);
        if (!first_ || at.begin < first_->begin) first_ = at;
      }
      visit(site, part.parts);
    }
  }

  const slurm::Body& body_;
  std::optional<Span> first_;
};

/// The GPUs Slurm gave the job on each node, if it asked for any.
std::optional<uint64_t> slurm_gpus_per_node(const slurm::Job& job, const Compute& compute) {
  if (!job.gpus || (job.gpus->scope != slurm::GpuScope::exclusive_node && job.gpus->count == 0)) {
    return std::nullopt;
  }
  return std::min<uint64_t>(job.gpus_per_node().value_or(compute.gpus_per_node),
                            compute.gpus_per_node);
}

std::string numbered_from_zero(uint64_t count) {
  std::string list;
  for (uint64_t i = 0; i < count; ++i) list += (i == 0 ? "" : ",") + std::to_string(i);
  return list;
}

}  // namespace

std::optional<NamedValue> slurm_visible_devices(const slurm::Body& body, const slurm::Job& job,
                                                const Compute& compute,
                                                const DeviceContext& context,
                                                Diagnostics& diagnostics) {
  if (body.views.empty()) return std::nullopt;
  const std::string_view text = body.views[0].text;
  if (text.find(kVisibleDevices) == std::string_view::npos) return std::nullopt;
  const bool set_by_script =
      text.find(std::string(kVisibleDevices) + "=") != std::string_view::npos ||
      std::any_of(context.directive_exports.begin(), context.directive_exports.end(),
                  [](const NamedValue& item) { return item.name == kVisibleDevices; });
  std::optional<uint64_t> gpus = slurm_gpus_per_node(job, compute);
  if (set_by_script || !gpus || *gpus == 0) return std::nullopt;
  const std::optional<Span> read = VisibleDevicesRead(body).first();
  if (!read) return std::nullopt;
  // The translation's launchers start a process for every GPU of the node.
  if (context.counts_from_node) gpus = compute.gpus_per_node;
  NamedValue devices{std::string(kVisibleDevices), numbered_from_zero(*gpus), *read};
  const bool whole_node = *gpus == compute.gpus_per_node;
  diagnostics.push_back(
      {Code::visible_devices_given, *read,
       "the script reads $CUDA_VISIBLE_DEVICES, which Slurm set to the job's GPUs on the node; "
       "AI Runtime does not set it, so env_variables gives it the value Slurm gave: " +
           devices.value,
       whole_node ? "nothing else changes: CUDA shows every GPU of the node either way"
                  : "CUDA now shows the job's " + std::to_string(*gpus) + " of the node's " +
                        std::to_string(compute.gpus_per_node) +
                        " GPUs, as under Slurm; remove the variable to use them all"});
  return devices;
}

void report_device_variables(const slurm::Body& body, const slurm::Job& job, const Compute& compute,
                             const DeviceContext& context, Diagnostics& diagnostics) {
  DeviceCheck check(job, compute, context.counts_from_node, diagnostics);
  for (const NamedValue& item : context.directive_exports) {
    if (is_watched(item.name)) check.check(item.name, item.value, item.from);
  }
  if (body.views.empty() || !may_set_watched(body.views[0].text)) return;
  for (const slurm::Site& site : body.sites) check.check_site(body, site);
}

}  // namespace s2a::air
