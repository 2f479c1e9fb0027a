// The table of formats: what engine/ and jit/ consult instead of naming a format. Each format
// adds one entry, in formats/format_table.cpp, the one file that lists them.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include <jitser/buffer.h>

#include "formats/compiled_abi.h"
#include "formats/ops.h"
#include "formats/plan.h"

namespace jitser {

/// A format's kernel: its hottest helpers as LLVM bitcode (jitser_format_kernel in
/// CMakeLists.txt), which the JIT links into the format's codecs so that their calls inline.
struct FormatKernel {
  std::span<const unsigned char> bitcode;
  /// A global of the bitcode that must hold the library's value of it, `layout`: the classes
  /// the kernel and the library share are laid out alike. Null for a kernel that shares only
  /// plain values.
  const char* layout_symbol;
  std::uint64_t layout;
  /// The helpers inlined at every call (the others stay calls within the codec's module).
  std::span<const char* const> inlined;
  /// Every function the kernel defines, as compiled into the library, by name: first-tier
  /// code calls these rather than the bitcode's.
  std::span<const HelperSymbol> functions;
};

/// The most bytes the kernel's put for an instruction writes, so that compiled code makes room
/// once for a run of values: `fixed`, plus `per_byte` / `per_byte_div` for each byte of a
/// string's or byte vector's size. For a list or array, `fixed` is before its elements and
/// `close` after them; for a shared object in a format that keeps identity, the reference to
/// one written before.
struct WriteBound {
  std::uint32_t fixed = 0;
  std::uint32_t per_byte = 0;
  std::uint32_t per_byte_div = 1;
  std::uint32_t close = 0;
  bool fallible = false;  // the put may refuse the value, returning null (JSON: a NaN)
  /// A list or array whose elements' bytes are prefixed by their size, for which the writer
  /// leaves FormatTraits::size_reserve bytes (Protobuf's packed runs).
  bool sized = false;
};

struct FormatEntry {
  Format format;
  const char* name;  // as format_name() gives it
  /// TypeDesc -> Plan, for a resolved root type. The options that change the layout of what
  /// is written (RunOptions::struct_arrays) are decided here, in the Plan, so that both tiers
  /// follow them without asking.
  Plan (*lower)(const TypeDesc& root, Direction direction, const RunOptions& options);
  /// An instruction's encoding as the format names it in Plan dumps ("" for none).
  const char* (*enc_name)(const Instr& in);
  /// Run on the output of a successful write, in both tiers: JSON re-indents it when the
  /// options ask for pretty output. Null when there is nothing to do.
  void (*finish_write)(const RunOptions& options, Buffer& out);
  /// A line on the reading machinery for statistics (JSON: simdjson's kernels), or null.
  std::string (*reader_kernel)();
  /// The operations the interpreter writes and reads the format with: one writer for every
  /// call, and a reader made per call in kReaderStorage bytes of the caller's.
  const FormatWriter& (*writer)();
  FormatReader* (*reader)(void* storage);
  /// The bytes at the start of a Slot that the format's compiled reader uses: compiled code
  /// copies only those when it lends a slot to a call.
  std::uint32_t slot_bytes;
  /// What the kernel's put for an instruction may write (compiled code reserves that room).
  WriteBound (*write_bound)(const Instr& in);
  /// An enum's name as the format writes it, for Plans that write enums by name
  /// (FormatTraits::enum_names; JSON: the quoted string); null for formats that never do.
  std::string (*enum_text)(std::string_view name);
  /// Formats whose objects state their number of fields first (FormatTraits::counted_objects):
  /// the bytes before an object's fields, for that many fields (MessagePack: a map head, or an
  /// array head where objects are positional). Null for the others, which write
  /// FormatTraits::Literals::object_begin.
  std::string (*object_head)(const FormatTraits& traits, std::size_t fields);
  /// The helpers compiled code calls by name.
  std::span<const HelperSymbol> (*helpers)();
  /// The kernel; null for a format the JIT does not compile, whose codecs stay on the
  /// interpreter (with write_bound and helpers null too).
  FormatKernel (*kernel)();
};

/// Every format, in the order of enum Format.
std::span<const FormatEntry> format_entries();
const FormatEntry& format_entry(Format format);

}  // namespace jitser
