// The corpus: realistic scripts written for this project (corpus/README.md).
// Each must translate without an internal error, nothing may be dropped
// silently, and the job model must agree with corpus/expected-gpus.tsv, a
// hand-written reading of each script by sbatch's rules.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "support/run_process.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

namespace fs = std::filesystem;
const fs::path kCorpus = fs::path(SLURM2AIR_SOURCE_DIR) / "corpus";

std::vector<std::string> corpus_files() {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(kCorpus)) {
    const auto ext = entry.path().extension();
    if (entry.is_regular_file() && (ext == ".sbatch" || ext == ".sh")) {
      files.push_back(fs::relative(entry.path(), kCorpus).string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

Translation translate_corpus_file(const std::string& name) {
  return translate(name, testing::read_file((kCorpus / name).string()));
}

bool diagnosed_at(const Translation& t, Span span) {
  return std::any_of(t.diagnostics.begin(), t.diagnostics.end(), [&](const Diagnostic& d) {
    return d.span.begin < std::max(span.end, span.begin + 1) &&
           span.begin < std::max(d.span.end, d.span.begin + 1);
  });
}

class Corpus : public ::testing::TestWithParam<std::string> {};

TEST_P(Corpus, TranslatesWithoutInternalError) {
  const Translation t = translate_corpus_file(GetParam());
  for (const Diagnostic& d : t.diagnostics) {
    EXPECT_NE(d.code, Code::internal_error) << d.message;
  }
  EXPECT_TRUE(t.workload.has_value());
}

TEST_P(Corpus, EveryDirectiveIsMappedOrReported) {
  const Translation t = translate_corpus_file(GetParam());
  ASSERT_EQ(t.directives.size(), t.scan.options.size());
  for (const DirectiveOutcome& outcome : t.directives) {
    if (outcome.status == DirectiveStatus::mapped) continue;
    EXPECT_TRUE(diagnosed_at(t, outcome.option->span))
        << GetParam() << ": " << outcome.option->spelling << " is " << status_name(outcome.status)
        << " but has no diagnostic";
  }
}

TEST_P(Corpus, EveryLineThatLooksLikeADirectiveIsReadOrReported) {
  const Translation t = translate_corpus_file(GetParam());
  for (uint32_t line = 1; line <= t.file->line_count(); ++line) {
    const std::string_view text = t.file->line_text(line);
    const size_t first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos || text[first] != '#') continue;
    std::string upper(text);
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    // `#SBATCH --x`, `# SBATCH -N2`, `##sbatch --x`: a directive, maybe disabled.
    const size_t at = upper.find("SBATCH");
    if (at == std::string::npos || upper.find_first_not_of("# \t", first) != at) continue;
    const size_t next = upper.find_first_not_of(" \t", at + 6);
    if (next == std::string::npos || upper[next] != '-') continue;
    const Span span = t.file->line_span(line);
    const bool read = std::any_of(t.scan.directive_lines.begin(), t.scan.directive_lines.end(),
                                  [&](Span s) { return s.begin == span.begin; });
    EXPECT_TRUE(read || diagnosed_at(t, span)) << GetParam() << ":" << line << ": " << text;
  }
}

// Every edit keeps the shell valid: a removed statement that was a block's
// only one, a node guard around `cmd;`, an unwrapped `bash -c` script.
TEST_P(Corpus, TranslatedCommandIsValidBash) {
  const Translation t = translate_corpus_file(GetParam());
  ASSERT_TRUE(t.workload.has_value());
  const testing::ProcessResult bash = testing::check_bash_syntax(t.workload->command);
  EXPECT_EQ(bash.exit_code, 0) << GetParam() << ":\n" << bash.err << t.workload->command;
}

INSTANTIATE_TEST_SUITE_P(Scripts, Corpus, ::testing::ValuesIn(corpus_files()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(Corpus, HasAtLeastFortyScripts) { EXPECT_GE(corpus_files().size(), 40u); }

std::string or_dash(const std::optional<uint64_t>& value) {
  return value ? std::to_string(*value) : "-";
}

TEST(Corpus, JobModelAgreesWithTheHandWrittenReading) {
  std::ifstream tsv(kCorpus / "expected-gpus.tsv");
  std::string header;
  std::getline(tsv, header);
  int rows = 0;
  for (std::string row; std::getline(tsv, row);) {
    std::istringstream fields(row);
    std::string file, nodes, per_node, type, total, minutes, type_from;
    std::getline(fields, file, '\t');
    std::getline(fields, nodes, '\t');
    std::getline(fields, per_node, '\t');
    std::getline(fields, type, '\t');
    std::getline(fields, total, '\t');
    std::getline(fields, minutes, '\t');
    std::getline(fields, type_from, '\t');
    if (file.find('#') != std::string::npos) continue;  // later het-job components
    ++rows;
    const Translation t = translate_corpus_file(file);
    const slurm::Job& job = t.job;
    SCOPED_TRACE(file);
    const std::string node_text =
        job.nodes && job.nodes->value.min != job.nodes->value.max
            ? std::to_string(job.nodes->value.min) + "-" + std::to_string(job.nodes->value.max)
            : std::to_string(job.node_count().value_or(1));
    EXPECT_EQ(nodes, node_text);
    if (per_node == "all") {
      ASSERT_TRUE(job.gpus.has_value());
      EXPECT_EQ(job.gpus->scope, slurm::GpuScope::exclusive_node);
    } else if (total.find('-') == std::string::npos) {
      EXPECT_EQ(per_node, job.gpus ? or_dash(job.gpus_per_node()) : "0");
      EXPECT_EQ(total, job.gpus ? or_dash(job.total_gpus()) : "0");
    }
    if (type_from == "request") {
      EXPECT_EQ(type, job.gpu_type());
    }
    const std::string time =
        job.time && !job.time->value.unlimited ? std::to_string(job.time->value.minutes) : "-";
    EXPECT_EQ(minutes, time);
  }
  EXPECT_GE(rows, 40);
}

}  // namespace
}  // namespace s2a
