#include "formats/format_table.h"

#include <array>
#include <string>

#include "formats/binary/binary_helpers.h"
#include "formats/binary/binary_ops.h"
#include "formats/binary/binary_slot.h"
#include "formats/binary/lower_binary.h"
#include "formats/cbor/cbor_helpers.h"
#include "formats/cbor/cbor_ops.h"
#include "formats/cbor/cbor_slot.h"
#include "formats/cbor/lower_cbor.h"
#include "formats/json/json_helpers.h"
#include "formats/json/json_ops.h"
#include "formats/json/json_read.h"
#include "formats/json/json_write.h"
#include "formats/json/lower_json.h"
#include "formats/msgpack/lower_msgpack.h"
#include "formats/msgpack/msgpack_helpers.h"
#include "formats/msgpack/msgpack_ops.h"
#include "formats/msgpack/msgpack_slot.h"
#include "formats/protobuf/lower_protobuf.h"
#include "formats/protobuf/protobuf_helpers.h"
#include "formats/protobuf/protobuf_ops.h"

extern "C" {
// Made by the build from each format's kernel (cmake/embed_bitcode.cmake); the layouts are
// defined by the kernels compiled natively.
extern const unsigned char jitser_binary_kernel_bitcode[];
extern const std::size_t jitser_binary_kernel_bitcode_size;
extern const unsigned char jitser_json_kernel_bitcode[];
extern const std::size_t jitser_json_kernel_bitcode_size;
extern const std::uint64_t jitser_json_kernel_layout;
extern const unsigned char jitser_protobuf_kernel_bitcode[];
extern const std::size_t jitser_protobuf_kernel_bitcode_size;
extern const std::uint64_t jitser_protobuf_kernel_layout;
extern const unsigned char jitser_msgpack_kernel_bitcode[];
extern const std::size_t jitser_msgpack_kernel_bitcode_size;
extern const std::uint64_t jitser_msgpack_kernel_layout;
extern const unsigned char jitser_cbor_kernel_bitcode[];
extern const std::size_t jitser_cbor_kernel_bitcode_size;
extern const std::uint64_t jitser_cbor_kernel_layout;
// Defined by the kernels, compiled natively: their functions by name.
extern const jitser::HelperSymbol jitser_binary_kernel_functions[];
extern const std::size_t jitser_binary_kernel_function_count;
extern const jitser::HelperSymbol jitser_json_kernel_functions[];
extern const std::size_t jitser_json_kernel_function_count;
extern const jitser::HelperSymbol jitser_protobuf_kernel_functions[];
extern const std::size_t jitser_protobuf_kernel_function_count;
extern const jitser::HelperSymbol jitser_msgpack_kernel_functions[];
extern const std::size_t jitser_msgpack_kernel_function_count;
extern const jitser::HelperSymbol jitser_cbor_kernel_functions[];
extern const std::size_t jitser_cbor_kernel_function_count;
}

