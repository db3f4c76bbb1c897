// The migration report: one run over a cluster's scripts, summarised for the
// platform team that plans the move (status, capacity before and after,
// directive coverage, what does not carry over, who must look at what).
// Everything is ordered by path or by count then name: never by timing.
#include <algorithm>
#include <map>
#include <set>

#include "batch/batch.hpp"
#include "emit/json_writer.hpp"

namespace s2a::batch {
namespace {

/// How many scripts something occurs in: tally() visits each file once, so
/// remembering the last one counted is enough (a set of names per code cost
/// more than the rest of the report on large runs).
struct ScriptCount {
  uint64_t count = 0;
  const FileResult* last = nullptr;

  void add(const FileResult& r) {
    if (last != &r) ++count;
    last = &r;
  }
};

struct CodeTally {
  uint64_t occurrences = 0;
  ScriptCount scripts;
};

struct OptionTally {
  std::map<DirectiveStatus, uint64_t> by_status;
  ScriptCount scripts;
};

struct Totals {
  std::map<FileStatus, uint64_t> status;
  uint64_t slurm_nodes = 0, slurm_gpus = 0, air_nodes = 0, air_gpus = 0;
  uint64_t directives[4] = {0, 0, 0, 0};
  uint64_t suppressed = 0;
  std::map<Code, CodeTally> codes;
  std::map<std::string, OptionTally> options;
  std::map<std::string, std::pair<uint64_t, uint64_t>> accelerators;  // type -> scripts, GPUs
};

bool converted(const FileResult& r) {
  return r.status == FileStatus::clean || r.status == FileStatus::findings;
}

bool is_script(const FileResult& r) { return converted(r) || r.status == FileStatus::failed; }

uint64_t saturating_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

Totals tally(const BatchRun& run) {
  Totals t;
  for (const FileResult& r : run.files) {
    ++t.status[r.status];
    if (!is_script(r)) continue;
    if (converted(r)) {
      t.slurm_nodes = saturating_add(t.slurm_nodes, r.slurm_nodes.value_or(1));
      t.slurm_gpus = saturating_add(t.slurm_gpus, r.slurm_gpus.value_or(0));
      t.air_nodes = saturating_add(t.air_nodes, r.air_nodes.value_or(0));
      t.air_gpus = saturating_add(t.air_gpus, r.air_gpus.value_or(0));
      auto& accelerator = t.accelerators[r.air_accelerator_type];
      ++accelerator.first;
      accelerator.second = saturating_add(accelerator.second, r.air_gpus.value_or(0));
    }
    for (size_t i = 0; i < 4; ++i) t.directives[i] += r.directive_counts[i];
    t.suppressed += r.suppressed_count;
    for (Code c : r.codes) {
      CodeTally& code = t.codes[c];
      ++code.occurrences;
      code.scripts.add(r);
    }
    for (const DirectiveCount& option : r.not_mapped) {
      OptionTally& tally = t.options[option.option];
      ++tally.by_status[option.status];
      tally.scripts.add(r);
    }
  }
  return t;
}

/// Codes by occurrences (then number), most frequent first.
std::vector<std::pair<Code, const CodeTally*>> ranked_codes(const Totals& t) {
  std::vector<std::pair<Code, const CodeTally*>> ranked;
  for (const auto& [code, tally] : t.codes) ranked.emplace_back(code, &tally);
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second->occurrences > b.second->occurrences;
  });
  return ranked;
}

std::vector<std::pair<std::string, const OptionTally*>> ranked_options(const Totals& t) {
  std::vector<std::pair<std::string, const OptionTally*>> ranked;
  for (const auto& [name, tally] : t.options) ranked.emplace_back(name, &tally);
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second->scripts.count > b.second->scripts.count;
  });
  return ranked;
}

/// Why a person must look at this script; empty when nobody needs to.
std::string attention_reason(const FileResult& r, const std::vector<Code>& attention) {
  if (r.status == FileStatus::failed) return r.reason;
  std::set<std::string> ids;
  for (Code code : r.codes) {
    if (code_info(code).severity == Severity::error ||
        std::find(attention.begin(), attention.end(), code) != attention.end()) {
      ids.insert(code_id(code) + " " + std::string(code_info(code).name));
    }
  }
  std::string reason;
  for (const std::string& id : ids) reason += (reason.empty() ? "" : ", ") + id;
  return reason;
}

