// Splits one #SBATCH body into words exactly as sbatch's get_argument() does.
//
// No expansion of any kind; quotes group and are removed, a backslash makes
// the next byte literal, an unquoted `#` ends the line. Two quirks matter:
// an empty word (`""`) and a mid-line `hetjob` both end the line silently.
#include <algorithm>
#include <array>
#include <string>

#include "directives/directives.hpp"
#include "directives/text_util.hpp"

namespace s2a::directives {
namespace {

using detail::is_space;

/// Bytes that stand for themselves in a word: not blank, `\\`, a quote or `#`.
/// A table, as every byte of every directive goes through this test.
constexpr std::array<bool, 256> kOrdinary = [] {
  std::array<bool, 256> table{};
  for (size_t c = 0; c < table.size(); ++c) {
    const char byte = static_cast<char>(c);
    table[c] = !is_space(byte) && byte != '\\' && byte != '"' && byte != '\'' && byte != '#';
  }
  return table;
}();

bool is_ordinary(char c) { return kOrdinary[static_cast<unsigned char>(c)]; }

/// `hetjob`/`packjob` (any case) followed by whitespace or the end.
bool starts_with_separator(std::string_view rest) {
  // Asked of every word; nearly all start with neither letter.
  if (rest.empty() || (detail::to_lower(rest[0]) != 'h' && detail::to_lower(rest[0]) != 'p')) {
    return false;
  }
  for (std::string_view word : {std::string_view("hetjob"), std::string_view("packjob")}) {
    if (detail::istarts_with(rest, word) &&
        (rest.size() == word.size() || is_space(rest[word.size()]))) {
      return true;
    }
  }
  return false;
}

Span span_at(uint32_t base, size_t begin, size_t end) {
  return {base + static_cast<uint32_t>(begin), base + static_cast<uint32_t>(end)};
}

/// Reads one word starting at body[pos] (not whitespace). Returns the index
/// just past it. Sets `quote` to the unclosed quote character, if any.
size_t read_word(std::string_view body, size_t pos, uint32_t base, Word& word, char& quote) {
  bool literal = false;
  bool verbatim = true;  // text == source so far: no offsets needed
  quote = '\0';
  auto append = [&](size_t at) {
    if (!verbatim) word.offsets.push_back(base + static_cast<uint32_t>(at));
    word.text.push_back(body[at]);
  };
  auto go_indirect = [&]() {
    if (!verbatim) return;
    verbatim = false;
    for (size_t k = 0; k < word.text.size(); ++k) {
      word.offsets.push_back(word.span.begin + static_cast<uint32_t>(k));
    }
  };
  while (pos < body.size() && (quote != '\0' || !is_space(body[pos]))) {
    if (verbatim && quote == '\0' && !literal && is_ordinary(body[pos])) {
      // The common case, `--nodes=2`: a run of plain bytes, copied at once.
      size_t run = pos + 1;
      while (run < body.size() && is_ordinary(body[run])) ++run;
      word.text.append(body.substr(pos, run - pos));
      pos = run;
      continue;
    }
    const char c = body[pos];
    if (literal) {
      literal = false;
    } else if (c == '\\') {
      go_indirect();
      ++pos;
      if (pos < body.size() && body[pos] == ' ') {
        append(pos);
        ++pos;
      } else {
        literal = true;
      }
      continue;
    } else if (quote != '\0') {
      if (c == quote) {
        go_indirect();
        quote = '\0';
        ++pos;
        continue;
      }
    } else if (c == '"' || c == '\'') {
      go_indirect();
      quote = c;
      ++pos;
      continue;
    } else if (c == '#') {
      break;  // unquoted, unescaped: the rest of the line is a comment
    }
    append(pos);
    ++pos;
  }
  return pos;
}

/// `--container-image=nvcr.io#nvidia/pytorch:24.01-py3`: sbatch ends the word
/// at a `#` glued to it and reads the rest as a comment, so the value is
/// `nvcr.io`. Slurm does the same, silently; a comment meant as one has a
/// blank before its `#`.
void report_glued_comment(std::string_view body, size_t hash, uint32_t base, const Word& word,
                          Diagnostics& diagnostics) {
  std::string_view comment = body.substr(hash);
  while (!comment.empty() && is_space(comment.back())) comment.remove_suffix(1);
  if (comment.find_first_not_of('#') == std::string_view::npos) return;  // nothing but `#`s
  constexpr size_t kShown = 60;
  diagnostics.push_back(
      {Code::directive_words_dropped, span_at(base, hash, hash + comment.size()),
       "sbatch reads `" + detail::excerpt(comment, kShown) +
           "` as a comment, so this word ends as `" + detail::excerpt(word.text, kShown) + "`",
       "write `\\#` or quote the word to keep the `#` and what follows; a comment needs a blank "
       "before its `#`"});
}

}  // namespace

std::string Option::text(size_t value_limit) const {
  if (!value) return spelling;
  // A short option's value is its own word (or glued on): `-N 2`, never `-N=2`.
  const bool is_long = spelling.size() > 2 && spelling[1] == '-';
  // Built in one string: each report of an option asks for its text.
  std::string out;
  out.reserve(spelling.size() + 1 + std::min(value->size(), value_limit) + 3);
  out += spelling;
  out += is_long ? '=' : ' ';
  if (value->size() <= value_limit) {
    out += *value;
  } else {
    out += detail::excerpt(*value, value_limit);
  }
  return out;
}

uint32_t Word::source_offset(size_t index) const {
  if (index >= text.size()) return span.end;
  if (offsets.size() == text.size()) return offsets[index];
  return span.begin + static_cast<uint32_t>(index);
}

std::vector<Word> tokenize_directive(std::string_view body, uint32_t base,
                                     Diagnostics& diagnostics) {
  std::vector<Word> words;
  append_directive_words(body, base, diagnostics, words);
  return words;
}

void append_directive_words(std::string_view body, uint32_t base, Diagnostics& diagnostics,
                            std::vector<Word>& words) {
  const size_t words_before = words.size();
  size_t pos = 0;
  while (true) {
    while (pos < body.size() && is_space(body[pos])) ++pos;
    if (pos >= body.size()) break;
    const std::string_view rest = body.substr(pos);
    if (starts_with_separator(rest)) {
      // get_argument() blanks the word and then finds no word: the line ends.
      if (words.size() > words_before) {
        const size_t len = detail::istarts_with(rest, "hetjob") ? 6 : 7;
        diagnostics.push_back(
            {Code::directive_words_dropped, span_at(base, pos, body.size()),
             "sbatch stops reading this line at `" + std::string(rest.substr(0, len)) +
                 "`, and a separator in the middle of a line does not start a het-job component",
             "put `#SBATCH hetjob` on a line of its own"});
      }
      break;
    }
    if (body[pos] == ':') {
      size_t end = pos;
      while (end < body.size() && !is_space(body[end])) ++end;
      diagnostics.push_back({Code::unexpected_colon, span_at(base, pos, end),
                             "sbatch refuses a directive word that starts with `:` (\"Unexpected "
                             "`:`\")",
                             "`:` separates het-job components only on the command line; in a "
                             "script use a `#SBATCH hetjob` line"});
      pos = end;
      continue;
    }
    if (body[pos] == '#') break;  // trailing comment

    // Read in place at the end of `words`; taken back if it turns out empty.
    Word& word = words.emplace_back();
    word.span.begin = base + static_cast<uint32_t>(pos);
    char open_quote = '\0';
    const size_t end = read_word(body, pos, base, word, open_quote);
    word.span.end = base + static_cast<uint32_t>(end);
    if (word.offsets.size() != word.text.size()) word.offsets.clear();
    if (open_quote != '\0') {
      diagnostics.push_back(
          {Code::unmatched_quote, span_at(base, pos, end),
           std::string("sbatch refuses this directive: unmatched `") + open_quote + "`",
           std::string("close the quote with a matching `") + open_quote + "`"});
    }
    if (word.text.empty()) {
      words.pop_back();
      // get_argument() returns "no more words" for a word with no bytes.
      size_t next = end;
      while (next < body.size() && is_space(body[next])) ++next;
      const bool more = next < body.size() && body[next] != '#';
      diagnostics.push_back(
          {Code::directive_words_dropped, span_at(base, pos, more ? body.size() : end),
           more ? "sbatch stops reading this line at the empty word `" +
                      std::string(body.substr(pos, end - pos)) + "`: the words after it are ignored"
                : "sbatch drops the empty word `" + std::string(body.substr(pos, end - pos)) + "`",
           "remove the empty quotes, or put something between them"});
      break;
    }
    if (end >= body.size() || open_quote != '\0') break;
    pos = end;
    if (body[pos] == '#') {  // `--time=10#comment`: the word ended at the `#`
      report_glued_comment(body, pos, base, word, diagnostics);
      break;
    }
  }
}

}  // namespace s2a::directives