namespace jitser {
namespace {

// The kernel's helpers a JSON codec calls once per field, value or element. What they leave
// out of line (the diagnosis of a number that is not the integer expected, simdjson's slow
// path for doubles) stays a call within the module.
constexpr const char* kJsonInlined[] = {
    "jitser_json_put_frame",    "jitser_json_put_bool",     "jitser_json_put_int",
    "jitser_json_put_uint",     "jitser_json_put_string",   "jitser_json_put_begin_list",
    "jitser_json_put_end_list", "jitser_json_begin_object", "jitser_json_next_field",
    "jitser_json_begin_list",   "jitser_json_next_element", "jitser_json_skip",
    "jitser_json_get_frame",    "jitser_json_get_null",     "jitser_json_get_shared",
    "jitser_json_get_bool",     "jitser_json_get_int",      "jitser_json_get_uint",
    "jitser_json_get_double",   "jitser_json_get_float",    "jitser_json_get_text",
    "jitser_json_get_string"};

// Every function of the binary kernel: its rules, a few instructions each in the common case.
constexpr const char* kBinaryInlined[] = {
    "jitser_binary_put_frame",    "jitser_binary_put_bool",       "jitser_binary_put_int",
    "jitser_binary_put_uint",     "jitser_binary_put_float",      "jitser_binary_put_double",
    "jitser_binary_put_string",   "jitser_binary_put_bytes",      "jitser_binary_put_enum",
    "jitser_binary_put_decimal",  "jitser_binary_put_time",       "jitser_binary_put_begin_list",
    "jitser_binary_put_end_list", "jitser_binary_put_shared_ref", "jitser_binary_open",
    "jitser_binary_finish",       "jitser_binary_get_frame",      "jitser_binary_get_bool",
    "jitser_binary_get_int",      "jitser_binary_get_uint",       "jitser_binary_get_float",
    "jitser_binary_get_double",   "jitser_binary_get_string",     "jitser_binary_get_bytes",
    "jitser_binary_get_enum",     "jitser_binary_get_decimal",    "jitser_binary_get_time",
    "jitser_binary_get_null",     "jitser_binary_get_shared",     "jitser_binary_begin_list"};

// Every function of the Protobuf kernel: its rules, a few instructions each in the common case,
// with what is rare (a length past 127 bytes, a group, a long or non-ASCII string) out of line.
constexpr const char* kProtobufInlined[] = {
    "jitser_protobuf_put_frame",      "jitser_protobuf_put_bool",
    "jitser_protobuf_put_int",        "jitser_protobuf_put_uint",
    "jitser_protobuf_put_float",      "jitser_protobuf_put_double",
    "jitser_protobuf_put_string",     "jitser_protobuf_put_bytes",
    "jitser_protobuf_put_decimal",    "jitser_protobuf_put_time",
    "jitser_protobuf_put_begin_list", "jitser_protobuf_put_end_list",
    "jitser_protobuf_close_sized",    "jitser_protobuf_open",
    "jitser_protobuf_finish",         "jitser_protobuf_get_frame",
    "jitser_protobuf_get_bool",       "jitser_protobuf_get_int",
    "jitser_protobuf_get_uint",       "jitser_protobuf_get_float",
    "jitser_protobuf_get_double",     "jitser_protobuf_get_string",
    "jitser_protobuf_get_bytes",      "jitser_protobuf_get_null",
    "jitser_protobuf_get_shared",     "jitser_protobuf_begin_object",
    "jitser_protobuf_next_field",     "jitser_protobuf_expect_field",
    "jitser_protobuf_find_field",     "jitser_protobuf_skip",
    "jitser_protobuf_begin_list",     "jitser_protobuf_next_element",
    "jitser_protobuf_copy_elements"};

// Every function of the MessagePack kernel: its rules, with what is rare (a head that is not a
// fix form, a long or non-ASCII string) through get_head or out of line.
constexpr const char* kMsgpackInlined[] = {
    "jitser_msgpack_put_frame",    "jitser_msgpack_put_bool",       "jitser_msgpack_put_int",
    "jitser_msgpack_put_uint",     "jitser_msgpack_put_float",      "jitser_msgpack_put_double",
    "jitser_msgpack_put_string",   "jitser_msgpack_put_bytes",      "jitser_msgpack_put_decimal",
    "jitser_msgpack_put_time",     "jitser_msgpack_put_begin_list", "jitser_msgpack_put_end_list",
    "jitser_msgpack_open",         "jitser_msgpack_finish",         "jitser_msgpack_get_frame",
    "jitser_msgpack_get_bool",     "jitser_msgpack_get_int",        "jitser_msgpack_get_uint",
    "jitser_msgpack_get_float",    "jitser_msgpack_get_double",     "jitser_msgpack_get_string",
    "jitser_msgpack_get_bytes",    "jitser_msgpack_get_text",       "jitser_msgpack_get_decimal",
    "jitser_msgpack_get_time",     "jitser_msgpack_get_null",       "jitser_msgpack_get_shared",
    "jitser_msgpack_begin_list",   "jitser_msgpack_begin_object",   "jitser_msgpack_next_field",
    "jitser_msgpack_expect_field", "jitser_msgpack_skip",           "jitser_msgpack_put_enum",
    "jitser_msgpack_get_enum",     "jitser_msgpack_begin_fields"};

// Every function of the CBOR kernel: its rules, with what is rare (a head of a longer form, a
// long or non-ASCII string) out of line.
constexpr const char* kCborInlined[] = {
    "jitser_cbor_put_frame",    "jitser_cbor_put_bool",       "jitser_cbor_put_int",
    "jitser_cbor_put_uint",     "jitser_cbor_put_float",      "jitser_cbor_put_double",
    "jitser_cbor_put_string",   "jitser_cbor_put_bytes",      "jitser_cbor_put_decimal",
    "jitser_cbor_put_time",     "jitser_cbor_put_begin_list", "jitser_cbor_put_end_list",
    "jitser_cbor_open",         "jitser_cbor_finish",         "jitser_cbor_get_frame",
    "jitser_cbor_get_bool",     "jitser_cbor_get_int",        "jitser_cbor_get_uint",
    "jitser_cbor_get_float",    "jitser_cbor_get_double",     "jitser_cbor_get_string",
    "jitser_cbor_get_bytes",    "jitser_cbor_get_text",       "jitser_cbor_get_decimal",
    "jitser_cbor_get_time",     "jitser_cbor_get_null",       "jitser_cbor_get_shared",
    "jitser_cbor_begin_list",   "jitser_cbor_begin_object",   "jitser_cbor_next_field",
    "jitser_cbor_expect_field", "jitser_cbor_skip",           "jitser_cbor_put_enum",
    "jitser_cbor_get_enum",     "jitser_cbor_begin_fields"};

FormatKernel binary_kernel() {
  return {.bitcode = {jitser_binary_kernel_bitcode, jitser_binary_kernel_bitcode_size},
          .layout_symbol = nullptr,
          .layout = 0,
          .inlined = kBinaryInlined,
          .functions = {jitser_binary_kernel_functions, jitser_binary_kernel_function_count}};
}

FormatKernel json_kernel() {
  return {.bitcode = {jitser_json_kernel_bitcode, jitser_json_kernel_bitcode_size},
          .layout_symbol = "jitser_json_kernel_layout",
          .layout = jitser_json_kernel_layout,
          .inlined = kJsonInlined,
          .functions = {jitser_json_kernel_functions, jitser_json_kernel_function_count}};
}

FormatKernel protobuf_kernel() {
  return {.bitcode = {jitser_protobuf_kernel_bitcode, jitser_protobuf_kernel_bitcode_size},
          .layout_symbol = "jitser_protobuf_kernel_layout",
          .layout = jitser_protobuf_kernel_layout,
          .inlined = kProtobufInlined,
          .functions = {jitser_protobuf_kernel_functions, jitser_protobuf_kernel_function_count}};
}

FormatKernel msgpack_kernel() {
  return {.bitcode = {jitser_msgpack_kernel_bitcode, jitser_msgpack_kernel_bitcode_size},
          .layout_symbol = "jitser_msgpack_kernel_layout",
          .layout = jitser_msgpack_kernel_layout,
          .inlined = kMsgpackInlined,
          .functions = {jitser_msgpack_kernel_functions, jitser_msgpack_kernel_function_count}};
}

FormatKernel cbor_kernel() {
  return {.bitcode = {jitser_cbor_kernel_bitcode, jitser_cbor_kernel_bitcode_size},
          .layout_symbol = "jitser_cbor_kernel_layout",
          .layout = jitser_cbor_kernel_layout,
          .inlined = kCborInlined,
          .functions = {jitser_cbor_kernel_functions, jitser_cbor_kernel_function_count}};
}

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
     .reader = binary_reader,
     .slot_bytes = sizeof(binary::Input),
     .write_bound = binary_write_bound,
     .enum_text = nullptr,
     .object_head = nullptr,
     .helpers = binary_helpers,
     .kernel = binary_kernel},
    {.format = Format::Json,
     .name = "json",
     .lower = lower_json,
     .enc_name = json_enc_name,
     .finish_write = json_finish_write,
     .reader_kernel = json::kernel_name,
     .writer = json_writer,
     .reader = json_reader,
     .slot_bytes = sizeof(Slot),
     .write_bound = json_write_bound,
     .enum_text = json_enum_text,
     .object_head = nullptr,
     .helpers = json_helpers,
     .kernel = json_kernel},
    {.format = Format::Protobuf,
     .name = "protobuf",
     .lower = lower_protobuf,
     .enc_name = protobuf_enc_name,
     .finish_write = nullptr,
     .reader_kernel = nullptr,
     .writer = protobuf_writer,
     .reader = protobuf_reader,
     .slot_bytes = sizeof(Slot),
     .write_bound = protobuf_write_bound,
     .enum_text = nullptr,
     .object_head = nullptr,
     .helpers = protobuf_helpers,
     .kernel = protobuf_kernel},
    {.format = Format::Msgpack,
     .name = "msgpack",
     .lower = lower_msgpack,
     .enc_name = msgpack_enc_name,
     .finish_write = nullptr,
     .reader_kernel = nullptr,
     .writer = msgpack_writer,
     .reader = msgpack_reader,
     .slot_bytes = msgpack::kSlotBytes,
     .write_bound = msgpack_write_bound,
     .enum_text = msgpack_enum_text,
     .object_head = msgpack_object_head,
     .helpers = msgpack_helpers,
     .kernel = msgpack_kernel},
    {.format = Format::Cbor,
     .name = "cbor",
     .lower = lower_cbor,
     .enc_name = cbor_enc_name,
     .finish_write = cbor_finish_write,
     .reader_kernel = nullptr,
     .writer = cbor_writer,
     .reader = cbor_reader,
     .slot_bytes = cbor::kSlotBytes,
     .write_bound = cbor_write_bound,
     .enum_text = cbor_enum_text,
     .object_head = cbor_object_head,
     .helpers = cbor_helpers,
     .kernel = cbor_kernel},
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

std::span<const Format> all_formats() {
  static constexpr auto kAll = [] {
    std::array<Format, std::size(kFormats)> all{};
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = kFormats[i].format;
    return all;
  }();
  return kAll;
}

const char* format_name(Format format) {
  const auto i = static_cast<std::size_t>(format);
  return i < std::size(kFormats) ? kFormats[i].name : "?";
}

bool format_compiles(Format format) { return format_entry(format).kernel != nullptr; }

std::optional<Format> parse_format(std::string_view name) {
  for (const FormatEntry& f : kFormats) {
    if (name == f.name) return f.format;
  }
  return std::nullopt;
}

}  // namespace jitser
