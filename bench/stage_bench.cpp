// Google Benchmark micro-benchmarks, one per pipeline stage, over the corpus/
// scripts (and a synthetic large script for the parser). Each stage's inputs
// are prepared by the stages before it outside the timed loop, so a number
// measures that stage alone. Counters: lines/ms and bytes/s of script text.
#include <benchmark/benchmark.h>

#include <memory>

#include "air/directive_policy.hpp"
#include "air/map_workload.hpp"
#include "bench_inputs.hpp"
#include "directives/directives.hpp"
#include "emit/validate.hpp"
#include "emit/yaml.hpp"
#include "parse/parse_script.hpp"
#include "slurm/body.hpp"
#include "slurm/job.hpp"
#include "translate.hpp"

namespace s2a::bench {
namespace {

/// Everything the stages produce for one script, kept alive for the next stage.
struct Prepared {
  std::unique_ptr<SourceFile> file;
  directives::ScanResult scan;
  slurm::Job job;
  slurm::Body body;
  air::WorkloadMapping mapping;
  std::string yaml;
};

const std::vector<std::unique_ptr<Prepared>>& prepared_corpus() {
  static const std::vector<std::unique_ptr<Prepared>> prepared = [] {
    std::vector<std::unique_ptr<Prepared>> all;
    for (const Input& input : corpus_inputs()) {
      auto p = std::make_unique<Prepared>();
      p->file = std::make_unique<SourceFile>(input.name, input.text);
      Diagnostics diagnostics;
      p->scan = directives::scan_directives(*p->file);
      p->job = slurm::build_job(p->scan, diagnostics);
      p->body = slurm::analyze_body(*p->file, p->scan.body_offset, diagnostics);
      p->mapping = air::map_workload(*p->file, p->job, p->body, {}, diagnostics);
      p->yaml = emit::emit_workload_yaml(p->mapping.workload, *p->file, {});
      all.push_back(std::move(p));
    }
    return all;
  }();
  return prepared;
}

void set_counters(benchmark::State& state, size_t lines, size_t bytes) {
  state.counters["lines/ms"] = benchmark::Counter(
      static_cast<double>(lines) * static_cast<double>(state.iterations()) / 1000.0,
      benchmark::Counter::kIsRate);
  state.SetBytesProcessed(static_cast<int64_t>(bytes) * state.iterations());
}

size_t total_bytes(const std::vector<Input>& inputs) {
  size_t bytes = 0;
  for (const Input& input : inputs) bytes += input.text.size();
  return bytes;
}

void BM_ScanDirectives(benchmark::State& state) {
  const auto& inputs = corpus_inputs();
  std::vector<SourceFile> files;
  for (const Input& input : inputs) files.emplace_back(input.name, input.text);
  for (auto _ : state) {
    for (const SourceFile& file : files) {
      benchmark::DoNotOptimize(directives::scan_directives(file));
    }
  }
  set_counters(state, total_lines(inputs), total_bytes(inputs));
}
BENCHMARK(BM_ScanDirectives);

void BM_ParseScript(benchmark::State& state) {
  const auto& inputs = corpus_inputs();
  for (auto _ : state) {
    for (const Input& input : inputs) benchmark::DoNotOptimize(parse_script(input.text));
  }
  set_counters(state, total_lines(inputs), total_bytes(inputs));
}
BENCHMARK(BM_ParseScript);

void BM_ParseScriptSynthetic(benchmark::State& state) {
  const Input input = synthetic_script(static_cast<size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(parse_script(input.text));
  set_counters(state, input.lines, input.text.size());
}
BENCHMARK(BM_ParseScriptSynthetic)->Arg(100)->Arg(10000)->Arg(100000);

void BM_BuildJobAndPolicy(benchmark::State& state) {
  const auto& prepared = prepared_corpus();
  for (auto _ : state) {
    for (const auto& p : prepared) {
      Diagnostics diagnostics;
      benchmark::DoNotOptimize(slurm::build_job(p->scan, diagnostics));
      benchmark::DoNotOptimize(air::apply_directive_policy(p->scan, diagnostics));
    }
  }
  set_counters(state, total_lines(corpus_inputs()), total_bytes(corpus_inputs()));
}
BENCHMARK(BM_BuildJobAndPolicy);

void BM_AnalyzeBody(benchmark::State& state) {
  const auto& prepared = prepared_corpus();
  for (auto _ : state) {
    for (const auto& p : prepared) {
      Diagnostics diagnostics;
      benchmark::DoNotOptimize(slurm::analyze_body(*p->file, p->scan.body_offset, diagnostics));
    }
  }
  set_counters(state, total_lines(corpus_inputs()), total_bytes(corpus_inputs()));
}
BENCHMARK(BM_AnalyzeBody);

void BM_MapWorkload(benchmark::State& state) {
  const auto& prepared = prepared_corpus();
  for (auto _ : state) {
    for (const auto& p : prepared) {
      Diagnostics diagnostics;
      benchmark::DoNotOptimize(air::map_workload(*p->file, p->job, p->body, {}, diagnostics));
    }
  }
  set_counters(state, total_lines(corpus_inputs()), total_bytes(corpus_inputs()));
}
BENCHMARK(BM_MapWorkload);

void BM_EmitWorkloadYaml(benchmark::State& state) {
  const auto& prepared = prepared_corpus();
  for (auto _ : state) {
    for (const auto& p : prepared) {
      benchmark::DoNotOptimize(emit::emit_workload_yaml(p->mapping.workload, *p->file, {}));
    }
  }
  set_counters(state, total_lines(corpus_inputs()), total_bytes(corpus_inputs()));
}
BENCHMARK(BM_EmitWorkloadYaml);

void BM_ValidateWorkloadYaml(benchmark::State& state) {
  const auto& prepared = prepared_corpus();
  for (auto _ : state) {
    for (const auto& p : prepared) {
      benchmark::DoNotOptimize(emit::validate_workload_yaml(p->yaml, p->mapping.workload));
    }
  }
  set_counters(state, total_lines(corpus_inputs()), total_bytes(corpus_inputs()));
}
BENCHMARK(BM_ValidateWorkloadYaml);

void BM_Translate(benchmark::State& state) {
  const auto& inputs = corpus_inputs();
  for (auto _ : state) {
    for (const Input& input : inputs) benchmark::DoNotOptimize(translate(input.name, input.text));
  }
  set_counters(state, total_lines(inputs), total_bytes(inputs));
}
BENCHMARK(BM_Translate);

void BM_TranslateSynthetic(benchmark::State& state) {
  const Input input = synthetic_script(static_cast<size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(translate(input.name, input.text));
  set_counters(state, input.lines, input.text.size());
}
BENCHMARK(BM_TranslateSynthetic)->Arg(40)->Arg(1000)->Arg(100000);

}  // namespace
}  // namespace s2a::bench

BENCHMARK_MAIN();
