// Five-field cron -> Quartz cron, and the scrontab line format (`#SCRON`
// option lines apply to the next entry).
#include "bundle/cron.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>

#include "source/ascii.hpp"

namespace s2a::bundle {
namespace {

struct Field {
  std::string_view name;
  int min;
  int max;
  std::string_view step_start;  // what `*` becomes before a step in Quartz
};

constexpr std::array kFields = {
    Field{"minute", 0, 59, "0"}, Field{"hour", 0, 23, "0"},       Field{"day of month", 1, 31, "1"},
    Field{"month", 1, 12, "1"},  Field{"day of week", 0, 7, "1"},
};

constexpr std::array kMonths = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
constexpr std::array kDays = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? at : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::optional<int> number(std::string_view text) {
  int value = 0;
  if (text.empty() || text.size() > 4) return std::nullopt;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

/// A value of one field: a number in range, or (month, weekday) a name.
/// Returns the Quartz spelling, or nullopt.
std::optional<std::string> value(std::string_view text, size_t field) {
  const Field& f = kFields[field];
  if (const auto n = number(text)) {
    if (*n < f.min || *n > f.max) return std::nullopt;
    if (field == 4) return std::to_string(*n % 7 + 1);  // cron Sunday 0/7 -> Quartz 1
    return std::to_string(*n);
  }
  const std::string name = ascii_upper(text);
  if (field == 3 && std::find(kMonths.begin(), kMonths.end(), name) != kMonths.end()) return name;
  if (field == 4 && std::find(kDays.begin(), kDays.end(), name) != kDays.end()) return name;
  return std::nullopt;
}

/// One comma-separated element: *, */n, a, a-b, a-b/n.
std::optional<std::string> element(std::string_view text, size_t field, std::string& error) {
  const Field& f = kFields[field];
  std::string_view range = text;
  std::string step;
  if (const size_t slash = text.find('/'); slash != std::string_view::npos) {
    range = text.substr(0, slash);
    const auto n = number(text.substr(slash + 1));
    if (!n || *n < 1) {
      error = "the step in " + std::string(text) + " is not a positive number";
      return std::nullopt;
    }
    step = "/" + std::to_string(*n);
  }
  if (range == "*") return step.empty() ? "*" : std::string(f.step_start) + step;
  const size_t dash = range.find('-');
  if (dash == std::string_view::npos) {
    const auto v = value(range, field);
    if (!v) error = std::string(range) + " is not a valid " + std::string(f.name);
    if (v && !step.empty()) return *v + step;
    return v;
  }
  const auto low = value(range.substr(0, dash), field);
  auto high = value(range.substr(dash + 1), field);
  if (!low || !high) {
    error = std::string(range) + " is not a valid " + std::string(f.name) + " range";
    return std::nullopt;
  }
  // cron's 7 is Sunday again: "5-7" (Fri-Sun) is Quartz "6-7,1".
  if (field == 4 && number(range.substr(dash + 1)) == 7 && step.empty()) {
    return *low + "-7,1";
  }
  if (field == 4 && number(range.substr(dash + 1)) == 7) {
    error = "a stepped day-of-week range ending in 7 has no Quartz spelling";
    return std::nullopt;
  }
  return *low + "-" + *high + step;
}

std::optional<std::string> convert_field(std::string_view text, size_t field, std::string& error) {
  std::string out;
  for (std::string_view part : split(text, ',')) {
    const auto converted = element(part, field, error);
    if (!converted) {
      if (error.empty()) error = std::string(part) + " is not valid";
      return std::nullopt;
    }
    if (!out.empty()) out += ",";
    out += *converted;
  }
  return out;
}

std::optional<std::string> macro(std::string_view name) {
  if (name == "@yearly" || name == "@annually") return "0 0 0 1 1 ?";
  if (name == "@monthly") return "0 0 0 1 * ?";
  if (name == "@weekly") return "0 0 0 ? * 1";
  if (name == "@daily" || name == "@midnight") return "0 0 0 * * ?";
  if (name == "@hourly") return "0 0 * * * ?";
  return std::nullopt;
}

bool looks_like_cron_field(std::string_view word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '*' || c == '/' || c == ',' ||
           c == '-';
  });
}

bool is_entry(const std::vector<std::string_view>& w) {
  if (w.empty()) return false;
  if (w[0].front() == '@') return w.size() >= 2;
  if (w.size() < 6) return false;
  return std::all_of(w.begin(), w.begin() + 5, looks_like_cron_field) &&
         std::any_of(w[0].begin(), w[0].end(), [](char c) {
           return std::isdigit(static_cast<unsigned char>(c)) || c == '*';
         });
}

}  // namespace

CronConversion cron_to_quartz(std::string_view cron) {
  CronConversion result;
  const std::vector<std::string_view> fields = words(cron);
  if (fields.size() == 1 && !fields[0].empty() && fields[0].front() == '@') {
    if (const auto quartz = macro(fields[0])) {
      result.quartz = *quartz;
    } else {
      result.error = std::string(fields[0]) + " has no schedule equivalent";
    }
    return result;
  }
  if (fields.size() != 5) {
    result.error = "a cron schedule has five fields (minute hour day-of-month month day-of-week)";
    return result;
  }
  std::array<std::string, 5> quartz;
  for (size_t i = 0; i < 5; ++i) {
    const auto converted = convert_field(fields[i], i, result.error);
    if (!converted) return result;
    quartz[i] = *converted;
  }
  const bool any_day = quartz[2] == "*";
  const bool any_weekday = quartz[4] == "*";
  if (!any_day && !any_weekday) {
    result.error =
        "cron runs when day-of-month OR day-of-week matches; Quartz cannot restrict "
        "both";
    return result;
  }
  if (any_weekday) {
    quartz[4] = "?";
  } else {
    quartz[2] = "?";
  }
  result.quartz =
      "0 " + quartz[0] + " " + quartz[1] + " " + quartz[2] + " " + quartz[3] + " " + quartz[4];
  return result;
}

bool looks_like_scrontab(std::string_view text) {
  if (text.rfind("#!", 0) == 0) return false;
  for (std::string_view line : split(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::vector<std::string_view> w = words(line);
    if (w.empty()) continue;
    if (w[0] == "#SCRON") return true;
    if (w[0].front() == '#') continue;
    return is_entry(w);
  }
  return false;
}

Scrontab parse_scrontab(const SourceFile& file) {
  Scrontab result;
  std::vector<std::string> pending;
  const std::string_view text = file.text();
  uint32_t offset = 0;
  for (std::string_view line : split(text, '\n')) {
    const Span span{offset, static_cast<uint32_t>(offset + line.size())};
    offset += static_cast<uint32_t>(line.size() + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const std::vector<std::string_view> w = words(line);
    if (w.empty()) continue;
    if (w[0] == "#SCRON") {
      for (size_t i = 1; i < w.size(); ++i) pending.emplace_back(w[i]);
      continue;
    }
    if (w[0].front() == '#') continue;
    if (!is_entry(w)) {
      result.unreadable.push_back(span);
      continue;
    }
    ScrontabEntry entry;
    entry.span = span;
    const size_t fields = w[0].front() == '@' ? 1 : 5;
    const size_t cron_end =
        static_cast<size_t>(w[fields - 1].data() + w[fields - 1].size() - line.data());
    entry.cron = std::string(line.substr(0, cron_end));
    const size_t command_start = static_cast<size_t>(w[fields].data() - line.data());
    entry.command = std::string(line.substr(command_start));
    entry.options = std::move(pending);
    pending.clear();
    result.entries.push_back(std::move(entry));
  }
  return result;
}

}  // namespace s2a::bundle
