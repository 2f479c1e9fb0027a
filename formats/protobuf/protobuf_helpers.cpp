// The Protobuf format's helpers: what its compiled codecs call for work not worth emitting as IR
// (formats/compiled_abi.h), on the same rules as the interpreter's operations.
#include "formats/protobuf/protobuf_helpers.h"

#include <cstring>
#include <string>

#include "formats/protobuf/fields.h"
#include "formats/protobuf/protobuf_slot.h"
#include "formats/protobuf/sized.h"
#include "formats/protobuf/value_protobuf.h"
#include "formats/protobuf/wire.h"
#include "typeinfo/strings.h"
#include "typeinfo/utf8.h"

namespace jitser {

using namespace protobuf;

namespace {

// The buffer's room after what compiled code wrote up to `cursor`.
WriteSpan span_after(Buffer& out) {
  std::uint8_t* at = out.ensure(0);
  return {at, at + (out.capacity() - out.size())};
}

WriteSpan room(WriteContext* ctx, WriteSpan span, std::size_t need) {
  if (static_cast<std::size_t>(span.limit - span.cursor) >= need) return span;
  return jitser_rt_grow(ctx, span.cursor, need);
}

std::uint64_t mark_of(WriteContext* ctx, const std::uint8_t* cursor) {
  return static_cast<std::uint64_t>(cursor - ctx->out->data());
}

}  // namespace

extern "C" {

WriteSpan jitser_protobuf_widen_sized(WriteContext* ctx, std::uint8_t* cursor, std::uint64_t mark) {
  Buffer& out = *ctx->out;
  out.commit_to(cursor);
  close_sized(out, mark);
  return span_after(out);
}

bool jitser_protobuf_skip_group(const std::uint8_t** p, const std::uint8_t* end,
                                std::uint32_t number, std::uint32_t max_depth) {
  ReadFailure fail;
  return skip_group(*p, end, number, max_depth, fail);
}

bool jitser_protobuf_get_decimal(Slot* s, Decimal* d) {
  FieldValue& v = value_of(s);
  ReadFailure fail;
  return as_type(v, wire::kLen) && read_decimal(v.p, v.end, *d, fail);
}

bool jitser_protobuf_get_time(Slot* s, std::int64_t* ticks, std::uint32_t unit,
                              std::uint32_t duration, std::uint32_t) {
  FieldValue& v = value_of(s);
  ReadFailure fail;
  return as_type(v, wire::kLen) &&
         read_time(v, static_cast<TimeUnit>(unit), duration != 0, *ticks, fail);
}

WriteSpan jitser_protobuf_write_value(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t*,
                                      const void* value) {
  Buffer& out = *ctx->out;
  out.commit_to(cursor);
  const std::size_t mark = open_sized(out);
  if (write_value(out, *static_cast<const Value*>(value), ctx->max_depth - ctx->depth) !=
      Errc::ok) {
    return {nullptr, nullptr};
  }
  close_sized(out, mark);
  return span_after(out);
}

// Each bool one byte, in the packed run the emitter frames.
WriteSpan jitser_protobuf_write_bool_list(WriteContext* ctx, std::uint8_t* cursor,
                                          std::uint8_t* limit, const void* list,
                                          const TypeDesc* type, std::size_t n) {
  WriteSpan span = room(ctx, {cursor, limit}, n);
  for (std::size_t i = 0; i < n; ++i) span.cursor[i] = type->list_ops->get_bool(type, list, i);
  span.cursor += n;
  return span;
}

// Each entry after the field's key: a message of the key, field 1, and the value, field 2,
// which `value` frames itself when it is a message.
WriteSpan jitser_protobuf_write_map(WriteContext* ctx, std::uint8_t* cursor, std::uint8_t* limit,
                                    const void* map, const TypeDesc* type, std::uint32_t enc,
                                    WriteFn key, WriteFn value, const std::uint8_t* item_key,
                                    std::size_t item_key_size) {
  WriteSpan span{cursor, limit};
  const MapOps& ops = *type->map_ops;
  alignas(std::max_align_t) unsigned char iterator[kMapIteratorSize];
  ops.begin(type, map, iterator);
  const void* k;
  const void* v;
  const auto key_tag = static_cast<std::uint8_t>(
      wire::tag(1, static_cast<wire::WireType>(enc & wire::kWireTypeMask)));
  const auto value_tag = static_cast<std::uint8_t>(wire::tag(
      2, static_cast<wire::WireType>((enc >> wire::kMapValueShift) & wire::kWireTypeMask)));
  while (ops.next(type, iterator, &k, &v)) {
    span = room(ctx, span, item_key_size + 2);
    std::memcpy(span.cursor, item_key, item_key_size);
    span.cursor += item_key_size;
    const std::uint64_t mark = mark_of(ctx, span.cursor);
    span.cursor[1] = key_tag;
    span.cursor += 2;
    span = key(ctx, span.cursor, span.limit, static_cast<const std::uint8_t*>(k));
    if (!span.cursor) return span;
    span = room(ctx, span, 1);
    *span.cursor++ = value_tag;
    span = value(ctx, span.cursor, span.limit, static_cast<const std::uint8_t*>(v));
    if (!span.cursor) return span;
    span = jitser_protobuf_close_sized(ctx, span.cursor, span.limit, mark);
  }
  return span;
}

bool jitser_protobuf_read_value(ReadContext* ctx, Slot* s, void* value) {
  FieldValue& v = value_of(s);
  ReadFailure fail;
  return as_type(v, wire::kLen) &&
         read_value(v.p, v.end, *static_cast<Value*>(value), ctx->max_depth - ctx->depth, fail);
}

// One appearance of a list of bools: the field's first in a message replaces what the list
// held, a later one (`append`) adds to it.
bool jitser_protobuf_read_bool_list(Slot* s, void* list, const TypeDesc* type, std::uint32_t enc,
                                    std::uint32_t append) {
  const ListOps& ops = *type->list_ops;
  Cursor c;
  begin_items(value_of(s), true, enc, c);
  std::uint64_t count = 0;
  if (!count_items(c, count)) return false;
  const std::size_t size = ops.size(type, list);
  std::size_t n = append ? size : 0;
  if (n + count != size) ops.resize(type, list, n + count);
  // Set a run at a time where the list's ops can, which saves a call per element.
  std::uint8_t run[64];
  std::size_t held = 0;
  auto set = [&] {
    if (ops.set_bools) {
      ops.set_bools(type, list, n, run, held);
    } else {
      for (std::size_t i = 0; i < held; ++i) ops.set_bool(type, list, n + i, run[i] != 0);
    }
    n += held;
    held = 0;
  };
  if (c.kind == Cursor::Kind::Packed && count == static_cast<std::size_t>(c.end - c.p)) {
    // Every varint of the run is one byte, as writers write bools: the run is the values.
    if (ops.set_bools) {
      ops.set_bools(type, list, n, c.p, count);
      return true;
    }
    for (const std::uint8_t* p = c.p; p != c.end; ++p) {
      run[held++] = *p != 0;
      if (held == sizeof run) set();
    }
    set();
    return true;
  }
  FieldValue item;
  for (;;) {
    switch (next_item(c, item)) {
      case ItemStatus::item: break;
      case ItemStatus::done: set(); return true;
      case ItemStatus::malformed: return false;
    }
    if (!as_type(item, wire::kVarint)) return false;
    run[held++] = item.bits != 0;
    if (held == sizeof run) set();
  }
}

// One entry, a message of its key and value, either of which may be left out, read into the
// map's refill (MapOps), which lasts from the field's first appearance in the message to its
// end; it replaces an entry of the same key read before.
bool jitser_protobuf_read_map(ReadContext* ctx, Slot* s, void* map, const TypeDesc* type,
                              const Instr*, std::uint32_t, std::uint32_t, SlotReadFn read_key,
                              SlotReadFn read_value, void* refill) {
  const FieldValue& entry = value_of(s);
  if (entry.type != wire::kLen) return false;
  Slot key_slot, value_slot;
  ReadFailure fail;
  if (!read_entry(entry, value_of(&key_slot), value_of(&value_slot), ctx->max_depth, fail)) {
    return false;
  }
  const MapOps& ops = *type->map_ops;
  void* key = ops.refill_key(type, refill);
  if (!read_key(ctx, &key_slot, static_cast<std::uint8_t*>(key))) return false;
  const void* stored_key = nullptr;
  void* target = ops.refill_insert(type, map, refill, &stored_key);
  if (!target) target = ops.find(type, map, key);
  return target && read_value(ctx, &value_slot, static_cast<std::uint8_t*>(target));
}

}  // extern "C"

std::span<const HelperSymbol> protobuf_helpers() {
  static const HelperSymbol helpers[] = {
      {"jitser_protobuf_widen_sized", reinterpret_cast<void*>(&jitser_protobuf_widen_sized)},
      {"jitser_protobuf_skip_group", reinterpret_cast<void*>(&jitser_protobuf_skip_group)},
      {"jitser_protobuf_get_decimal", reinterpret_cast<void*>(&jitser_protobuf_get_decimal)},
      {"jitser_protobuf_get_time", reinterpret_cast<void*>(&jitser_protobuf_get_time)},
      {"jitser_protobuf_write_value", reinterpret_cast<void*>(&jitser_protobuf_write_value)},
      {"jitser_protobuf_write_bool_list",
       reinterpret_cast<void*>(&jitser_protobuf_write_bool_list)},
      {"jitser_protobuf_write_map", reinterpret_cast<void*>(&jitser_protobuf_write_map)},
      {"jitser_protobuf_read_value", reinterpret_cast<void*>(&jitser_protobuf_read_value)},
      {"jitser_protobuf_read_bool_list", reinterpret_cast<void*>(&jitser_protobuf_read_bool_list)},
      {"jitser_protobuf_read_map", reinterpret_cast<void*>(&jitser_protobuf_read_map)},
  };
  return helpers;
}

}  // namespace jitser
