// EngineOptions: what an Engine does by default, and when it compiles.
#pragma once

#include <cstdint>
#include <string>

#include <jitser/export.h>

namespace jitser {

/// When codecs are compiled.
enum class JitPolicy : std::uint8_t {
  Off,    // interpreter only
  Sync,   // compile before codec() returns
  Async,  // compile in the background as soon as the codec is made (the default)
  Lazy,   // compile in the background after EngineOptions::lazy_calls calls
};

/// "off", "sync", "async", "lazy".
JITSER_API const char* jit_policy_name(JitPolicy policy);

/// Which compiled code a codec gets (docs/jit.md, "Tiers"). First-tier code is made within
/// milliseconds and calls the format's operations as the library compiled them; optimized code
/// inlines them and takes LLVM longer. With both, a codec runs first-tier code while its
/// optimized code compiles, then switches; under JitPolicy::Sync it waits for optimized code
/// only.
enum class CompileTiers : std::uint8_t { First, Optimized, Both };

struct EngineOptions {
  /// Deepest nesting of structs, containers and pointers a codec reads or writes.
  std::uint32_t max_depth = 128;
  /// Formats that frame their output (binary): write the root type's schema fingerprint, so
  /// readers with another schema refuse.
  bool write_fingerprint = true;
  /// Formats that frame their output: refuse input that carries no fingerprint.
  bool require_fingerprint = false;
  /// Text formats (JSON): write newlines and two spaces of indent per level.
  bool pretty = false;
  /// Keyed formats (JSON): leave out optional fields that hold nothing.
  bool omit_null = false;
  /// Keyed formats: leave out fields equal to their declared default.
  bool omit_default = false;
  /// Keyed formats: reject keys the type does not declare.
  bool strict = false;
  /// MessagePack and CBOR: write and read a struct as an array of its fields in declaration
  /// order, with no keys, rather than as a map keyed by field name. Smaller and faster to read,
  /// but the reader must declare the same fields in the same order: an array of another length
  /// is refused, and nothing tells two fields of one type apart if they are swapped.
  bool struct_arrays = false;
  /// MessagePack and CBOR: write and read enums as their integer rather than their name.
  bool enum_integers = false;
  /// CBOR: a struct's map is keyed by its fields' numbers (FieldDesc::number, else the place
  /// in the declaration from 1), as integers, rather than by their names. Such a reader also
  /// takes keys by name; one keyed by name skips integer keys.
  bool keys_by_number = false;
  /// CBOR: write core deterministic encoding (RFC 8949, section 4.2.1), every map's entries
  /// sorted by the bytes of their keys, so that equal values are equal bytes. Costs a second
  /// pass over the output.
  bool deterministic = false;
  /// CBOR: write timestamps as RFC 3339 text under tag 0, rather than as epoch seconds under
  /// tag 1. Readers take both, whatever this says. Years before 0001 and after 9999 have no
  /// such text and fail to write with `out_of_range`.
  bool text_timestamps = false;
  /// When to compile; JITSER_JIT overrides it.
  JitPolicy jit = JitPolicy::Async;
  /// Which code to compile; JITSER_TIERS (first, optimized, both) overrides it.
  CompileTiers tiers = CompileTiers::Both;
  /// Lazy: calls of a codec (both directions together) before it is compiled.
  std::uint32_t lazy_calls = 1000;
  /// Background compile threads of this Engine, made when first needed. However many threads
  /// compile, at most one module per core is compiled at a time.
  std::uint32_t compile_threads = 1;
  /// Write perf jitdump and map files and register code with gdb; JITSER_PERF=1 turns it on.
  bool profiling = false;
  /// A directory that keeps compiled code across runs (docs/jit.md): a codec whose code is
  /// there is linked, not compiled. Empty: no cache; JITSER_CACHE_DIR sets it. It holds
  /// machine code that this program runs, so a directory of another user, or one that its group
  /// or others may write to, is not used (CodecStats::cache says so).
  std::string cache_dir;
  /// The most bytes the cache directory holds: the least recently used files go first.
  std::uint64_t cache_max_bytes = std::uint64_t{256} << 20;
};

}  // namespace jitser
