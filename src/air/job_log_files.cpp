#include "air/job_log_files.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s2a::air {
namespace {

using namespace std::string_view_literals;

/// The job's output file paths as the script would spell them: the
/// pattern with its job-specific fields as variables (`logs/%x-%j.out` ->
/// `logs/$SLURM_JOB_NAME-$SLURM_JOB_ID.out`, and with the job's name written
/// out). Empty when the pattern has no %j or %A (nothing ties a file name to
/// this job), a file name of fields alone (`%j`: a word `$SLURM_JOB_ID` is
/// not a file), or a field with no variable (%N, %t, %4a).
std::vector<std::string> spellings(std::string_view pattern, std::string_view job_name) {
  const std::string_view file_name = pattern.substr(pattern.find_last_of('/') + 1);
  bool literal_in_name = false;
  for (size_t i = 0; i < file_name.size(); ++i) {
    if (file_name[i] == '%') {
      ++i;
    } else {
      literal_in_name = true;
    }
  }
  if (!literal_in_name) return {};
  std::vector<std::string> out(job_name.empty() ? 1 : 2);
  bool tied_to_job = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      for (std::string& s : out) s.push_back(pattern[i]);
      continue;
    }
    const char field = i + 1 < pattern.size() ? pattern[++i] : '\0';
    std::string_view variable;
    switch (field) {
      case '%':
        variable = "%";
        break;
      case 'j':
        variable = "$SLURM_JOB_ID";
        tied_to_job = true;
        break;
      case 'A':
        variable = "$SLURM_ARRAY_JOB_ID";
        tied_to_job = true;
        break;
      case 'a':
        variable = "$SLURM_ARRAY_TASK_ID";
        break;
      case 'u':
        variable = "$USER";
        break;
      case 'x':
        out[0] += "$SLURM_JOB_NAME";
        if (out.size() > 1) out[1] += job_name;
        continue;
      default:
        return {};
    }
    for (std::string& s : out) s += variable;
  }
  if (!tied_to_job) return {};
  return out;
}

/// A word as written with its quotes gone, `${NAME}` as `$NAME`, and
/// SLURM_JOBID (the older name) as SLURM_JOB_ID.
std::string canonical(std::string_view written) {
  std::string out;
  for (size_t i = 0; i < written.size(); ++i) {
    const char c = written[i];
    if (c == '"' || c == '\'') continue;
    if (c == '$' && i + 1 < written.size() && written[i + 1] == '{') {
      const size_t close = written.find('}', i);
      const std::string_view name = written.substr(i + 2, close - i - 2);
      if (close != std::string_view::npos &&
          name.find_first_not_of(
              "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") ==
              std::string_view::npos) {
        out += '$';
        out += name;
        i = close;
        continue;
      }
    }
    out.push_back(c);
  }
  for (size_t at = out.find("$SLURM_JOBID"); at != std::string::npos;
       at = out.find("$SLURM_JOBID", at)) {
    out.replace(at, 12, "$SLURM_JOB_ID");
  }
  return out;
}

/// `text` names the file: it is the path, or ends with `/` and the path (a
/// relative pattern under $SLURM_SUBMIT_DIR/ or ./).
bool names_file(std::string_view text, std::string_view name) {
  return text.ends_with(name) &&
         (text.size() == name.size() || text[text.size() - name.size() - 1] == '/');
}

/// Cheap look first: a job-specific name needs $SLURM_JOB... or $SLURM_ARRAY_JOB_ID.
bool mentions_job_id(std::string_view text) {
  for (size_t at = text.find('$'); at != std::string_view::npos; at = text.find('$', at + 1)) {
    std::string_view rest = text.substr(at + 1);
    if (rest.starts_with('{')) rest.remove_prefix(1);
    if (rest.starts_with("SLURM_JOB") || rest.starts_with("SLURM_ARRAY_JOB_ID")) return true;
  }
  return false;
}

/// One of the job's output files as a glob over its directory can match it:
/// the directory as the script would write it and a name the file could
/// have (`logs/%x-%j.out` -> `logs`, `train-4242.out`).
struct LogName {
  std::string dir;  // "" for the submit directory
  std::string sample;
  bool slurm_default = false;  // slurm-%j.out: only a glob that starts with `slurm` means it
  std::string shown;
};