/// Text safe inside a Markdown table cell: no control bytes, no `|`.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) {
      out += '?';
    } else if (c == '|' || c == '\\' || c == '`' || c == '*' || c == '_' || c == '<') {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

std::string count_or_dash(const std::optional<uint64_t>& value) {
  return value ? std::to_string(*value) : "-";
}

std::string percent(uint64_t part, uint64_t whole) {
  if (whole == 0) return "-";
  const uint64_t tenths = (part * 1000 + whole / 2) / whole;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + "%";
}

uint64_t scripts_seen(const Totals& t) {
  const auto count = [&](FileStatus s) { return t.status.count(s) ? t.status.at(s) : 0; };
  return count(FileStatus::clean) + count(FileStatus::findings) + count(FileStatus::failed);
}

uint64_t status_count(const Totals& t, FileStatus s) {
  return t.status.count(s) ? t.status.at(s) : 0;
}

void markdown_summary(std::string& md, const Totals& t) {
  md += "## Summary\n\n| Outcome | Scripts |\n|---|---:|\n";
  md += "| Converted cleanly | " + std::to_string(status_count(t, FileStatus::clean)) + " |\n";
  md += "| Converted with findings | " + std::to_string(status_count(t, FileStatus::findings)) +
        " |\n";
  md += "| Failed | " + std::to_string(status_count(t, FileStatus::failed)) + " |\n";
  md += "| **Total sbatch scripts** | " + std::to_string(scripts_seen(t)) + " |\n\n";
  md += "Also examined: " + std::to_string(status_count(t, FileStatus::not_script)) +
        " files that are not sbatch scripts, " +
        std::to_string(status_count(t, FileStatus::skipped)) +
        " skipped (symbolic links, special files). " + std::to_string(t.suppressed) +
        " diagnostics were suppressed by comments or the site profile.\n\n";
}

void markdown_capacity(std::string& md, const Totals& t) {
  md +=
      "## Capacity: Slurm before, AI Runtime after\n\n"
      "Sums over converted scripts (one run of each; a script without --nodes counts one "
      "node).\n\n| | Slurm | AI Runtime |\n|---|---:|---:|\n";
  md += "| Nodes | " + std::to_string(t.slurm_nodes) + " | " + std::to_string(t.air_nodes) + " |\n";
  md += "| GPUs | " + std::to_string(t.slurm_gpus) + " | " + std::to_string(t.air_gpus) + " |\n\n";
  md += "| Accelerator type | Scripts | GPUs |\n|---|---:|---:|\n";
  for (const auto& [type, counts] : t.accelerators) {
    md += "| " + cell(type.empty() ? "(none)" : type) + " | " + std::to_string(counts.first) +
          " | " + std::to_string(counts.second) + " |\n";
  }
  md += "\n";
}

void markdown_coverage(std::string& md, const Totals& t) {
  const uint64_t total = t.directives[0] + t.directives[1] + t.directives[2] + t.directives[3];
  md +=
      "## Directive coverage\n\n| Mapped | Approximated | Reported | No effect | Total | "
      "Mapped exactly |\n|---:|---:|---:|---:|---:|---:|\n| ";
  for (uint64_t n : t.directives) md += std::to_string(n) + " | ";
  md += std::to_string(total) + " | " + percent(t.directives[0], total) + " |\n\n";
}

void markdown_unmapped(std::string& md, const Totals& t) {
  md +=
      "## Top constructs that do not carry over exactly\n\n### By diagnostic\n\n"
      "| Code | Rule | Severity | Occurrences | Scripts |\n|---|---|---|---:|---:|\n";
  size_t shown = 0;
  for (const auto& [code, tally] : ranked_codes(t)) {
    if (++shown > 20) break;
    md += "| " + code_id(code) + " | " + cell(code_info(code).name) + " | " +
          std::string(severity_name(code_info(code).severity)) + " | " +
          std::to_string(tally->occurrences) + " | " + std::to_string(tally->scripts.count) +
          " |\n";
  }
  md +=
      "\n### By #SBATCH option\n\n| Option | Approximated | Reported | Scripts |\n"
      "|---|---:|---:|---:|\n";
  shown = 0;
  for (const auto& [name, tally] : ranked_options(t)) {
    if (++shown > 20) break;
    // A copy for the lambda: clang 14 cannot capture a structured binding.
    const auto* counted = tally;
    const auto count = [counted](DirectiveStatus s) {
      return counted->by_status.count(s) ? counted->by_status.at(s) : 0;
    };
    md += "| --" + cell(name) + " | " + std::to_string(count(DirectiveStatus::approximated)) +
          " | " + std::to_string(count(DirectiveStatus::reported)) + " | " +
          std::to_string(tally->scripts.count) + " |\n";
  }
  md += "\n";
}

void markdown_attention(std::string& md, const BatchRun& run, const BatchOptions& options) {
  md +=
      "## Scripts that need a person\n\nFailed scripts, scripts with errors, and scripts with "
      "any of:";
  for (Code code : options.attention) md += " " + code_id(code);
  md += ".\n\n| Script | Why |\n|---|---|\n";
  for (const FileResult& r : run.files) {
    if (!is_script(r)) continue;
    const std::string why = attention_reason(r, options.attention);
    if (!why.empty()) md += "| " + cell(r.display) + " | " + cell(why) + " |\n";
  }
  md += "\n";
}

void markdown_scripts(std::string& md, const BatchRun& run) {
  md +=
      "## All scripts\n\n| Script | Status | Slurm nodes | Slurm GPUs | AI Runtime | "
      "Directives mapped/approx./reported | Errors/warnings/notes |\n"
      "|---|---|---:|---:|---|---|---|\n";
  for (const FileResult& r : run.files) {
    if (!is_script(r)) continue;
    size_t severities[3] = {0, 0, 0};
    for (Code code : r.codes) ++severities[static_cast<size_t>(code_info(code).severity)];
    const std::string air = r.air_gpus
                                ? std::to_string(*r.air_gpus) + " x " + r.air_accelerator_type +
                                      " on " + count_or_dash(r.air_nodes) + " nodes"
                                : "-";
    md += "| " + cell(r.display) + " | " + std::string(status_name(r.status)) + " | " +
          count_or_dash(r.slurm_nodes) + " | " + count_or_dash(r.slurm_gpus) + " | " + cell(air) +
          " | " + std::to_string(r.directive_counts[0]) + "/" +
          std::to_string(r.directive_counts[1]) + "/" + std::to_string(r.directive_counts[2]) +
          " | " + std::to_string(severities[0]) + "/" + std::to_string(severities[1]) + "/" +
          std::to_string(severities[2]) + " |\n";
  }
}

void json_file(JsonWriter& json, const FileResult& r, const BatchOptions& options) {
  json.begin_object();
  json.field("path", r.display);
  json.field("output", r.relative + ".yaml");
  json.field("status", status_name(r.status));
  if (!r.reason.empty()) json.field("reason", r.reason);
  json.key("slurm").begin_object();
  json.field("nodes", r.slurm_nodes);
  json.field("gpus", r.slurm_gpus);
  json.field("gpu_type", r.slurm_gpu_type);
  json.end_object();
  json.key("air").begin_object();
  json.field("nodes", r.air_nodes);
  json.field("num_accelerators", r.air_gpus);
  json.field("accelerator_type", r.air_accelerator_type);
  json.end_object();
  json.key("directives").begin_object();
  for (size_t i = 0; i < 4; ++i) {
    json.field(status_name(static_cast<DirectiveStatus>(i)), r.directive_counts[i]);
  }
  json.end_object();
  json.key("codes").begin_array();
  for (Code code : r.codes) json.value(code_id(code));
  json.end_array();
  json.field("suppressed", static_cast<uint64_t>(r.suppressed_count));
  json.field("needs_attention", !attention_reason(r, options.attention).empty());
  json.end_object();
}

}  // namespace

