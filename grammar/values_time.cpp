// --time / --time-min: Slurm's duration grammar (spec/slurm-sbatch.md §2.7).
//
// src/common/parse_time.c: _is_valid_timespec() decides which strings are
// acceptable, time_str2secs() what they mean and time_str2mins() rounds the
// seconds up to whole minutes; slurm_opt.c:arg_set_time_limit() maps 0 to
// INFINITE.
#include "grammar/values_x3.hpp"

namespace s2a::values {
namespace {

using namespace detail;

constexpr std::string_view kTimeFormats = "formats: m, m:s, h:m:s, d-h, d-h:m, d-h:m:s, UNLIMITED";

// time_spec := number ( "-" [ number [ ":" number [ ":" number ] ] ]   -- d-h:m:s family
//                     | [ ":" number [ ":" number ] ] )                 -- m, m:s, h:m:s
// The leading number is shared by both families, so no alternative ever
// backtracks over a half-filled attribute. Numbers are collected in order.
using TimeFields = std::vector<std::string>;
auto const clock_fields = x3::repeat(0, 2)[':' >> digits];
auto const time_spec = x3::rule<class time_spec_r, TimeFields>{
    "time limit"} = digits >> (('-' >> -(digits >> clock_fields)) | clock_fields);

// time_str2secs() reads each field with "%d" and returns the total as an int.
constexpr uint64_t kMaxSeconds = kIntMax;

std::string time_error(std::string_view text, std::string_view why) {
  return "invalid time limit " + quoted(text) + ": " + std::string(why) + " (" +
         std::string(kTimeFormats) + ")";
}

// _is_valid_timespec(): the character-level checks, one message each.
std::optional<std::string> timespec_shape_error(std::string_view text) {
  if (text.empty()) return "the value is empty";
  for (char c : text) {
    if (!(c >= '0' && c <= '9') && c != '-' && c != ':') {
      return "only digits, '-' and ':' are allowed";
    }
  }
  size_t dashes = 0;
  size_t colons = 0;
  bool any_digit = false;
  for (char c : text) {
    if (c == '-') {
      if (colons > 0) return "'-' may not follow ':' (the day count comes first: d-h:m:s)";
      ++dashes;
    } else if (c == ':') {
      ++colons;
    } else {
      any_digit = true;
    }
  }
  if (!any_digit) return "at least one number is needed";
  if (dashes > 1) return "at most one '-' is allowed";
  if (colons > 2) return "at most two ':' are allowed";
  if (text.front() == '-') return "negative time limits are not allowed";
  return std::nullopt;
}

// time_str2secs(): with a '-' the fields are d-h:m:s from the left, without
// one they are m, m:s or h:m:s depending on how many there are.
struct Clock {
  uint64_t days = 0, hours = 0, minutes = 0, seconds = 0;
};

Clock assign_fields(const std::vector<uint64_t>& n, bool has_days) {
  Clock c;
  if (has_days) {
    c.days = n[0];
    if (n.size() > 1) c.hours = n[1];
    if (n.size() > 2) c.minutes = n[2];
    if (n.size() > 3) c.seconds = n[3];
  } else if (n.size() == 1) {
    c.minutes = n[0];
  } else if (n.size() == 2) {
    c.minutes = n[0];
    c.seconds = n[1];
  } else {
    c.hours = n[0];
    c.minutes = n[1];
    c.seconds = n[2];
  }
  return c;
}

Parsed<TimeLimit> parse_time_impl(std::string_view text) {
  // "-1" must be tested before the shape check, which rejects a leading '-'.
  if (iequals(text, "unlimited") || iequals(text, "infinite") || text == "-1") {
    return success(TimeLimit{true, 0});
  }
  if (auto why = timespec_shape_error(text)) return failure<TimeLimit>(time_error(text, *why));

  TimeFields fields;
  if (!parse_whole(text, time_spec, fields).matched) {
    return failure<TimeLimit>(time_error(text, "a number is missing next to '-' or ':'"));
  }
  std::vector<uint64_t> numbers;
  for (const std::string& field : fields) {
    auto number = to_u64(field);
    if (!number || *number > kIntMax) {
      return failure<TimeLimit>(time_error(text, clip(field) + " is too large"));
    }
    numbers.push_back(*number);
  }
  const bool has_days = text.find('-') != std::string_view::npos;
  const Clock c = assign_fields(numbers, has_days);
  // Each field is below 2^31, so this sum cannot overflow 64 bits.
  const uint64_t seconds = ((c.days * 24 + c.hours) * 60 + c.minutes) * 60 + c.seconds;
  if (seconds > kMaxSeconds) {
    return failure<TimeLimit>(time_error(text, "longer than Slurm's maximum of 24855 days"));
  }
  const uint64_t minutes = (seconds + 59) / 60;  // ROUNDUP(secs, 60)
  if (minutes == 0) return success(TimeLimit{true, 0});
  return success(TimeLimit{false, minutes});
}

}  // namespace

Parsed<TimeLimit> parse_time(std::string_view text) {
  return detail::guarded<TimeLimit>("a time limit", [&] { return parse_time_impl(text); });
}

}  // namespace s2a::values