/// `./`, `$SLURM_SUBMIT_DIR/` and `$PWD/` at the start name the submit
/// directory, where the batch shell starts and relative patterns point.
std::string_view without_submit_dir(std::string_view path) {
  for (bool stripped = true; stripped;) {
    stripped = false;
    for (std::string_view start : {"./"sv, "$SLURM_SUBMIT_DIR/"sv, "$PWD/"sv}) {
      if (path.starts_with(start)) {
        path.remove_prefix(start.size());
        stripped = true;
      }
    }
  }
  return path;
}

/// The pattern's directory and a name with its fields filled in; none when
/// the directory has a field (`%u/logs`: the glob would need a variable).
std::optional<LogName> log_name(std::string_view pattern, std::string_view job_name,
                                bool slurm_default, std::string shown) {
  const size_t slash = pattern.find_last_of('/');
  const std::string_view dir =
      slash == std::string_view::npos ? ""sv : without_submit_dir(pattern.substr(0, slash));
  if (dir.find('%') != std::string_view::npos) return std::nullopt;
  LogName log{std::string(dir), {}, slurm_default, std::move(shown)};
  const std::string_view name = pattern.substr(slash + 1);
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] != '%') {
      log.sample.push_back(name[i]);
      continue;
    }
    const char field = i + 1 < name.size() ? name[++i] : '\0';
    if (field == '%') {
      log.sample.push_back('%');
    } else if (field == 'x') {
      log.sample += job_name.empty() ? "job"sv : job_name;
    } else {
      log.sample += "4242";  // %j, %A, %a, %t, %N...: any glob over the field has a `*`
    }
  }
  return log;
}

/// Whether an unquoted part of the word has a glob character: `slurm*` is
/// expanded by the shell, `"slurm-*.out"` (find -name's pattern) is not.
bool has_glob(const ast::Word& word) {
  return std::any_of(word.parts.begin(), word.parts.end(), [](const ast::WordPart& part) {
    return part.kind == ast::PartKind::literal &&
           part.text.find_first_of("*?[") != std::string::npos;
  });
}

/// A glob (quotes gone, `${X}` as `$X`) that matches the log file and can
/// mean nothing else: in the log's directory, with a name that matches the
/// file's, and for Slurm's default name one that starts with `slurm`
/// (`slurm*`, `slurm-*.out`; `*.out` alone is as often a program's output).
bool glob_names_log(std::string_view glob, const LogName& log) {
  glob = without_submit_dir(glob);
  const size_t slash = glob.find_last_of('/');
  const std::string_view dir = slash == std::string_view::npos ? ""sv : glob.substr(0, slash);
  const std::string name(glob.substr(slash + 1));
  if (dir != log.dir || name.find('$') != std::string::npos ||
      name.find_first_not_of("*?") == std::string::npos) {
    return false;
  }
  if (log.slurm_default && !name.starts_with("slurm")) return false;
  return ::fnmatch(name.c_str(), log.sample.c_str(), 0) == 0;
}

constexpr bool ends_word(char c) {
  switch (c) {
    case ' ':
    case '\t':
    case '\n':
    case ';':
    case '&':
    case '|':
    case '(':
    case ')':
    case '<':
    case '>':
    case '`':
      return true;
    default:
      return false;
  }
}

/// Whether some word of `text` around a `*` is a glob naming one of the
/// logs: one pass over the text, so that scripts with no such glob (all but
/// a few) skip the look at each command's words. (A glob of `?` alone is
/// not looked for.)
bool mentions_log_glob(std::string_view text, const std::vector<LogName>& logs) {
  for (size_t at = text.find('*'); at != std::string_view::npos; at = text.find('*', at)) {
    size_t begin = at;
    while (begin > 0 && !ends_word(text[begin - 1])) --begin;
    size_t end = at;
    while (end < text.size() && !ends_word(text[end])) ++end;
    const std::string glob = canonical(text.substr(begin, end - begin));
    for (const LogName& log : logs) {
      if (glob_names_log(glob, log)) return true;
    }
    at = end;
  }
  return false;
}

/// Commands whose glob over the log reads nothing that matters: a message,
/// a test of a name, a removal (there is nothing to remove on AI Runtime
/// either).
bool ignores_glob(std::string_view program) {
  constexpr std::array kPrograms = {"echo"sv, "printf"sv, "rm"sv, "["sv, "test"sv};
  return std::find(kPrograms.begin(), kPrograms.end(), program) != kPrograms.end();
}

}  // namespace