std::string render_migration_markdown(const BatchRun& run, const BatchOptions& options) {
  const Totals t = tally(run);
  std::string md = "# Migration report: Slurm to AI Runtime\n\nGenerated by slurm2air " +
                   std::string(SLURM2AIR_VERSION) +
                   ". Per-script translations and reports sit "
                   "next to this file, mirroring the input tree.\n\n";
  markdown_summary(md, t);
  markdown_capacity(md, t);
  markdown_coverage(md, t);
  markdown_unmapped(md, t);
  markdown_attention(md, run, options);
  markdown_scripts(md, run);
  return md;
}

std::string render_migration_json(const BatchRun& run, const BatchOptions& options) {
  std::string out;
  write_migration_json(run, options, [&](std::string_view text) { out += text; });
  return out;
}

void write_migration_json(const BatchRun& run, const BatchOptions& options,
                          const std::function<void(std::string_view)>& sink) {
  // Tens of megabytes for a large run: handed to `sink` in pieces.
  constexpr size_t kPiece = size_t{1} << 20;
  const Totals t = tally(run);
  JsonWriter json;
  json.begin_object();
  json.field("schema", "slurm2air.migration/1");
  json.field("version", SLURM2AIR_VERSION);
  json.key("summary").begin_object();
  for (FileStatus s : {FileStatus::clean, FileStatus::findings, FileStatus::failed,
                       FileStatus::not_script, FileStatus::skipped}) {
    json.field(status_name(s), status_count(t, s));
  }
  json.field("scripts", scripts_seen(t));
  json.field("suppressed", t.suppressed);
  json.end_object();
  json.key("capacity").begin_object();
  json.key("slurm").begin_object().field("nodes", t.slurm_nodes).field("gpus", t.slurm_gpus);
  json.end_object();
  json.key("air").begin_object().field("nodes", t.air_nodes).field("gpus", t.air_gpus);
  json.end_object();
  json.end_object();
  json.key("directives").begin_object();
  for (size_t i = 0; i < 4; ++i) {
    json.field(status_name(static_cast<DirectiveStatus>(i)), t.directives[i]);
  }
  json.end_object();
  json.key("top_codes").begin_array();
  for (const auto& [code, tally] : ranked_codes(t)) {
    json.begin_object();
    json.field("code", code_id(code));
    json.field("rule", code_info(code).name);
    json.field("occurrences", tally->occurrences);
    json.field("scripts", static_cast<uint64_t>(tally->scripts.count));
    json.end_object();
  }
  json.end_array();
  json.key("top_options").begin_array();
  for (const auto& [name, tally] : ranked_options(t)) {
    json.begin_object();
    json.field("option", name);
    json.field("scripts", static_cast<uint64_t>(tally->scripts.count));
    json.end_object();
  }
  json.end_array();
  json.key("scripts").begin_array();
  for (const FileResult& r : run.files) {
    if (is_script(r)) json_file(json, r, options);
    if (json.pending_size() >= kPiece) sink(json.take_text());
  }
  json.end_array();
  json.end_object();
  sink(std::move(json).str());
}

