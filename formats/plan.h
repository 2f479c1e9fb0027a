// The Plan: one program per (type, format, direction), run by the interpreter and, later,
// translated by the JIT with every operand a constant.
//
// Like upb's mini-table, a Plan is plain data: a flat array of fixed-size instructions grouped
// into routines, one routine per struct type (and one per container element that is not a
// struct). An instruction names an encoding and where its value lives (an offset from the
// routine's base); containers and nested structs name the routine that handles one element.
// A Plan only points into the TypeDescs it was lowered from, so it lives no longer than they do.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/format.h"
#include "typeinfo/type_desc.h"

namespace jitser {

enum class Op : std::uint8_t {
  Header,        // format framing at the start of the input: magic, version, fingerprint
  Bool,          // one byte, 0 or 1
  Fixed,         // `width` bytes little-endian (8/16-bit integers, float, double)
  VarUint,       // LEB128 of an unsigned integer of `width` bytes
  VarSint,       // zigzag LEB128 of a signed integer of `width` bytes
  Int64Compact,  // 4 bytes (v << 1) when v fits in 31 bits signed, else 0x01 and 8 bytes
  String,        // varuint length, UTF-8 bytes
  Bytes,         // varuint length, raw bytes
  Enum,          // zigzag LEB128 of the value; `type` holds the declared values
  Decimal,       // zigzag unscaled (int64), zigzag scale (int32)
  Time,          // zigzag seconds, varuint nanoseconds; `width` holds the in-memory TimeUnit
  Struct,        // routine `a` at base + offset
  Nullable,      // flag byte, then routine `a` on the held value (optional, unique_ptr)
  Shared,        // reference flag byte, then a reference id or routine `a` (shared_ptr)
  List,          // varuint count, element header, routine `a` per element (std::vector)
  Array,         // `b` elements, routine `a` per element, no count on the wire
  Map,           // varuint count, entry header, key routine `a`, value routine `b` per entry
  Dynamic,       // a jitser::Value, its type carried in the data
  // Text formats
  Int,    // a signed integer of `width` bytes as a number; `b` = 1: as a string (a map key)
  UInt,   // an unsigned integer of `width` bytes, likewise
  Float,  // a float (`width` 4) or double (8)
};

const char* op_name(Op op);

inline constexpr std::uint16_t kNoName = 0xFFFF;

struct Instr {
  Op op;
  std::uint8_t width = 0;          // Fixed/VarUint/VarSint/Enum: bytes in memory; Time: unit
  std::uint16_t name = kNoName;    // field name (index into Plan::names) for error paths
  std::uint32_t offset = 0;        // of the value, from the routine's base address
  std::uint32_t a = 0;             // sub-routine (element, key)
  std::uint32_t b = 0;             // Map: value routine; Array: element count
  const TypeDesc* type = nullptr;  // the slot's type: ops tables, element size, enum values
};

struct Routine {
  std::uint32_t begin = 0;           // first instruction
  std::uint32_t end = 0;             // one past the last
  const TypeDesc* type = nullptr;    // the struct, or the element type for a leaf routine
  std::uint32_t min_wire_bytes = 0;  // the fewest input bytes one run can consume
};

struct Plan {
  Format format = Format::Binary;
  Direction direction = Direction::Serialize;
  const TypeDesc* root_type = nullptr;
  std::uint32_t root = 0;  // routine run on the root object
  std::uint64_t fingerprint = 0;
  std::vector<Instr> code;
  std::vector<Routine> routines;
  std::vector<std::string> names;
  // Parallel to names: the field each name is of, and (JSON) its key pre-encoded as `"key":`.
  std::vector<const FieldDesc*> fields;
  std::vector<std::string> keys;
};

/// What a codec is configured with beyond its Plan; both tiers honour it (the JIT as constants).
struct RunOptions {
  std::uint32_t max_depth = 128;     // nested structs, containers and pointers
  bool write_fingerprint = true;     // binary: write the schema fingerprint
  bool require_fingerprint = false;  // binary: reject input that has none
  JsonOptions json;
};

/// A stable, readable listing of the Plan, one instruction a line; golden files compare it.
std::string dump_plan(const Plan& plan);

}  // namespace jitser
