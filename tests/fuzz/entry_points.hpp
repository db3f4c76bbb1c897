// The code paths the fuzzers drive, shared by the libFuzzer targets
// (tests/fuzz/*_fuzzer.cpp, clang) and the regression replay unit test
// (tests/robustness/fuzz_regressions_test.cpp, any compiler), so a stored
// crash input is replayed through exactly the function that found it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "directives/directives.hpp"
#include "emit/inspect.hpp"
#include "emit/report.hpp"
#include "grammar/values.hpp"
#include "parse/parse_script.hpp"
#include "source/source_file.hpp"
#include "translate.hpp"

namespace s2a::fuzz {

/// A failed invariant: the fuzzer reports it as a crash (uncaught exception).
inline void require(bool ok, const char* what) {
  if (!ok) throw std::logic_error(what);
}

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};  // NOLINT: bytes are text here
}

/// The #SBATCH scanner (and tokenizer, option engine, #PBS translation).
inline void scanner(const uint8_t* data, size_t size) {
  const SourceFile file("fuzz.sh", std::string(as_text(data, size)));
  const directives::ScanResult scan = directives::scan_directives(file);
  require(scan.body_offset <= size, "body offset past the end");
  for (const directives::Option& o : scan.options) {
    require(o.spec != nullptr, "option without spec");
    require(o.span.begin <= o.span.end && o.span.end <= size, "option span out of range");
  }
  for (const Diagnostic& d : scan.diagnostics) {
    require(d.span.begin <= d.span.end && d.span.end <= size, "diagnostic span out of range");
  }
}

/// The value grammars; the first byte picks the grammar, the rest is the value.
inline void values(const uint8_t* data, size_t size) {
  if (size == 0) return;
  const std::string_view text = as_text(data + 1, size - 1);
  switch (data[0] % 13) {
    case 0:
      (void)values::parse_time(text);
      break;
    case 1:
      (void)values::parse_nodes(text);
      break;
    case 2:
      (void)values::parse_positive_int(text);
      break;
    case 3:
      (void)values::parse_gpu_counts(text);
      break;
    case 4:
      (void)values::parse_gres(text);
      break;
    case 5:
      (void)values::parse_tres(text);
      break;
    case 6:
      (void)values::parse_memory_mib(text);
      break;
    case 7:
      if (auto a = values::parse_array(text)) (void)a->count();
      break;
    case 8:
      (void)values::parse_dependency(text);
      break;
    case 9:
      (void)values::parse_mail_type(text);
      break;
    case 10:
      (void)values::parse_signal(text);
      break;
    case 11:
      (void)values::parse_export(text);
      break;
    default: {
      const auto hosts = values::expand_hostlist(text, 1000);
      if (hosts) require(hosts->size() <= 1000, "hostlist expanded past its bound");
      break;
    }
  }
}

/// The bash parser alone.
inline void shell(const uint8_t* data, size_t size) {
  const ParseResult result = parse_script(as_text(data, size));
  for (const Diagnostic& d : result.diagnostics) {
    require(d.span.begin <= d.span.end && d.span.end <= size, "diagnostic span out of range");
  }
}

/// Everything the CLI does with a script: translate (scan, job, body,
/// mapping, YAML emit and its validation), reports and inspect JSON.
inline void pipeline(const uint8_t* data, size_t size) {
  const Translation t = translate("fuzz.sh", std::string(as_text(data, size)));
  const emit::ReportInput input{*t.file, t.diagnostics, t.redactions};
  (void)emit::render_text(input);
  (void)emit::render_json(input, t.workload ? 0 : 2);
  (void)emit::render_inspect_json(t);
  require(!t.workload || !t.yaml.empty(), "a workload without YAML");
}

}  // namespace s2a::fuzz