std::string render_summary(const BatchRun& run, const BatchOptions& options) {
  const Totals t = tally(run);
  std::string out = "slurm2air batch: " + std::to_string(scripts_seen(t)) +
                    " sbatch scripts: " + std::to_string(status_count(t, FileStatus::clean)) +
                    " converted cleanly, " + std::to_string(status_count(t, FileStatus::findings)) +
                    " with findings, " + std::to_string(status_count(t, FileStatus::failed)) +
                    " failed (" + std::to_string(status_count(t, FileStatus::not_script)) +
                    " other files, " + std::to_string(status_count(t, FileStatus::skipped)) +
                    " skipped)\n";
  if (run.interrupted) out += "interrupted: nothing further was written\n";
  size_t shown = 0;
  for (const auto& [code, tally] : ranked_codes(t)) {
    if (shown++ == 0) out += "most frequent diagnostics:\n";
    if (shown > 5) break;
    out += "  " + code_id(code) + " " + std::string(code_info(code).name) + ": " +
           std::to_string(tally->occurrences) + " in " + std::to_string(tally->scripts.count) +
           " scripts\n";
  }
  size_t failures = 0;
  for (const FileResult& r : run.files) {
    if (r.status != FileStatus::failed) continue;
    if (failures++ == 0) out += "failed:\n";
    if (failures > 10) continue;
    std::string name = r.display;
    for (char& c : name) {
      if (static_cast<unsigned char>(c) < 0x20) c = '?';
    }
    out += "  " + name + ": " + r.reason + "\n";
  }
  if (failures > 10) out += "  ... and " + std::to_string(failures - 10) + " more\n";
  if (!options.check && !run.interrupted) {
    out += "outputs: " + std::to_string(run.written.size()) + " written";
    if (run.unchanged != 0) {
      out += ", " + std::to_string(run.unchanged) + " already up to date (left untouched)";
    }
    if (run.removed != 0) {
      out += ", " + std::to_string(run.removed) +
             " earlier YAML removed (their scripts no longer convert)";
    }
    out += "\n";
    out += "reports: " + (options.out_dir / "migration-report.md").string() + ", " +
           (options.out_dir / "migration-report.json").string() + "\n";
  }
  return out;
}

}  // namespace s2a::batch
