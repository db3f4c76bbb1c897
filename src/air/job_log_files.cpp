#include "air/job_log_files.hpp"

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

}  // namespace

void report_job_log_reads(const slurm::Body& body, const slurm::Job& job,
                          Diagnostics& diagnostics) {
  if (body.views.empty() || !mentions_job_id(body.views[0].text)) return;
  const std::string_view job_name = job.name ? std::string_view(job.name->value) : ""sv;
  const bool array = job.array.has_value();
  // stderr goes where stdout does unless --error says otherwise.
  const directives::Option* output = job.final_option("output");
  const directives::Option* error = job.final_option("error");
  std::vector<std::pair<std::string, std::string>> files;  // spelling, as the option gave it
  std::vector<const directives::Option*> options{output};
  if (error != nullptr && error->value) options.push_back(error);
  for (const directives::Option* given : options) {
    const std::string pattern = given != nullptr && given->value
                                    ? *given->value
                                    : (array ? "slurm-%A_%a.out" : "slurm-%j.out");
    const std::string shown = given != nullptr && given->value
                                  ? "--" + std::string(given->name()) + "=" + pattern
                                  : "Slurm's default " + pattern;
    for (std::string& spelling : spellings(pattern, job_name)) {
      files.emplace_back(std::move(spelling), shown);
    }
  }
  if (files.empty()) return;
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
             "read the run's output with `databricks air logs <run-id>` once it ends; to use it "
             "inside the job, tee the program's output to a file (`python train.py 2>&1 | tee "
             "/tmp/train.log`) and read that"});
        return true;
      }
      return false;
    };
    bool reported = false;
    for (const ast::Word& word : site.command->words) {
      if (!reported) reported = report(word.span);
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
