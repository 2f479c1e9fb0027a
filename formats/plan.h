// The Plan: one program per (type, format, direction), run by the interpreter and translated by
// the JIT with every operand a constant.
//
// Like upb's mini-table, a Plan is plain data: a flat array of fixed-size instructions grouped
// into routines, one routine per struct type (and one per container element that is not a
// struct). An instruction names a kind of value, where it lives (an offset from the routine's
// base) and its width in memory; containers and nested structs name the routine that handles
// one element. Every field of a record means the same in every format, except `enc`: the
// format's choice of encoding for the value, which only that format reads. A Plan only points
// into the TypeDescs it was lowered from, so it lives no longer than they do.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <jitser/format.h>
#include <jitser/options.h>
#include <jitser/type_desc.h>

namespace jitser {

/// The kind of value an instruction reads or writes.
enum class Op : std::uint8_t {
  Frame,     // first in the root routine: the format's framing (binary: magic, version, ...)
  Bool,      // `width` 1
  Int,       // a signed integer of `width` bytes
  UInt,      // an unsigned integer of `width` bytes
  Float,     // a float (`width` 4) or double (8)
  String,    // std::string, UTF-8
  Bytes,     // a byte vector
  Enum,      // an integer of `width` bytes; `type` holds the declared values
  Decimal,   // jitser::Decimal
  Time,      // an int64 count of `type->unit`: a timestamp or duration, as `type->kind` says
  Dynamic,   // a jitser::Value, its type carried in the data
  Struct,    // routine `a` at base + offset
  Nullable,  // nothing, or routine `a` on the held value (optional, unique_ptr)
  Shared,    // nothing, or routine `a` on the object (shared_ptr)
  List,      // routine `a` per element (std::vector)
  Array,     // `count` elements, routine `a` per element
  Map,       // key routine `a`, value routine `b` per entry
};

const char* op_name(Op op);

inline constexpr std::uint16_t kNoField = 0xFFFF;

struct Instr {
  Op op;
  std::uint8_t width = 0;          // Bool, Int, UInt, Float, Enum: bytes in memory
  std::uint8_t enc = 0;            // the format's encoding of the value; only it reads this
  std::uint16_t field = kNoField;  // the field it belongs to (index into Plan::fields)
  std::uint32_t offset = 0;        // of the value, from the routine's base address
  std::uint32_t a = 0;             // sub-routine: element, held value, map key
  std::uint32_t b = 0;             // Map: value routine
  std::uint32_t count = 0;         // Array: elements
  const TypeDesc* type = nullptr;  // the slot's type: ops tables, element size, enum values
};

/// A field of a struct as the Plan's instructions refer to it.
struct PlanField {
  std::string name;          // in error paths: the declared name
  std::string key;           // the format's key, pre-encoded (JSON `"uri":`); positional: ""
  std::string match;         // what a reader compares a raw key with (JSON `uri"`)
  std::uint32_t number = 0;  // the declared field number, else declaration index + 1
  bool required = false;     // input must hold it: no default, not optional or nullable
  bool omit_empty = false;   // left out when it holds nothing or its zero value (Protobuf JSON)
  bool omit_absent = false;  // left out when it holds what a reader makes of it absent (Protobuf)
  // A list's or map's key goes before each of its items, as in Protobuf's repeated fields,
  // rather than once before the whole container (FormatTraits::repeated_keys).
  bool key_per_item = false;
  const FieldDesc* desc = nullptr;  // its default, for readers that fill in missing fields
};

struct Routine {
  std::uint32_t begin = 0;           // first instruction
  std::uint32_t end = 0;             // one past the last
  const TypeDesc* type = nullptr;    // the struct, or the element type for a leaf routine
  std::uint32_t min_wire_bytes = 0;  // the fewest input bytes one run can consume
  bool object = false;               // its instructions are a struct's fields, one each
  bool oneofs = false;               // some fields are alternatives: at most one may hold a value
};

/// How a format lays out what the Plan's instructions describe.
struct FormatTraits {
  /// Objects carry a key per field (JSON), or fields follow each other by position (binary).
  bool keyed_objects = false;
  /// An object states its number of fields before them (MessagePack's and CBOR's maps, or
  /// arrays where objects are positional), so a writer decides which fields it leaves out before
  /// it writes the first, and a reader of a positional object checks that it has them all.
  bool counted_objects = false;
  /// Enums are written and read by name (FormatEntry::enum_text), else as their integer.
  bool enum_names = false;
  /// How the reader knows where a list or map ends.
  enum class Containers : std::uint8_t { CountPrefixed, SizePrefixed, Terminated };
  Containers containers = Containers::CountPrefixed;
  /// A shared object is written once and referred to after (binary), or copied wherever it
  /// appears, a cycle being an error.
  bool shared_identity = false;
  /// A key may appear more than once in an object (Protobuf): a singular field read again
  /// takes the last value, a nested object read again merges into the one read before, and a
  /// container gains the items of each appearance. Fields the input leaves out take their
  /// default, else their empty or zero value; none is required.
  bool repeated_keys = false;
  /// Nested objects are written after room of this many bytes for their size, which the
  /// writer fills in after them (Protobuf's length-delimited messages); the document's own
  /// object has none. 0: objects carry no size.
  std::uint8_t size_reserve = 0;
  /// Enums are open (Protobuf): any value their integer holds is written and read, declared
  /// or not, as an integer of the enum's width.
  bool open_enums = false;

