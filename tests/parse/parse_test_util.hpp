// Helpers shared by the shell-parser tests: parse a text and slice spans.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "parse/dump_ast.hpp"
#include "parse/parse_script.hpp"

namespace s2a::testing_parse {

/// Parses `text` and keeps it so spans can be sliced back into it.
struct Parsed {
  explicit Parsed(std::string source, uint32_t base = 0, ParseLimits limits = {})
      : text(std::move(source)), base_offset(base), result(parse_script(text, base, limits)) {}

  [[nodiscard]] std::string_view slice(Span span) const {
    if (span.begin < base_offset || span.end > base_offset + text.size() || span.end < span.begin) {
      return "<span out of range>";
    }
    return std::string_view(text).substr(span.begin - base_offset, span.size());
  }
  [[nodiscard]] const ast::List& body() const { return result.script.body; }
  [[nodiscard]] const ast::Command& command(size_t i) const { return body().items.at(i).command; }
  [[nodiscard]] std::string dump() const { return dump_ast(result.script); }

  std::string text;
  uint32_t base_offset;
  ParseResult result;
};

}  // namespace s2a::testing_parse
