// sbatch's #PBS/#BSUB translation (Slurm's opt.c _set_pbs_options(),
// _parse_pbs_resource_list(), _set_bsub_options(); spec §1.6).
//
// The line is tokenized like an #SBATCH line, then read with a getopt over
// the foreign option letters; what sbatch maps becomes an Option with the
// sbatch spec it maps to, so last-one-wins and the value grammars apply.
#include "directives/pbs.hpp"

#include <algorithm>
#include <string>

#include "directives/text_util.hpp"
#include "source/ascii.hpp"

namespace s2a::directives::detail {
namespace {

/// One foreign option occurrence: letter (or word), value and their spans.
struct ForeignOption {
  std::string name;                  // "N", "l", "cwd"
  std::optional<std::string> value;  // absent for flags
  const Word* value_word = nullptr;  // where the value came from
  size_t value_offset = 0;           // value's first byte within value_word->text
  Span span;                         // option through value
};

class Translator {
 public:
  Translator(BatchFamily family, std::string_view body, uint32_t base) : family_(family) {
    words_ = tokenize_directive(body, base, out_.diagnostics);
  }

  ForeignTranslation run() {
    for (const ForeignOption& option : read_options()) apply(option);
    return std::move(out_);
  }

 private:
  // Letters with an argument; everything else sbatch's getopt knows is a flag.
  static constexpr std::string_view kPbsWithArg = "aAcCejJklmMNopqrStuvW";
  static constexpr std::string_view kPbsFlags = "hIVz";
  static constexpr std::string_view kBsubWithArg = "eJmMnoqW";
  static constexpr std::string_view kBsubFlags = "x";

  std::vector<ForeignOption> read_options() {
    const std::string_view with_arg = family_ == BatchFamily::pbs ? kPbsWithArg : kBsubWithArg;
    const std::string_view flags = family_ == BatchFamily::pbs ? kPbsFlags : kBsubFlags;
    std::vector<ForeignOption> options;
    for (size_t k = 0; k < words_.size(); ++k) {
      const Word& word = words_[k];
      // getopt with "+": the first word that is not an option ends the line.
      if (word.text.size() < 2 || word.text[0] != '-' || word.text == "--") break;
      if (family_ == BatchFamily::bsub && word.text == "-cwd") {
        if (k + 1 >= words_.size()) break;
        options.push_back({"cwd",
                           words_[k + 1].text,
                           &words_[k + 1],
                           0,
                           {word.span.begin, words_[k + 1].span.end}});
        ++k;
        continue;
      }
      for (size_t i = 1; i < word.text.size(); ++i) {
        const char letter = word.text[i];
        if (with_arg.find(letter) != std::string_view::npos) {
          if (i + 1 < word.text.size()) {
            options.push_back(
                {std::string(1, letter), word.text.substr(i + 1), &word, i + 1, word.span});
          } else if (k + 1 < words_.size()) {
            ++k;
            options.push_back({std::string(1, letter),
                               words_[k].text,
                               &words_[k],
                               0,
                               {word.span.begin, words_[k].span.end}});
          }
          break;
        }
        if (flags.find(letter) != std::string_view::npos) {
          options.push_back({std::string(1, letter), std::nullopt, nullptr, 0, word.span});
        } else {
          out_.unused.push_back("-" + std::string(1, letter));
        }
      }
    }
    return options;
  }

  void apply(const ForeignOption& option) {
    if (family_ == BatchFamily::pbs) {
      apply_pbs(option);
    } else {
      apply_bsub(option);
    }
  }

  void apply_pbs(const ForeignOption& o) {
    const std::string& v = o.value.value_or("");
    switch (o.name[0]) {
      case 'a':
        return add("begin", o, v);
      case 'A':
        return add("account", o, v);
      case 'e':
        return add("error", o, v);
      case 'h':
        return add("hold", o, std::nullopt);
      case 'J':
      case 't':
        return add("array", o, v);
      case 'l':
        return apply_resource_list(o);
      case 'm':
        if (const std::string types = pbs_mail_types(v); !types.empty()) {
          return add("mail-type", o, std::optional<std::string>(types));
        }
        break;
      case 'M':
        return add("mail-user", o, v);
      case 'N':
        return add("job-name", o, v);
      case 'o':
        return add("output", o, v);
      case 'p':
        return add("nice", o, v);
      case 'q':
        return add("partition", o, v);
      case 'v':
        return add("export", o, v);
      case 'W':
        if (istarts_with(v, "depend=")) return add("dependency", o, v.substr(7), 7);
        break;
      default:
        break;
    }
    out_.unused.push_back("-" + o.name);
  }

