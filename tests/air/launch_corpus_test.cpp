// Over the whole corpus: no Slurm client command may stay in the emitted
// command unreported. Every remaining `srun`, `scontrol`, `squeue`, `sbcast`
// or `sbatch` word must be covered by a diagnostic whose span holds it.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>

#include "support/run_process.hpp"
#include "translate.hpp"

namespace s2a {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> corpus_scripts() {
  std::vector<std::string> files;
  const fs::path root = fs::path(SLURM2AIR_SOURCE_DIR) / "corpus";
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const auto ext = entry.path().extension();
    if (entry.is_regular_file() && (ext == ".sbatch" || ext == ".sh")) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

const std::regex kSlurmWord(
    "(^|[^A-Za-z0-9_./-])(srun|scontrol|squeue|sbcast|sbatch)([^A-Za-z0-9_-]|$)");

size_t count_words(const std::string& text, const std::string& word) {
  size_t count = 0;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kSlurmWord);
       it != std::sregex_iterator(); ++it) {
    if ((*it)[2] == word) ++count;
  }
  return count;
}

/// The command's code: lines that are not comments.
std::string code_lines(const std::string& command) {
  std::istringstream in(command);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    const size_t comment = line.find(" #");
    out += line.substr(0, comment) + "\n";
  }
  return out;
}

TEST(LaunchCorpus, NoSlurmCommandStaysInTheCommandUnreported) {
  size_t checked = 0;
  for (const std::string& path : corpus_scripts()) {
    const Translation t = translate(path, testing::read_file(path));
    if (!t.workload) continue;
    const std::string code = code_lines(t.workload->command);
    for (const std::string word : {"srun", "scontrol", "squeue", "sbcast", "sbatch"}) {
      const size_t left = count_words(code, word);
      if (left == 0) continue;
      size_t reported = 0;
      for (const Diagnostic& d : t.diagnostics) {
        const std::string spanned(t.file->text().substr(d.span.begin, d.span.size()));
        reported += count_words(spanned, word) > 0 ? 1 : 0;
      }
      EXPECT_LE(left, reported) << path << ": `" << word << "` remains " << left
                                << " time(s) in the command, reported " << reported << "\n"
                                << t.workload->command;
      ++checked;
    }
  }
  std::printf("slurm commands left in corpus commands: %zu file/word pairs checked\n", checked);
}

}  // namespace
}  // namespace s2a