  /// The bytes a writer puts around values, empty where the format puts none: compiled code
  /// stores them as constants and merges those that meet.
  struct Literals {
    std::string object_begin;       // before a struct's fields
    std::string field_separator;    // between two fields
    std::string object_end;         // after them
    std::string element_separator;  // between two elements of a list or array
    std::string null;               // an empty optional, pointer or shared_ptr
    std::string present;            // before the value an optional or pointer holds
    std::string shared_new;         // before a shared object written the first time
  };
  Literals literals;
};

struct Plan {
  Format format = Format::Binary;
  Direction direction = Direction::Serialize;
  FormatTraits traits;
  const TypeDesc* root_type = nullptr;
  std::uint32_t root = 0;  // routine run on the root object
  std::uint64_t fingerprint = 0;
  std::vector<Instr> code;
  std::vector<Routine> routines;
  std::vector<PlanField> fields;
  /// Fields the format made, which no TypeDesc declares (Protobuf's wrapper messages around a
  /// list of lists); PlanField::desc points at them.
  std::vector<std::shared_ptr<const FieldDesc>> made_fields;
};

/// What a codec is configured with beyond its Plan; both tiers honour it (the JIT as constants).
/// Formats read the options that apply to them.
struct RunOptions {
  std::uint32_t max_depth = 128;     // nested structs, containers and pointers
  bool write_fingerprint = true;     // write the schema fingerprint (binary)
  bool require_fingerprint = false;  // reject input that has none (binary)
  bool pretty = false;               // write with newlines and indents (JSON)
  bool omit_null = false;            // keyed formats: leave out fields that hold nothing
  bool omit_default = false;         // keyed formats: leave out fields equal to their default
  bool strict = false;               // keyed formats: reject keys the type does not declare
  bool struct_arrays = false;        // MessagePack, CBOR: structs as arrays of their fields
  bool enum_integers = false;        // MessagePack, CBOR: enums as integers, not names
  bool keys_by_number = false;       // CBOR: struct keys are field numbers
  bool deterministic = false;        // CBOR: map keys sorted by their bytes
  bool text_timestamps = false;      // CBOR: timestamps as RFC 3339 text under tag 0
};

/// What an Engine made with `options` runs its codecs with. With describe_options below, the one
/// place an engine option becomes a codec's: engine/ and jit/ pass RunOptions on without naming
/// them.
RunOptions run_options(const EngineOptions& options);

/// The options as one line, naming every one that changes what compiled code does; the code
/// cache keys on it.
std::string describe_options(const RunOptions& options);

/// "int8" to "uint64": the type of an Int or UInt instruction, as messages name it.
const char* int_name(const Instr& in);

/// A stable, readable listing of the Plan, one instruction a line; golden files compare it.
/// `enc_name` names an instruction's encoding as its format calls it.
std::string dump_plan(const Plan& plan, const char* (*enc_name)(const Instr&));

}  // namespace jitser
