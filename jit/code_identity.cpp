#include "jit/code_identity.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "formats/format_table.h"

namespace jitser::jit {
namespace {

// Appends a number's decimal digits, as std::to_string would, without a temporary.
template <class N>
void append_number(std::string& out, N n) {
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
}

// The shape of a type as compiled code sees it, through references and into elements. A
// struct by its name: its fields are its routine's instructions, each with a shape of its own.
void shape(const TypeDesc& declared, std::string& out) {
  const TypeDesc& t = declared.resolved();
  out += kind_name(t.kind);
  out += '(';
  append_number(out, t.size);
  out += ',';
  append_number(out, t.align);
  // Which operations its tables have: code takes other paths where one is missing
  // (std::vector<bool> has no data()).
  auto has = [&](const void* p) { out += p ? '1' : '0'; };
  out += ",ops=";
  has(t.value_ops);
  has(t.list_ops);
  if (t.list_ops) {
    has(reinterpret_cast<const void*>(t.list_ops->data));
    has(reinterpret_cast<const void*>(t.list_ops->get_bool));
  }
  has(t.nullable_ops);
  has(t.shared_ops);
  has(t.map_ops);
  if (t.allocator != Allocator::Standard) out += ",pmr";
  out += ")";
  switch (t.kind) {
    case Kind::Enum:
      out += kind_name(t.underlying);
      out += "{";
      for (const EnumValue& v : t.values) {
        out += v.name;
        out += '=';
        append_number(out, v.value);
        out += ',';
      }
      out += "}";
      return;
    case Kind::Timestamp:
    case Kind::Duration:
      out += "unit";
      append_number(out, static_cast<int>(t.unit));
      return;
    case Kind::Struct:
      out += t.name;
      if (t.wrapper) out += " wrapper";
      if (t.message) out += " message";
      return;
    default: break;
  }
  if (t.kind == Kind::Array) {
    out += 'x';
    append_number(out, t.count);
  }
  if (t.key) {
    out += "<";
    shape(*t.key, out);
    out += ">";
  }
  if (t.element) {
    out += "[";
    shape(*t.element, out);
    out += "]";
  }
}

std::string default_text(const DefaultValue& d) {
  return std::visit(
      [](const auto& v) -> std::string {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::monostate>) {
          return "none";
        } else if constexpr (std::is_same_v<V, std::string>) {
          return "\"" + v + "\"";
        } else {
          return std::to_string(v);
        }
      },
      d);
}

template <class Table>
void add_table(const Table* table, std::vector<const void*>& out) {
  out.push_back(table);
  if (!table) return;
  // Every member of an ops table is a function pointer: they are listed in order.
  static_assert(sizeof(Table) % sizeof(void*) == 0);
  const auto* words = reinterpret_cast<const unsigned char*>(table);
  for (std::size_t i = 0; i < sizeof(Table); i += sizeof(void*)) {
    const void* fn;
    std::memcpy(&fn, words + i, sizeof fn);
    out.push_back(fn);
  }
}

// Calls f(j, first) for each candidate j, in order, whose address an earlier candidate has,
// `first` the earliest such. Every Plan's identity lists them, so they are found in one pass
// over an open-addressing table rather than by sorting.
template <class F>
void for_each_alias(const std::vector<const void*>& hosts, F&& f) {
  constexpr std::size_t kEmpty = SIZE_MAX;
  const std::size_t capacity = std::bit_ceil(std::max<std::size_t>(16, 2 * hosts.size()));
  const int shift = 64 - std::countr_zero(capacity);
  std::vector<std::pair<const void*, std::size_t>> table(capacity, {nullptr, kEmpty});
  for (std::size_t j = 0; j < hosts.size(); ++j) {
    const auto address = reinterpret_cast<std::uintptr_t>(hosts[j]);
    std::size_t at = static_cast<std::size_t>((address * 0x9E3779B97F4A7C15ull) >> shift);
    while (table[at].second != kEmpty && table[at].first != hosts[j]) {
      at = (at + 1) & (capacity - 1);
    }
    if (table[at].second == kEmpty) {
      table[at] = {hosts[j], j};
    } else {
      f(j, table[at].second);
    }
  }
}

}  // namespace

std::string code_identity(const Plan& plan, const RunOptions& options) {
  // The layout of this text is itself part of the identity: changing it changes every key.
  std::string out = "jitser code identity 1\n";
  out += dump_plan(plan, format_entry(plan.format).enc_name);
  out += "fingerprint " + std::to_string(plan.fingerprint) + " keyed " +
         std::to_string(plan.traits.keyed_objects) + " counted " +
         std::to_string(plan.traits.counted_objects) + " enum_names " +
         std::to_string(plan.traits.enum_names) + " containers " +
         std::to_string(static_cast<int>(plan.traits.containers)) + " identity " +
         std::to_string(plan.traits.shared_identity) + "\n";
  for (const Routine& r : plan.routines) {
    out += "routine ";
    append_number(out, r.begin);
    out += '-';
    append_number(out, r.end);
    out += " object ";
    append_number(out, static_cast<int>(r.object));
    out += ' ';
    shape(*r.type, out);
    out += '\n';
  }
  for (const Instr& in : plan.code) {
    out += "instr b";
    append_number(out, in.b);
    out += ' ';
    if (in.type) shape(*in.type, out);
    out += '\n';
  }
  for (const PlanField& f : plan.fields) {
    out += "field " + f.name + " key=" + f.key + " match=" + f.match +
           " number=" + std::to_string(f.number) + " required=" + std::to_string(f.required) +
           " omit_empty=" + std::to_string(f.omit_empty);
    if (f.desc) {
      out += " alias=" + f.desc->alias + " nullable=" + std::to_string(f.desc->nullable) +
             " oneof=" + f.desc->oneof + " default=" + default_text(f.desc->default_value);
    }
    out += "\n";
  }
  // Compiled code names each address by the first candidate that has it: which candidates
  // share an address is part of the code (another program may give two of them one table).
  out += "aliases";
  for_each_alias(host_candidates(plan), [&](std::size_t j, std::size_t first) {
    out += ' ';
    append_number(out, j);
    out += '=';
    append_number(out, first);
  });
  out += "\n";
  out += describe_options(options) + "\n";
  return out;
}

std::vector<const void*> host_candidates(const Plan& plan) {
  std::vector<const void*> out;
  auto add_type = [&](const TypeDesc* t) {
    out.push_back(t);
    if (!t) return;
    add_table(t->value_ops, out);
    add_table(t->list_ops, out);
    add_table(t->nullable_ops, out);
    add_table(t->shared_ops, out);
    add_table(t->map_ops, out);
  };
  for (const Routine& r : plan.routines) add_type(r.type);
  for (const Instr& in : plan.code) {
    out.push_back(&in);
    add_type(in.type);
  }
  for (const PlanField& f : plan.fields) out.push_back(f.desc);
  return out;
}

}  // namespace jitser::jit
