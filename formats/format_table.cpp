#include "formats/format_table.h"

#include <string>

#include "formats/binary/binary_ops.h"
#include "formats/binary/lower_binary.h"
#include "formats/json/json_ops.h"
#include "formats/json/json_read.h"
#include "formats/json/json_write.h"
#include "formats/json/lower_json.h"

namespace jitser {
namespace {

void json_finish_write(const RunOptions& options, Buffer& out) {
  if (options.pretty) json::prettify(out);
}

constexpr FormatEntry kFormats[] = {
    {.format = Format::Binary,
     .name = "binary",
     .lower = lower_binary,
     .enc_name = binary_enc_name,
     .finish_write = nullptr,
     .reader_kernel = nullptr,
     .writer = binary_writer,
     .reader = binary_reader},
    {.format = Format::Json,
     .name = "json",
     .lower = lower_json,
     .enc_name = json_enc_name,
     .finish_write = json_finish_write,
     .reader_kernel = json::kernel_name,
     .writer = json_writer,
     .reader = json_reader},
};

static_assert(
    [] {
      for (std::size_t i = 0; i < std::size(kFormats); ++i) {
        if (static_cast<std::size_t>(kFormats[i].format) != i) return false;
      }
      return true;
    }(),
    "kFormats lists the formats in the order of enum Format");

}  // namespace

std::span<const FormatEntry> format_entries() { return kFormats; }

const FormatEntry& format_entry(Format format) {
  return kFormats[static_cast<std::size_t>(format)];
}

const char* format_name(Format format) {
  const auto i = static_cast<std::size_t>(format);
  return i < std::size(kFormats) ? kFormats[i].name : "?";
}

std::optional<Format> parse_format(std::string_view name) {
  for (const FormatEntry& f : kFormats) {
    if (name == f.name) return f.format;
  }
  return std::nullopt;
}

}  // namespace jitser
