// Process-count options and the literal counts behind them; see process_counts.hpp.
//
// Options are found in the text of each command (not only on recognized
// launcher lines) because launchers are often assembled in strings:
// `LAUNCHER="accelerate launch --num_processes $((SLURM_NNODES * GPUS_PER_NODE))"`.
#include "air/process_counts.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <tuple>
#include <utility>

#include "air/variables.hpp"

namespace s2a::air {
namespace {

using std::string_view_literals::operator""sv;

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

std::optional<uint64_t> to_count(std::string_view text) {
  if (text.empty() || text.size() > 18 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  return std::stoull(std::string(text));
}

/// Option names match with `-` and `_` interchangeable (--nproc-per-node).
bool same_option_name(std::string_view written, std::string_view name) {
  return written.size() == name.size() &&
         std::equal(written.begin(), written.end(), name.begin(),
                    [](char w, char n) { return w == n || (w == '-' && n == '_'); });
}

/// Which options count processes, and whether per node or in total.
std::optional<bool> count_option_is_total(std::string_view written) {
  for (std::string_view name : {"nproc_per_node"sv, "num_gpus"sv, "npernode"sv}) {
    if (same_option_name(written, name)) return false;
  }
  for (std::string_view name : {"num_processes"sv, "np"sv}) {
    if (same_option_name(written, name)) return true;
  }
  return std::nullopt;
}

/// The offset just past the `)` or `}` that closes the one at `open`, or `end`.
size_t skip_balanced(std::string_view text, size_t open, size_t end) {
  const char opening = text[open];
  const char closing = opening == '(' ? ')' : '}';
  int depth = 0;
  for (size_t k = open; k < end; ++k) {
    if (text[k] == opening) ++depth;
    if (text[k] == closing && --depth == 0) return k + 1;
  }
  return end;
}

/// The end of the option value starting at `begin`: one shell word, with
/// `$(...)`, `$((...))` and `${...}` kept whole and a leading quote kept to
/// its closing quote. A quote inside the value ends it: it closes the string
/// the option is written in.
size_t value_end(std::string_view text, size_t begin, size_t end) {
  size_t k = begin;
  while (k < end) {
    const char c = text[k];
    if (c == '$' && k + 1 < end && (text[k + 1] == '(' || text[k + 1] == '{')) {
      k = skip_balanced(text, k + 1, end);
      continue;
    }
    if ((c == '"' || c == '\'') && k == begin) {
      const size_t close = text.find(c, k + 1);
      k = close == std::string_view::npos || close >= end ? end : close + 1;
      continue;
    }
    if (c == '"' || c == '\'' || c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' ||
        c == '&' || c == '`' || c == ')' || (c == '\\' && k + 1 < end && text[k + 1] == '\n')) {
      break;
    }
    ++k;
  }
  return k;
}

/// Variables named in a value: `$X`, `${X...}`, and bare names inside `$((...))`.
std::vector<CountReference> references_in(std::string_view value) {
  std::vector<CountReference> out;
  auto add = [&](std::string_view name, bool arithmetic) {
    out.push_back({std::string(name), arithmetic});
  };
  size_t t = 0;
  while (t < value.size()) {
    if (value[t] != '$' || t + 1 >= value.size()) {
      ++t;
      continue;
    }
    if (value.compare(t, 3, "$((") == 0) {
      const size_t close = skip_balanced(value, t + 1, value.size());
      for (size_t k = t + 3; k < close; ++k) {
        if (!is_name_start(value[k]) || (k > 0 && is_variable_name_char(value[k - 1]))) continue;
        size_t e = k;
        while (e < close && is_variable_name_char(value[e])) ++e;
        add(value.substr(k, e - k), true);
        k = e;
      }
      t = close;
      continue;
    }
    size_t k = t + 1;
    if (value[k] == '{') ++k;
    if (k < value.size() && is_name_start(value[k])) {  // `${#nodes[@]}` is a length: skipped
      size_t e = k;
      while (e < value.size() && is_variable_name_char(value[e])) ++e;
      add(value.substr(k, e - k), false);
      t = e;
      continue;
    }
    t = k;
  }
  return out;
}

/// The value's number in the batch shell, for `8`, `$X`, `${X}`, `$((...))`.
std::optional<uint64_t> evaluate(std::string_view value, const ValueReader& reader, uint32_t at) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value = value.substr(1, value.size() - 2);
  }
  if (auto literal = to_count(value)) return literal;
  std::string_view expression;
  if (value.size() > 5 && value.compare(0, 3, "$((") == 0 &&
      value.compare(value.size() - 2, 2, "))") == 0 &&
      skip_balanced(value, 1, value.size()) == value.size()) {
    expression = value.substr(3, value.size() - 5);
  } else if (value.size() > 1 && value[0] == '$' &&
             std::all_of(value.begin() + 1, value.end(),
                         [](char c) { return is_variable_name_char(c) || c == '{' || c == '}'; })) {
    expression = value;  // the evaluator reads `$X` and `${X}` as atoms
  } else {
    return std::nullopt;
  }
  const ShellValue result = reader.arithmetic(expression, at);
  if (result.meaning == Meaning::job_id || result.meaning == Meaning::random) return std::nullopt;
  return result.number;
}

/// `${NAME:-8}` assigned to NAME itself (`GPUS_PER_NODE=${GPUS_PER_NODE:-8}`):
/// the default is the script's count unless the submitter exported one.
std::optional<std::pair<Span, uint64_t>> self_default(const std::vector<ast::WordPart>& parts,
                                                      std::string_view name) {
  const ast::WordPart* only = parts.size() == 1 ? &parts[0] : nullptr;
  if (only != nullptr && only->kind == ast::PartKind::double_quoted && only->parts.size() == 1) {
    only = &only->parts[0];
  }
  if (only == nullptr || only->kind != ast::PartKind::param || only->text != name ||
      !(only->op.rfind(":-", 0) == 0 || only->op.rfind('-', 0) == 0) || only->parts.size() != 1 ||
      only->parts[0].kind != ast::PartKind::literal) {
    return std::nullopt;
  }
  const auto number = to_count(only->parts[0].text);
  if (!number) return std::nullopt;
  return std::make_pair(only->parts[0].span, *number);
}

bool is_top_level(const slurm::Site& site) {
  const slurm::Context& c = site.context;
  return site.view == 0 && !c.in_function && !c.in_loop && !c.in_branch && !c.in_srun &&
         !c.in_substitution && !c.background;
}

bool is_distributed(slurm::Launcher kind) {
  return kind != slurm::Launcher::none && kind != slurm::Launcher::python;
}

bool names_launcher(std::string_view text) {
  for (std::string_view word : {"torchrun", "torch.distributed.", "accelerate", "deepspeed",
                                "mpirun", "mpiexec", "horovodrun"}) {
    if (text.find(word) != std::string_view::npos) return true;
  }
  return false;
}

/// Is `at` among the options of a launcher the command mapper reads? A
/// double-quoted `bash -c "..."` script is parsed from an unescaped copy, so
/// there only the quoted word is known: a launcher anywhere in it counts.
/// The file ranges the launcher mapper reads (each distributed launcher's
/// arguments), merged, so that a lookup is a binary search: a script may hold
/// thousands of launcher lines and options.
class LauncherLines {
 public:
  explicit LauncherLines(const slurm::Body& body) {
    std::vector<Span> spans;
    for (const slurm::Site& s : body.sites) {
      if (!is_distributed(s.launcher.kind) ||
          s.launcher.first_argument >= s.command->words.size()) {
        continue;
      }
      spans.push_back(body.file_span(
          s, Span{s.command->words[s.launcher.first_argument].span.begin, s.command->span.end}));
    }
    std::sort(spans.begin(), spans.end(), [](Span a, Span b) { return a.begin < b.begin; });
    for (const Span span : spans) {
      if (span.empty()) continue;
      if (!merged_.empty() && span.begin <= merged_.back().end) {
        merged_.back().end = std::max(merged_.back().end, span.end);
      } else {
        merged_.push_back(span);
      }
    }
  }

