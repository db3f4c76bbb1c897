// Times translate() (or one stage of it) over many script files on N threads.
//
// Stands in for `slurm2air batch` when measuring throughput: each worker reads
// a file, translates it (scan, parse, map, emit and re-validate the YAML),
// keeps only counters and drops the result, the way a batch run would. With
// --preload the files are read before the clock starts, so the numbers are
// the pipeline alone (the single-thread lines/ms target of docs/performance.md).
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "directives/directives.hpp"
#include "io/files.hpp"
#include "parse/parse_script.hpp"
#include "source/source_file.hpp"
#include "translate.hpp"

namespace {

enum class Stage { translate, parse, scan };

struct Options {
  unsigned threads = 1;
  unsigned repeat = 1;
  bool preload = false;
  bool per_file = false;  // print one line per file (time per byte for the scaling check)
  // Read inputs over the CLI's 4 MiB limit too: the superlinearity check
  // times the engine on 16-50 MB scripts that slurm2air itself refuses.
  bool no_size_limit = false;
  Stage stage = Stage::translate;
  std::vector<std::string> paths;
};

struct Totals {
  std::atomic<uint64_t> files{0};
  std::atomic<uint64_t> lines{0};
  std::atomic<uint64_t> bytes{0};
  std::atomic<uint64_t> converted{0};  // files that produced YAML
  std::atomic<uint64_t> failed{0};     // unreadable files
};

[[noreturn]] void usage() {
  std::fprintf(stderr,
               "usage: slurm2air_bench_driver [--threads N] [--repeat R] [--preload] [--per-file]\n"
               "                              [--stage translate|parse|scan] [--no-size-limit]\n"
               "                              [--list FILE] [PATH...]\n"
               "PATH may be a file or a directory (read recursively); --list reads one path a "
               "line.\n");
  std::exit(2);
}

unsigned parse_count(const char* text) {
  char* end = nullptr;
  unsigned long value = std::strtoul(text, &end, 10);
  if (end == text || *end != '\0' || value == 0 || value > 1024) usage();
  return static_cast<unsigned>(value);
}

void add_path(const std::string& path, std::vector<std::string>& out) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) {
    std::vector<std::string> found;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path, error)) {
      if (entry.is_regular_file(error)) found.push_back(entry.path().string());
    }
    std::sort(found.begin(), found.end());  // deterministic order
    out.insert(out.end(), found.begin(), found.end());
  } else {
    out.push_back(path);
  }
}

Options parse_arguments(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) usage();
      return argv[++i];
    };
    if (arg == "--threads") {
      options.threads = parse_count(next());
    } else if (arg == "--repeat") {
      options.repeat = parse_count(next());
    } else if (arg == "--preload") {
      options.preload = true;
    } else if (arg == "--per-file") {
      options.per_file = true;
    } else if (arg == "--no-size-limit") {
      options.no_size_limit = true;
    } else if (arg == "--stage") {
      std::string_view stage = next();
      if (stage == "translate")
        options.stage = Stage::translate;
      else if (stage == "parse")
        options.stage = Stage::parse;
      else if (stage == "scan")
        options.stage = Stage::scan;
      else
        usage();
    } else if (arg == "--list") {
      std::ifstream list(next());
      for (std::string line; std::getline(list, line);) {
        if (!line.empty()) add_path(line, options.paths);
      }
    } else if (arg.starts_with("-")) {
      usage();
    } else {
      add_path(std::string(arg), options.paths);
    }
  }
  if (options.paths.empty()) usage();
  return options;
}

uint64_t count_lines(std::string_view text) {
  auto lines = static_cast<uint64_t>(std::count(text.begin(), text.end(), '\n'));
  if (!text.empty() && text.back() != '\n') ++lines;
  return lines;
}

/// Runs the chosen stage; returns true when it produced what a user gets
/// (YAML for translate, a complete parse, a script with a body).
bool run_stage(Stage stage, const std::string& name, std::string text) {
  switch (stage) {
    case Stage::translate:
      return !s2a::translate(name, std::move(text)).yaml.empty();
    case Stage::parse:
      return s2a::parse_script(text).complete;
    case Stage::scan: {
      s2a::SourceFile file(name, std::move(text));
      return s2a::directives::scan_directives(file).body_offset > 0;
    }
  }
  return false;
}

std::string read_input(const Options& options, const std::string& path) {
  if (!options.no_size_limit) return s2a::io::read_script(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read");
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void work(const Options& options, const std::vector<std::string>& texts, std::atomic<size_t>& next,
          Totals& totals) {
  for (size_t i = next++; i < options.paths.size(); i = next++) {
    std::string text;
    if (options.preload) {
      text = texts[i];  // the copy a reader would have made
    } else {
      try {
        text = read_input(options, options.paths[i]);
      } catch (const std::exception&) {
        ++totals.failed;
        continue;
      }
    }
    const uint64_t lines = count_lines(text);
    const uint64_t bytes = text.size();
    auto start = std::chrono::steady_clock::now();
    bool converted = run_stage(options.stage, options.paths[i], std::move(text));
    if (options.per_file) {
      double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start)
                      .count();
      std::printf("file %s bytes %llu lines %llu ms %.3f ns_per_byte %.2f\n",
                  options.paths[i].c_str(), static_cast<unsigned long long>(bytes),
                  static_cast<unsigned long long>(lines), ns / 1e6,
                  bytes ? ns / static_cast<double>(bytes) : 0.0);
    }
    ++totals.files;
    totals.lines += lines;
    totals.bytes += bytes;
    if (converted) ++totals.converted;
  }
}

double run_once(const Options& options, const std::vector<std::string>& texts, Totals& totals) {
  std::atomic<size_t> next{0};
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < options.threads; ++t) {
    workers.emplace_back([&] { work(options, texts, next, totals); });
  }
  work(options, texts, next, totals);
  for (std::thread& worker : workers) worker.join();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_arguments(argc, argv);
  std::vector<std::string> texts;
  if (options.preload) {
    texts.reserve(options.paths.size());
    for (const std::string& path : options.paths) {
      try {
        texts.push_back(read_input(options, path));
      } catch (const std::exception&) {
        texts.emplace_back();
      }
    }
  }
  std::vector<double> times;
  Totals totals;
  for (unsigned r = 0; r < options.repeat; ++r) {
    Totals run;
    times.push_back(run_once(options, texts, run));
    totals.files = run.files.load();
    totals.lines = run.lines.load();
    totals.bytes = run.bytes.load();
    totals.converted = run.converted.load();
    totals.failed = run.failed.load();
  }
  std::sort(times.begin(), times.end());
  const double median = times[times.size() / 2];
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto lines = static_cast<double>(totals.lines.load());
  const auto bytes = static_cast<double>(totals.bytes.load());
  std::printf(
      "files %llu converted %llu unreadable %llu lines %llu bytes %llu threads %u runs %u\n"
      "median_ms %.2f min_ms %.2f lines_per_ms %.0f mb_per_s %.1f ns_per_byte %.2f "
      "max_rss_kb %ld\n",
      static_cast<unsigned long long>(totals.files.load()),
      static_cast<unsigned long long>(totals.converted.load()),
      static_cast<unsigned long long>(totals.failed.load()),
      static_cast<unsigned long long>(totals.lines.load()),
      static_cast<unsigned long long>(totals.bytes.load()), options.threads, options.repeat, median,
      times.front(), lines / median, bytes / median / 1e3, bytes > 0 ? median * 1e6 / bytes : 0.0,
      usage.ru_maxrss);
  return 0;
}
