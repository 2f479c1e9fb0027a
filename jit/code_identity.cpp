#include "jit/code_identity.h"

#include <algorithm>
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

// The shape of a type as compiled code sees it, through references and into elements. A
// struct by its name: its fields are its routine's instructions, each with a shape of its own.
void shape(const TypeDesc& declared, std::string& out) {
  const TypeDesc& t = declared.resolved();
  out += kind_name(t.kind);
  out += '(';
  out += std::to_string(t.size);
  out += ',';
  out += std::to_string(t.align);
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
      for (const EnumValue& v : t.values) out += v.name + "=" + std::to_string(v.value) + ",";
      out += "}";
      return;
    case Kind::Timestamp:
    case Kind::Duration: out += "unit" + std::to_string(static_cast<int>(t.unit)); return;
    case Kind::Struct:
      out += t.name + (t.wrapper ? " wrapper" : "") + (t.message ? " message" : "");
      return;
    default: break;
  }
  if (t.kind == Kind::Array) out += "x" + std::to_string(t.count);
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
    out += std::to_string(r.begin);
    out += '-';
    out += std::to_string(r.end);
    out += " object ";
    out += std::to_string(r.object);
    out += ' ';
    shape(*r.type, out);
    out += '\n';
  }
  for (const Instr& in : plan.code) {
    out += "instr b";
    out += std::to_string(in.b);
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
  // Sorted by address, then place, each candidate follows the first that shares its address.
  const std::vector<const void*> hosts = host_candidates(plan);
  std::vector<std::pair<const void*, std::size_t>> by_address;
  by_address.reserve(hosts.size());
  for (std::size_t j = 0; j < hosts.size(); ++j) by_address.emplace_back(hosts[j], j);
  std::sort(by_address.begin(), by_address.end());
  std::vector<std::pair<std::size_t, std::size_t>> aliases;
  for (std::size_t k = 1, first = 0; k < by_address.size(); ++k) {
    if (by_address[k].first != by_address[first].first) {
      first = k;
    } else {
      aliases.emplace_back(by_address[k].second, by_address[first].second);
    }
  }
  std::sort(aliases.begin(), aliases.end());
  out += "aliases";
  for (const auto& [j, first] : aliases) {
    out += ' ';
    out += std::to_string(j);
    out += '=';
    out += std::to_string(first);
  }
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