  [[nodiscard]] bool contain(uint32_t at) const {
    const auto after = std::upper_bound(merged_.begin(), merged_.end(), at,
                                        [](uint32_t offset, Span s) { return offset < s.begin; });
    return after != merged_.begin() && at < std::prev(after)->end;
  }

 private:
  std::vector<Span> merged_;  // disjoint, by start
};

}  // namespace

std::vector<LiteralCount> find_literal_counts(const slurm::Body& body) {
  std::vector<LiteralCount> out;
  const std::string_view text = body.views[0].text;
  for (const slurm::Site& site : body.sites) {
    if (!is_top_level(site)) continue;
    const ast::Command& command = *site.command;
    if (command.words.empty()) {
      for (const auto& a : command.assignments) {
        std::optional<uint64_t> number;
        Span value = a.value.span;
        if (!a.is_array) {
          if (const auto literal = slurm::literal_value(a.value)) number = to_count(*literal);
          if (const auto fallback = self_default(a.value.parts, a.name)) {
            std::tie(value, number) = *fallback;
          }
        }
        out.push_back({a.name, a.span.begin, value, number, &site});
      }
      continue;
    }
    if (site.program != "export" && site.program != "declare" && site.program != "typeset" &&
        site.program != "readonly") {
      continue;
    }
    for (size_t i = 1; i < command.words.size(); ++i) {
      const ast::Word& word = command.words[i];
      const std::string_view written = text.substr(word.span.begin, word.span.size());
      const size_t eq = written.find('=');
      if (eq == std::string_view::npos || eq == 0 || written.front() == '-') continue;
      const std::string_view name = written.substr(0, eq);
      if (!std::all_of(name.begin(), name.end(), is_variable_name_char)) continue;
      std::optional<uint64_t> number;
      if (const auto literal = slurm::literal_value(word)) {
        number = to_count(std::string_view(*literal).substr(literal->find('=') + 1));
      }
      Span value{static_cast<uint32_t>(word.span.begin + eq + 1), word.span.end};
      if (word.parts.size() == 2 && word.parts[0].kind == ast::PartKind::literal &&
          word.parts[0].span.end == value.begin) {  // `export NAME=${NAME:-8}`
        if (const auto fallback = self_default({word.parts[1]}, name)) {
          std::tie(value, number) = *fallback;
        }
      }
      out.push_back({std::string(name), word.span.begin, value, number, &site});
    }
  }
  return out;
}