  void apply_bsub(const ForeignOption& o) {
    const std::string& v = o.value.value_or("");
    if (o.name == "cwd") return add("chdir", o, v);
    switch (o.name[0]) {
      case 'e':
        return add("error", o, v);
      case 'J':
        return add("job-name", o, v);
      case 'o':
        return add("output", o, v);
      case 'q':
        return add("partition", o, v);
      case 'W':
        report_lsf_hours(o, v);
        return add("time", o, v);
      case 'x':
        return add("exclusive", o, std::nullopt);
      case 'm':
        return add("nodelist", o, v);
      case 'M':  // LSF's default unit is KB
        return add("mem-per-cpu", o, std::optional<std::string>(v + "K"));
      case 'n': {
        // "-n min,max": sbatch takes the larger number.
        const size_t comma = v.find(',');
        return add("ntasks", o, comma == std::string::npos ? v : v.substr(comma + 1), 0);
      }
      default:
        break;
    }
    out_.unused.push_back("-" + o.name);
  }

  /// LSF's `-W H:M` is hours and minutes; sbatch passes the text on as
  /// --time, and Slurm reads one colon as minutes and seconds. The limit
  /// follows Slurm, so a 2-hour job now stops after 2 minutes: said loudly.
  void report_lsf_hours(const ForeignOption& o, std::string_view value) {
    const size_t colon = value.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == value.size() ||
        value.size() > 12 || value.find(':', colon + 1) != std::string_view::npos) {
      return;
    }
    const std::string_view hours = value.substr(0, colon);
    const std::string_view minutes = value.substr(colon + 1);
    const auto digits = [](std::string_view t) {
      return std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    if (!digits(hours) || !digits(minutes)) return;
    // The same two numbers: LSF's hours and minutes, Slurm's minutes and seconds.
    const uint64_t lsf = to_count(std::string(hours)) * 60 + to_count(std::string(minutes));
    const uint64_t slurm = (lsf + 59) / 60;  // Slurm rounds seconds up to a minute
    const std::string written(value);
    out_.diagnostics.push_back(
        {Code::lsf_wall_time_in_hours, o.span,
         "LSF reads `-W " + written + "` as hours:minutes (" + std::to_string(lsf) +
             " minutes), but sbatch passes it on as --time=" + written +
             ", which Slurm reads as minutes:seconds: the limit, and timeout_minutes, is " +
             std::to_string(slurm) + " minute(s)",
         "write the limit LSF meant as `#SBATCH --time=" + std::string(hours) + ":" +
             std::string(minutes) +
             ":00` and remove the `#BSUB -W` line (#BSUB lines override "
             "#SBATCH ones)"});
  }

  /// -m: a = abort (FAIL), b = begin, e = end, n = none; letters combine.
  static std::string pbs_mail_types(std::string_view letters) {
    std::string types;
    auto add_type = [&](std::string_view type) {
      types += (types.empty() ? "" : ",") + std::string(type);
    };
    if (letters.find('a') != std::string_view::npos) add_type("FAIL");
    if (letters.find('b') != std::string_view::npos) add_type("BEGIN");
    if (letters.find('e') != std::string_view::npos) add_type("END");
    if (types.empty() && letters.find('n') != std::string_view::npos) add_type("NONE");
    return types;
  }

  /// What one -l list requests beyond plain key=value options.
  struct Resources {
    uint64_t gpus = 0;
    std::optional<uint64_t> nodes;
    std::optional<uint64_t> ppn;
    bool select = false;  // PBS Pro form
    std::optional<uint64_t> ncpus;
    std::optional<uint64_t> mpiprocs;
  };

  // -l name=value[,name=value...]; nodes= and select= carry ':'-separated
  // parts (nodes=2:ppn=4:gpus=1, select=2:ncpus=8:mpiprocs=4). What sbatch
  // does with them was checked against Slurm 22.05 (tests/conformance, pbs-*).
  void apply_resource_list(const ForeignOption& o) {
    const std::string& list = o.value.value_or("");
    Resources r;
    size_t begin = 0;
    while (begin <= list.size()) {
      const size_t end = std::min(list.find(',', begin), list.size());
      apply_resource(o, list.substr(begin, end - begin), begin, r);
      begin = end + 1;
    }
    // nodes=N:ppn=P asks for N*P tasks (not P per node).
    if (r.ppn)
      add("ntasks", o, std::optional<std::string>(std::to_string(r.nodes.value_or(1) * *r.ppn)));
    // select=N:ncpus=C:mpiprocs=P: C CPUs per node shared by P tasks.
    if (r.select && r.ncpus && r.mpiprocs && *r.mpiprocs > 0 && *r.ncpus > *r.mpiprocs) {
      add("cpus-per-task", o, std::optional<std::string>(std::to_string(*r.ncpus / *r.mpiprocs)));
    }
    if (r.gpus > 0) add("gres", o, std::optional<std::string>("gpu:" + std::to_string(r.gpus)));
  }