void report_job_log_reads(const slurm::Body& body, const slurm::Job& job,
                          Diagnostics& diagnostics) {
  if (body.views.empty()) return;
  const bool job_specific = mentions_job_id(body.views[0].text);
  const bool globs = body.views[0].text.find('*') != std::string_view::npos;
  if (!job_specific && !globs) return;
  const std::string_view job_name = job.name ? std::string_view(job.name->value) : ""sv;
  const bool array = job.array.has_value();
  // stderr goes where stdout does unless --error says otherwise.
  const directives::Option* output = job.final_option("output");
  const directives::Option* error = job.final_option("error");
  std::vector<std::pair<std::string, std::string>> files;  // spelling, as the option gave it
  std::vector<LogName> logs;                               // for globs
  std::vector<const directives::Option*> options{output};
  if (error != nullptr && error->value) options.push_back(error);
  for (const directives::Option* given : options) {
    const bool set = given != nullptr && given->value;
    const std::string pattern = set ? *given->value : (array ? "slurm-%A_%a.out" : "slurm-%j.out");
    const std::string shown =
        set ? "--" + std::string(given->name()) + "=" + pattern : "Slurm's default " + pattern;
    if (job_specific) {
      for (std::string& spelling : spellings(pattern, job_name)) {
        files.emplace_back(std::move(spelling), shown);
      }
    }
    if (globs) {
      if (std::optional<LogName> log = log_name(pattern, job_name, !set, shown)) {
        logs.push_back(std::move(*log));
      }
    }
  }
  if (!logs.empty() && !mentions_log_glob(body.views[0].text, logs)) logs.clear();
  if (files.empty() && logs.empty()) return;
  const std::string hint =
      "read the run's output with `databricks air logs <run-id>` once it ends; to use it "
      "inside the job, tee the program's output to a file (`python train.py 2>&1 | tee "
      "/tmp/train.log`) and read that";
  for (const slurm::Site& site : body.sites) {
    if (site.program == "echo"sv || site.program == "printf"sv) continue;
    const std::string_view text = body.views[site.view].text;
    const auto report = [&](Span span) {
      const std::string_view written = text.substr(span.begin, span.size());
      // Most words: every spelling has $SLURM_JOB_ID or $SLURM_ARRAY_JOB_ID,
      // whose J canonical() keeps (it only drops quotes and braces).
      if (written.find('J') == std::string_view::npos) return false;
      if (written.find('$') == std::string_view::npos) return false;
      const std::string word = canonical(written);
      for (const auto& [spelling, shown] : files) {
        if (!names_file(word, spelling)) continue;
        diagnostics.push_back(
            {Code::reads_job_log_file, body.file_span(site, span),
             "`" + std::string(written) + "` is the job's own output file (" + shown +
                 "), which Slurm wrote while the script ran; AI Runtime collects stdout and "
                 "stderr itself and writes no such file, so it is not there",
             hint});
        return true;
      }
      return false;
    };
    // `grep -q ERROR slurm*`, `mv ./*.out ./return/` with --output=run.out.
    const auto report_glob = [&](const ast::Word& word) {
      if (!has_glob(word)) return false;
      const std::string_view written = text.substr(word.span.begin, word.span.size());
      const std::string glob = canonical(written);
      for (const LogName& log : logs) {
        if (!glob_names_log(glob, log)) continue;
        diagnostics.push_back(
            {Code::reads_job_log_file, body.file_span(site, word.span),
             "`" + std::string(written) + "` matches the job's own output file (" + log.shown +
                 "), which Slurm wrote while the script ran; AI Runtime collects stdout and "
                 "stderr itself and writes no such file, so the glob finds no log there",
             hint});
        return true;
      }
      return false;
    };
    const auto& words = site.command->words;
    const bool glob_reads = !logs.empty() && !ignores_glob(site.program);
    bool reported = false;
    for (size_t i = 0; i < words.size() && !reported; ++i) {
      reported = report(words[i].span);
      // Not the program, nor what `--exclude` leaves out.
      if (!reported && glob_reads && i > 0 &&
          text.substr(words[i - 1].span.begin, words[i - 1].span.size()) != "--exclude"sv) {
        reported = report_glob(words[i]);
      }
    }
    for (const ast::Assignment& a : site.command->assignments) {
      if (!reported) reported = report(a.value.span);
    }
    for (const ast::Redirect& r : site.command->redirects) {
      if (!reported && r.op == "<") reported = report(r.target.span);
    }
  }
}

}  // namespace s2a::air
