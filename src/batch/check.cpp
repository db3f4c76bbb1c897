// Line diff for `check`: common prefix and suffix are trimmed, then the
// middle is aligned by a longest-common-subsequence table. Translations are
// small and usually differ in a few lines, so the table stays tiny; past
// kMaxCells the middle is shown as replaced wholesale rather than risking
// memory on an adversarial pair of files.
#include "batch/check.hpp"

#include <algorithm>
#include <vector>

namespace s2a::batch {
namespace {

constexpr size_t kMaxCells = size_t{4} << 20;

enum class Op : uint8_t { keep, remove, add };
struct Step {
  Op op;
  size_t line;  // index into before (keep, remove) or after (add)
};

/// Lines with their '\n' kept, so a missing final newline is a difference.
std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    const size_t length = newline == std::string_view::npos ? text.size() : newline + 1;
    lines.push_back(text.substr(0, length));
    text.remove_prefix(length);
  }
  return lines;
}

void align_middle(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b,
                  size_t a0, size_t a1, size_t b0, size_t b1, std::vector<Step>& steps) {
  const size_t n = a1 - a0;
  const size_t m = b1 - b0;
  if ((n + 1) * (m + 1) > kMaxCells) {
    for (size_t i = a0; i < a1; ++i) steps.push_back({Op::remove, i});
    for (size_t j = b0; j < b1; ++j) steps.push_back({Op::add, j});
    return;
  }
  // lcs[i][j]: longest common subsequence of a[a0+i..a1) and b[b0+j..b1).
  std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
  const auto at = [&](size_t i, size_t j) -> uint32_t& { return lcs[i * (m + 1) + j]; };
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      at(i, j) =
          a[a0 + i] == b[b0 + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    }
  }
  size_t i = 0;
  size_t j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[a0 + i] == b[b0 + j]) {
      steps.push_back({Op::keep, a0 + i++});
      ++j;
    } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
      steps.push_back({Op::remove, a0 + i++});  // removals first, as diff -u shows them
    } else {
      steps.push_back({Op::add, b0 + j++});
    }
  }
}

std::vector<Step> diff_steps(const std::vector<std::string_view>& a,
                             const std::vector<std::string_view>& b) {
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  std::vector<Step> steps;
  for (size_t i = 0; i < prefix; ++i) steps.push_back({Op::keep, i});
  align_middle(a, b, prefix, a.size() - suffix, prefix, b.size() - suffix, steps);
  for (size_t i = a.size() - suffix; i < a.size(); ++i) steps.push_back({Op::keep, i});
  return steps;
}

void append_line(std::string& out, char marker, std::string_view line) {
  out.push_back(marker);
  out.append(line);
  if (line.empty() || line.back() != '\n') out += "\n\\ No newline at end of file\n";
}

std::string range(size_t start, size_t count) {
  // GNU: an empty range names the line before it.
  const size_t first = count == 0 ? start : start + 1;
  return count == 1 ? std::to_string(first) : std::to_string(first) + "," + std::to_string(count);
}

}  // namespace

std::string unified_diff(std::string_view before, std::string_view after,
                         std::string_view before_label, std::string_view after_label, int context) {
  if (before == after) return "";
  const std::vector<std::string_view> a = split_lines(before);
  const std::vector<std::string_view> b = split_lines(after);
  const std::vector<Step> steps = diff_steps(a, b);
  const size_t ctx = static_cast<size_t>(std::max(context, 0));
  std::string out = "--- " + std::string(before_label) + "\n+++ " + std::string(after_label) + "\n";
  // Each change wants ctx lines around it; overlapping windows make one hunk.
  std::vector<std::pair<size_t, size_t>> hunks;
  for (size_t k = 0; k < steps.size(); ++k) {
    if (steps[k].op == Op::keep) continue;
    const size_t begin = k >= ctx ? k - ctx : 0;
    const size_t end = std::min(steps.size(), k + ctx + 1);
    if (!hunks.empty() && begin <= hunks.back().second) {
      hunks.back().second = end;
    } else {
      hunks.emplace_back(begin, end);
    }
  }
  for (const auto& [begin, end] : hunks) {
    // Line positions at the hunk start: count what came before.
    size_t a_start = 0;
    size_t b_start = 0;
    for (size_t k = 0; k < begin; ++k) {
      if (steps[k].op != Op::add) ++a_start;
      if (steps[k].op != Op::remove) ++b_start;
    }
    size_t a_count = 0;
    size_t b_count = 0;
    std::string body;
    for (size_t k = begin; k < end; ++k) {
      const Step& step = steps[k];
      if (step.op == Op::keep) {
        append_line(body, ' ', a[step.line]);
        ++a_count;
        ++b_count;
      } else if (step.op == Op::remove) {
        append_line(body, '-', a[step.line]);
        ++a_count;
      } else {
        append_line(body, '+', b[step.line]);
        ++b_count;
      }
    }
    out += "@@ -" + range(a_start, a_count) + " +" + range(b_start, b_count) + " @@\n" + body;
  }
  return out;
}

CheckResult check_translation(const Translation& fresh, std::string_view committed,
                              std::string_view committed_label) {
  CheckResult result;
  if (!fresh.workload) {
    result.problem = fresh.file->name() + " no longer converts; run slurm2air on it to see why";
    return result;
  }
  result.up_to_date = fresh.yaml == committed;
  if (!result.up_to_date) {
    result.diff = unified_diff(
        committed, fresh.yaml, std::string(committed_label) + " (committed)",
        std::string(committed_label) + " (translated from " + fresh.file->name() + ")");
  }
  return result;
}

}  // namespace s2a::batch