  void apply_resource(const ForeignOption& o, const std::string& item, size_t at, Resources& r) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos) return;
    const std::string key = ascii_lower(item.substr(0, eq));
    const std::string value = item.substr(eq + 1);
    const size_t value_at = at + eq + 1;
    if (key == "nodes" || key == "select") {
      r.select = r.select || key == "select";
      apply_node_spec(o, value, value_at, r);
    } else if (key == "walltime" || key == "cput" || key == "pcput") {
      add("time", o, value, value_at);
    } else if (key == "mem") {
      add("mem", o, value, value_at);
    } else if (key == "ncpus") {
      r.ncpus = to_count(value);
      add("mincpus", o, value, value_at);
    } else if (key == "mpiprocs") {
      r.mpiprocs = to_count(value);
      add("ntasks-per-node", o, value, value_at);
    } else if (key == "naccelerators" || key == "ngpus" || key == "gpus") {
      r.gpus = to_count(value);
    } else if (key == "accelerator") {
      if (istarts_with(value, "true") && r.gpus < 1) r.gpus = 1;
    } else if (key == "proc") {
      add("constraint", o, value, value_at);
    } else if (key == "file") {
      add("tmp", o, value, value_at);
    } else if (key == "nice") {
      add("nice", o, value, value_at);
    } else {
      // pmem, vmem, arch, host, software, ...: sbatch 22.05 drops them.
      out_.unused.push_back("-l " + key);
    }
  }

  /// nodes=N[:ppn=P][:gpus=G]... (Torque) or select=N[:ncpus=C][:mpiprocs=P]... (PBS Pro).
  void apply_node_spec(const ForeignOption& o, const std::string& spec, size_t at, Resources& r) {
    size_t begin = 0;
    bool first = true;
    while (begin <= spec.size()) {
      const size_t end = std::min(spec.find(':', begin), spec.size());
      const std::string part = spec.substr(begin, end - begin);
      if (first) {
        // A node name instead of a count (nodes=node01) is not a count sbatch takes.
        if (!part.empty() && part.find_first_not_of("0123456789") == std::string::npos) {
          r.nodes = to_count(part);
          add("nodes", o, part, at + begin);
        }
        first = false;
      } else if (istarts_with(part, "ppn=")) {
        r.ppn = to_count(part.substr(4));
      } else {
        apply_resource(o, part, at + begin, r);
      }
      begin = end + 1;
    }
  }

  static uint64_t to_count(const std::string& text) {
    uint64_t value = 0;
    for (char c : text) {
      if (c < '0' || c > '9') break;
      if (value > 1000000) return value;  // absurd counts stay absurd, without overflow
      value = value * 10 + static_cast<uint64_t>(c - '0');
    }
    return value;
  }

  /// Adds the sbatch option `name`; `value_at` is where the value starts in
  /// the foreign option's value (npos: the value is synthesized, point at the
  /// whole foreign option).
  void add(std::string_view name, const ForeignOption& o, std::optional<std::string> value,
           size_t value_at = std::string::npos) {
    const OptionSpec* spec = sbatch_options().find(name);
    if (spec == nullptr) return;
    Option option;
    option.spec = spec;
    option.spelling = (family_ == BatchFamily::pbs ? "#PBS -" : "#BSUB -") + o.name;
    option.value = std::move(value);
    option.span = o.span;
    option.value_span = o.span;
    if (o.value_word != nullptr && value_at != std::string::npos && option.value) {
      const size_t first = o.value_offset + value_at;
      const size_t last = std::min(first + option.value->size(), o.value_word->text.size());
      if (first <= last) {
        option.value_span = {o.value_word->source_offset(first), o.value_word->source_offset(last)};
      }
    }
    out_.options.push_back(std::move(option));
  }

  void add(std::string_view name, const ForeignOption& o, const std::string& value) {
    add(name, o, std::optional<std::string>(value), 0);
  }

  BatchFamily family_;
  std::vector<Word> words_;
  ForeignTranslation out_;
};

}  // namespace

ForeignTranslation translate_foreign_line(BatchFamily family, std::string_view body,
                                          uint32_t base) {
  return Translator(family, body, base).run();
}

}  // namespace s2a::directives::detail
