// scrontab files and cron expressions -> Databricks job schedules.
//
// A bundle schedule takes a Quartz cron expression (seconds first, `?` in one
// of day-of-month / day-of-week, Sunday = 1). cron_to_quartz() converts the
// five-field cron of scrontab, or says why it cannot.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "source/source_file.hpp"

namespace s2a::bundle {

struct CronConversion {
  std::string quartz;              // empty on error
  std::string error;               // why it cannot be converted
  std::vector<std::string> notes;  // what changes (e.g. day-of-month OR day-of-week)
};

/// "30 2 * * 1-5" -> "0 30 2 ? * 2-6"; also @daily, @hourly, @weekly, ...
[[nodiscard]] CronConversion cron_to_quartz(std::string_view cron);

struct ScrontabEntry {
  Span span;                         // the entry line
  std::string cron;                  // the five fields (or @macro)
  std::string command;               // the rest of the line
  std::vector<std::string> options;  // #SCRON options that apply to it
};

struct Scrontab {
  std::vector<ScrontabEntry> entries;
  std::vector<Span> unreadable;  // lines that are neither entries nor comments
};

/// True for files that look like scrontab rather than a job script: no
/// shebang, and a `#SCRON` line or a first line of five cron fields.
[[nodiscard]] bool looks_like_scrontab(std::string_view text);

[[nodiscard]] Scrontab parse_scrontab(const SourceFile& file);

}  // namespace s2a::bundle