LiteralCounts::LiteralCounts(std::vector<LiteralCount> counts) : counts_(std::move(counts)) {
  for (size_t i = 0; i < counts_.size(); ++i) by_name_.add(counts_[i].name, counts_[i].at, i);
}

const LiteralCount* LiteralCounts::at(std::string_view name, uint32_t at) const {
  const size_t* index = by_name_.last_before(name, at);
  if (index == nullptr) return nullptr;
  const LiteralCount& last = counts_[*index];
  return last.number ? &last : nullptr;
}

std::vector<ProcessCountOption> find_process_count_options(const slurm::Body& body,
                                                           const ValueReader& reader) {
  std::vector<ProcessCountOption> out;
  std::set<uint32_t> seen;
  const LauncherLines launcher_lines(body);
  for (const slurm::Site& site : body.sites) {
    const slurm::TextView& view = body.views[site.view];
    if (!view.exact) continue;  // its text is inside an exact word of view 0, read there
    const std::string_view text = view.text;
    const size_t begin = site.command->span.begin;
    const size_t end = std::min<size_t>(site.command->span.end, text.size());
    // From dash to dash (memchr), never past the command: options are a
    // small part of the text.
    const std::string_view command = text.substr(0, end);
    for (size_t i = command.find('-', begin); i < end; i = command.find('-', i + 1)) {
      const char before = i == begin ? ' ' : text[i - 1];
      if (before != ' ' && before != '\t' && before != '\n' && before != '"' && before != '\'') {
        continue;
      }
      size_t j = i;
      while (j < end && text[j] == '-') ++j;
      if (j - i > 2) continue;
      // Every count option's name starts with `n`: most dashes end here. (A
      // dash inside the name is never an option start: a name character or
      // a dash is before it.)
      if (j >= end || text[j] != 'n') continue;
      const size_t name_begin = j;
      while (j < end && (is_variable_name_char(text[j]) || text[j] == '-')) ++j;
      const std::optional<bool> total =
          count_option_is_total(text.substr(name_begin, j - name_begin));
      const size_t option_begin = i;
      i = j - 1;
      if (!total || j >= end) continue;
      std::string written(text.substr(option_begin, j - option_begin));
      size_t v = j;
      written.push_back(text[v] == '=' ? '=' : ' ');
      if (text[v] == '=') {
        ++v;
      } else {
        while (v < end && (text[v] == ' ' || text[v] == '\t' || text[v] == '\n' ||
                           (text[v] == '\\' && v + 1 < end && text[v + 1] == '\n'))) {
          v += text[v] == '\\' ? 2 : 1;
        }
        if (v == j) continue;
      }
      const size_t v_end = value_end(text, v, end);
      const auto at = static_cast<uint32_t>(option_begin);
      if (v_end == v || !seen.insert(at).second) continue;
      ProcessCountOption option;
      option.written = std::move(written);
      option.total = *total;
      option.span = Span{at, static_cast<uint32_t>(v_end)};
      option.value = Span{static_cast<uint32_t>(v), static_cast<uint32_t>(v_end)};
      const std::string_view value = text.substr(v, v_end - v);
      option.number = evaluate(value, reader, at);
      option.references = references_in(value);
      option.in_launcher_site = launcher_lines.contain(at);
      option.after_launcher_word = names_launcher(text.substr(begin, option_begin - begin));
      out.push_back(std::move(option));
    }
  }
  std::sort(out.begin(), out.end(), [](const ProcessCountOption& a, const ProcessCountOption& b) {
    return a.span.begin < b.span.begin;
  });
  return out;
}

}  // namespace s2a::air
