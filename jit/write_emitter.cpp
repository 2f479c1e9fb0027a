// The one serializer emitter: a Plan of any format to IR, through the format's kernel contract
// (formats/compiled_abi.h) and the literals of its traits. Everything here is a format-neutral
// mechanism: literal bytes between values are stored as constant words and merge where they
// meet, nested structs are spliced into their parent, a run of values whose bounds the format
// declares shares one capacity check, and the format's puts inline from its kernel with every
// operand but the value a constant.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "jit/emitter.h"

namespace jitser::jit {
namespace {

using namespace ir;

// Routines are WriteSpan routine(WriteContext*, cursor, limit, const base*).
class WriteEmitter : public WriterBase {
 public:
  WriteEmitter(const Plan& plan, const RunOptions& options, llvm::Module& module,
               std::vector<HostAddress>& hosts)
      : WriterBase(plan, options, module, hosts),
        literals_(plan.traits.literals),
        omitting_(plan.traits.keyed_objects && (options.omit_null || options.omit_default)),
        reserve_(plan.traits.size_reserve) {}

  void emit(const std::string& entry) {
    declare(fn_type_, entry);
    // Formats that size nested objects call each through a routine of its own that frames it.
    framed_.assign(plan_.routines.size(), nullptr);
    for (std::uint32_t r = 0; reserve_ && r < plan_.routines.size(); ++r) {
      if (!plan_.routines[r].object) continue;
      framed_[r] = Function::Create(fn_type_, Function::InternalLinkage,
                                    routines_[r]->getName() + ".sized", module_);
      framed_[r]->setUWTableKind(llvm::UWTableKind::Default);
      framed_[r]->addFnAttr(llvm::Attribute::AlwaysInline);
    }
    for (std::uint32_t r = 0; r < plan_.routines.size(); ++r) routine(r);
    for (std::uint32_t r = 0; r < plan_.routines.size(); ++r) {
      if (framed_[r]) framed(r);
    }
  }

 private:
  // A value to write and the literal bytes that go before it.
  struct Step {
    std::string literal;
    const Instr* in;
    Value* base;  // what the instruction's offset is from
  };

  // The room a value needs: a constant, plus what depends on its size (or null).
  struct Room {
    std::uint64_t fixed;
    Value* dynamic;
  };

  void routine(std::uint32_t r) {
    current_ = r;
    begin(routines_[r]);
    Value* base = fn_->getArg(3);
    if (plan_.routines[r].object && omits(r)) {
      check_oneofs(plan_.routines[r], base);
      object_with_omissions(r, base);
    } else {
      std::vector<Step> steps;
      std::string tail;
      expand(r, base, tail, steps);
      write(steps);
      put_literal_with_room(tail);
    }
    end();
  }

  // The steps of routine r, with nested structs spliced in where no depth is counted and no
  // field is left out, and the literals of the objects around them; what follows the last
  // value is left in `literal`.
  void expand(std::uint32_t r, Value* base, std::string& literal, std::vector<Step>& out) {
    const Routine& routine = plan_.routines[r];
    check_oneofs(routine, base);
    if (routine.object) literal += object_begin(routine.end - routine.begin);
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      const Instr& in = plan_.code[i];
      if (routine.object) {
        if (i != routine.begin) literal += literals_.field_separator;
        literal += key_before(in);
      }
      if (splices(in)) {
        expand(in.a, at(base, in.offset), literal, out);
      } else {
        out.push_back({std::move(literal), &in, base});
        literal.clear();
      }
    }
    if (routine.object) literal += literals_.object_end;
  }

  // Runs of steps with a bound share one capacity check; the others reserve their own.
  void write(const std::vector<Step>& steps) {
    for (std::size_t i = 0; i < steps.size();) {
      std::size_t j = i;
      std::uint64_t fixed = 0;
      Value* dynamic = nullptr;
      for (; j < steps.size(); ++j) {
        const std::optional<Room> room = room_of(*steps[j].in, steps[j].base);
        if (!room) break;
        fixed += steps[j].literal.size() + room->fixed;
        if (room->dynamic) dynamic = dynamic ? b_.CreateAdd(dynamic, room->dynamic) : room->dynamic;
      }
      if (j == i) {
        put_literal_with_room(steps[i].literal);
        unbounded(*steps[i].in, steps[i].base);
        ++i;
        continue;
      }
      ensure(dynamic ? b_.CreateAdd(dynamic, c64(fixed)) : c64(fixed));
      for (; i < j; ++i) {
        put_literal(steps[i].literal);
        bounded(*steps[i].in, steps[i].base);
      }
    }
  }

  // What goes before an object of n fields: the format's literal, or in formats that count an
  // object's fields first, its head for n.
  std::string object_begin(std::size_t n) const {
    return format_.object_head ? format_.object_head(plan_.traits, n) : literals_.object_begin;
  }

  // Fields the options may leave out decide at run time, and so do the separators between them.
  // A run of bounded fields shares one capacity check, for all of them as if none were left out.
  // Formats that count an object's fields first decide for every field before the first.
  void object_with_omissions(std::uint32_t r, Value* base) {
    const Routine& routine = plan_.routines[r];
    Value* first = local(i1(), "first", 1);
    b_.CreateStore(llvm::ConstantInt::getTrue(ctx_), first);
    std::vector<Value*> left_out(routine.end - routine.begin, nullptr);
    if (format_.object_head) {
      Value* written = c64(0);
      for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
        Value*& out = left_out[i - routine.begin];
        out = left_out_of(plan_.code[i], base);
        written = b_.CreateAdd(written, b_.CreateZExt(b_.CreateNot(out), i64_));
      }
      put_object_head(written, routine.end - routine.begin);
    } else {
      put_literal_with_room(literals_.object_begin);
    }
    for (std::uint32_t i = routine.begin; i < routine.end;) {
      std::uint32_t run = i;
      std::uint64_t fixed = 0;
      Value* dynamic = nullptr;
      for (; run < routine.end; ++run) {
        const Instr& in = plan_.code[run];
        const std::optional<Room> room = room_of(in, base);
        if (!room) break;
        fixed += literals_.field_separator.size() + key_before(in).size() + room->fixed;
        if (room->dynamic) dynamic = dynamic ? b_.CreateAdd(dynamic, room->dynamic) : room->dynamic;
      }
      auto decided = [&](std::uint32_t k) {
        Value* known = left_out[k - routine.begin];
        return known ? known : left_out_of(plan_.code[k], base);
      };
      if (run > i) {
        ensure(dynamic ? b_.CreateAdd(dynamic, c64(fixed)) : c64(fixed));
        for (; i < run; ++i) field_unless_left_out(plan_.code[i], base, first, true, decided(i));
      } else {
        field_unless_left_out(plan_.code[i], base, first, false, decided(i));
        ++i;
      }
    }
    put_literal_with_room(literals_.object_end);
  }

  // The head of an object of `written` of its `most` fields, one constant for each count.
  void put_object_head(Value* written, std::uint32_t most) {
    std::size_t room = 0;
    for (std::uint32_t n = 0; n <= most; ++n) room = std::max(room, object_begin(n).size());
    ensure(c64(room));
    BasicBlock* done = block("head.done");
    llvm::SwitchInst* sw = b_.CreateSwitch(written, done, most + 1);
    for (std::uint32_t n = 0; n <= most; ++n) {
      BasicBlock* head = block("head");
      sw->addCase(llvm::ConstantInt::get(i64_, n), head);
      b_.SetInsertPoint(head);
      put_literal(object_begin(n));
      b_.CreateBr(done);
    }
    b_.SetInsertPoint(done);
  }

  // Whether the options leave out the field `in` of the object at base, as
  // formats/field_default.h's left_out says, or it holds what a reader makes of it absent.
  Value* left_out_of(const Instr& in, Value* base) {
    const PlanField& field = plan_.fields[in.field];
    Value* slot = at(base, in.offset);
    const bool no_default = std::holds_alternative<std::monostate>(field.desc->default_value);
    Value* left_out = nullptr;
    if (!omitting_ && field.omit_empty && no_default) left_out = holds_zero(in, slot);
    if (!omitting_ && !field.omit_empty) left_out = llvm::ConstantInt::getFalse(ctx_);
    if (!left_out) {
      left_out = b_.CreateCall(helper("jitser_rt_omit", i1(), {ptr_, ptr_, i32_, i32_, i32_}),
                               {const_ptr(field.desc), slot, c32(options_.omit_null),
                                c32(options_.omit_default), c32(field.omit_empty)});
    }
    if (field.omit_absent) {
      Value* is_absent = no_default ? absent(in, *field.desc, slot) : nullptr;
      if (!is_absent) {
        is_absent = b_.CreateCall(helper("jitser_rt_absent_value", i1(), {ptr_, ptr_}),
                                  {const_ptr(field.desc), slot});
      }
      left_out = b_.CreateOr(left_out, is_absent);
    }
    return left_out;
  }

  // A field of object_with_omissions, with its separator and key unless `left_out`: in room
  // already made, or reserving its own.
  void field_unless_left_out(const Instr& in, Value* base, Value* first, bool has_room,
                             Value* left_out) {
    BasicBlock* write_it = block("field");
    BasicBlock* separate = block("field.separator");
    BasicBlock* key = block("field.key");
    BasicBlock* next = block("field.next");
    b_.CreateCondBr(left_out, next, write_it);
    b_.SetInsertPoint(write_it);
    b_.CreateCondBr(b_.CreateLoad(i1(), first), key, separate);
    b_.SetInsertPoint(separate);
    if (has_room) {
      put_literal(literals_.field_separator);
    } else {
      put_literal_with_room(literals_.field_separator);
    }
    b_.CreateBr(key);
    b_.SetInsertPoint(key);
    b_.CreateStore(llvm::ConstantInt::getFalse(ctx_), first);
    if (has_room) {
      put_literal(key_before(in));
      bounded(in, base);
    } else {
      write({{key_before(in), &in, base}});
    }
    b_.CreateBr(next);
    b_.SetInsertPoint(next);
  }

  // ---- bounds ---------------------------------------------------------------------------

  // The most bytes `in` writes when it is a bounded leaf (or an optional of one), else nothing.
  std::optional<Room> room_of(const Instr& in, Value* base) {
    if (const Instr* inner = optional_leaf(in)) {
      const Room held = *room_of(*inner, at(base, in.offset));
      const std::uint64_t null = literals_.null.size();
      const std::uint64_t some = literals_.present.size() + held.fixed;
      Value* dynamic = held.dynamic
                           ? b_.CreateSelect(engaged(in, at(base, in.offset)), held.dynamic, c64(0))
                           : nullptr;
      return Room{std::max(null, some), dynamic};
    }
    if (!is_leaf(in.op)) return std::nullopt;
    if (in.op == Op::Enum && plan_.traits.enum_names) {
      std::uint64_t most = 0;
      for (const EnumValue& d : in.type->values) {
        most = std::max<std::uint64_t>(most, format_.enum_text(d.name).size());
      }
      return Room{most, nullptr};
    }
    const WriteBound bound = format_.write_bound(in);
    Value* dynamic = nullptr;
    if (bound.per_byte) {
      Value* n = size_of(in, at(base, in.offset));
      dynamic = b_.CreateMul(n, c64(bound.per_byte));
      if (bound.per_byte_div > 1) dynamic = b_.CreateUDiv(dynamic, c64(bound.per_byte_div));
    }
    return Room{bound.fixed, dynamic};
  }

  static bool is_leaf(Op op) { return op <= Op::Time; }

  // For a std::optional whose element is one bounded leaf (and no depth is counted), that leaf:
  // such an optional joins a run of bounded writes.
  const Instr* optional_leaf(const Instr& in) const {
    if (in.op != Op::Nullable || in.type->kind != Kind::Optional || track_depth_) return nullptr;
    const Routine& element = plan_.routines[in.a];
    if (element.end - element.begin != 1) return nullptr;
    const Instr& inner = plan_.code[element.begin];
    if (inner.offset != 0 || !is_leaf(inner.op) || inner.op == Op::Frame) return nullptr;
    // A struct of that one field is a leaf only where the format frames objects with nothing.
    if (element.object && (!object_begin(1).empty() || !literals_.object_end.empty() ||
                           !plan_.fields[inner.field].key.empty())) {
      return nullptr;
    }
    return &inner;
  }

  // Whether the value at `slot` is what formats/field_default.h's holds_zero calls zero,
  // decided in line where compiled code knows the layout; null for the others, which ask
  // jitser_rt_omit.
  Value* holds_zero(const Instr& in, Value* slot) {
    switch (in.op) {
      case Op::Bool:
      case Op::Int:
      case Op::UInt:
      case Op::Enum:
      case Op::Float:  // by its bits: -0.0 is not zero
      case Op::Time: {
        const unsigned width = in.op == Op::Time ? 8 : in.width;
        return b_.CreateICmpEQ(load(int_type(width), slot, 0),
                               llvm::ConstantInt::get(int_type(width), 0));
      }
      case Op::String:
      case Op::Bytes: return b_.CreateICmpEQ(size_of(in, slot), c64(0));
      case Op::List:
        if (!in.type->list_ops->data) return nullptr;  // std::vector<bool>
        return b_.CreateICmpEQ(load(ptr_, std_layout(in, slot), 0),
                               load(ptr_, std_layout(in, slot), 8));
      case Op::Nullable: {
        // An optional or pointer of one that may hold nothing itself is JSON's null deeper down.
        const Kind held = element_of(in).kind;
        if (held == Kind::Optional || held == Kind::UniquePtr || held == Kind::SharedPtr ||
            held == Kind::Dynamic) {
          return nullptr;
        }
        if (in.type->kind == Kind::Optional) return b_.CreateNot(engaged(in, slot));
        return b_.CreateIsNull(load(ptr_, slot, 0));
      }
      default: return nullptr;
    }
  }

  // Whether the value at `slot` is what formats/field_default.h's equals_absent calls absent,
  // for a field with no default, decided in line where compiled code knows the layout; null
  // for the others, which ask jitser_rt_absent_value.
  Value* absent(const Instr& in, const FieldDesc& field, Value* slot) {
    // A struct is never absent, nor a wrapper struct whose value the instruction reads.
    const Kind kind = field.type->resolved().kind;
    if (kind == Kind::Struct || kind == Kind::Array) return llvm::ConstantInt::getFalse(ctx_);
    switch (in.op) {
      case Op::Nullable:
        if (in.type->kind == Kind::Optional) return b_.CreateNot(engaged(in, slot));
        return b_.CreateIsNull(load(ptr_, slot, 0));
      case Op::Shared: return b_.CreateIsNull(load(ptr_, slot, 0));
      case Op::Decimal:
      case Op::Dynamic:
      case Op::Map: return nullptr;
      default: return holds_zero(in, slot);
    }
  }

  // std::optional<T>: the value, then its engaged flag (jit/runtime.h).
  Value* engaged(const Instr& in, Value* slot) {
    return b_.CreateICmpNE(load(i8_, slot, element_of(in).size), c8(0));
  }

  // A string's or byte vector's size: a string's standard layout holds its data pointer and
  // size; a vector's its begin and end.
  Value* size_of(const Instr& in, Value* slot) {
    Value* words = std_layout(in, slot);
    if (in.op == Op::String) return load(i64_, words, 8);
    return b_.CreatePtrDiff(i8_, load(ptr_, words, 8), load(ptr_, words, 0));
  }

  // ---- puts -----------------------------------------------------------------------------

  // Calls the format's put `name` at the cursor with `args`; a fallible one fails on null.
  void put(const char* name, bool fallible, llvm::ArrayRef<Type*> params,
           llvm::ArrayRef<Value*> args) {
    std::vector<Type*> types{ptr_};
    types.insert(types.end(), params.begin(), params.end());
    std::vector<Value*> values{cursor()};
    values.insert(values.end(), args.begin(), args.end());
    Value* end = b_.CreateCall(helper(kernel(name).c_str(), ptr_, types), values);
    if (fallible) fail_if(b_.CreateIsNull(end));
    set_cursor(end);
  }

  // Literal bytes, stored a word at a time into room already made.
  void put_literal(std::string_view text) {
    for (std::size_t k = 0; k < text.size();) {
      const std::size_t left = text.size() - k;
      const std::size_t n = left >= 8 ? 8 : left >= 4 ? 4 : left >= 2 ? 2 : 1;
      std::uint64_t word = 0;
      for (std::size_t i = 0; i < n; ++i) {
        word |= std::uint64_t{static_cast<unsigned char>(text[k + i])} << (8 * i);
      }
      store(llvm::ConstantInt::get(int_type(static_cast<unsigned>(n)), word), cursor(), k);
      k += n;
    }
    if (!text.empty()) advance(text.size());
  }
  void put_literal_with_room(std::string_view text) {
    if (text.empty()) return;
    ensure(c64(text.size()));
    put_literal(text);
  }

  // Loads an integer of `bytes` bytes and widens it to 64 bits.
  Value* load_wide(Value* slot, unsigned bytes, bool is_signed) {
    Value* v = load(int_type(bytes), slot, 0);
    return is_signed ? b_.CreateSExt(v, i64_) : b_.CreateZExt(v, i64_);
  }

  // A bounded leaf (or optional of one), into room already made.
  void bounded(const Instr& in, Value* base) {
    Value* slot = at(base, in.offset);
    if (const Instr* inner = optional_leaf(in)) return optional_in_run(in, *inner, slot);
    const bool fallible = format_.write_bound(in).fallible;
    switch (in.op) {
      case Op::Frame:
        put("put_frame", fallible, {i64_, i1(), i32_},
            {c64(plan_.fingerprint), llvm::ConstantInt::getBool(ctx_, options_.write_fingerprint),
             c32(in.enc)});
        return;
      case Op::Bool:
        put("put_bool", fallible, {i8_},
            {b_.CreateZExt(b_.CreateICmpNE(load(i8_, slot, 0), c8(0)), i8_)});
        return;
      case Op::Int:
      case Op::UInt:
        put(in.op == Op::Int ? "put_int" : "put_uint", fallible, {i64_, i32_, i32_},
            {load_wide(slot, in.width, in.op == Op::Int), c32(in.width), c32(in.enc)});
        return;
      case Op::Float:
        if (in.width == 4) {
          put("put_float", fallible, {Type::getFloatTy(ctx_), i32_},
              {load(Type::getFloatTy(ctx_), slot, 0), c32(in.enc)});
        } else {
          put("put_double", fallible, {Type::getDoubleTy(ctx_), i32_},
              {load(Type::getDoubleTy(ctx_), slot, 0), c32(in.enc)});
        }
        return;
      case Op::String:
      case Op::Bytes:
        put(in.op == Op::String ? "put_string" : "put_bytes", fallible, {ptr_, i64_},
            {load(ptr_, std_layout(in, slot), 0), size_of(in, slot)});
        return;
      case Op::Enum: enum_value(in, slot, fallible); return;
      case Op::Decimal: put("put_decimal", fallible, {ptr_}, {slot}); return;
      case Op::Time:
        put("put_time", fallible, {i64_, i32_, i32_, i32_},
            {load(i64_, slot, 0), c32(static_cast<std::uint32_t>(in.type->unit)),
             c32(in.type->kind == Kind::Duration), c32(in.enc)});
        return;
      default: return;
    }
  }

  // An enum: its literal per declared value where the format writes names, else its integer
  // once it is found declared. An undeclared value fails either way.
  void enum_value(const Instr& in, Value* slot, bool fallible) {
    const TypeDesc& e = *in.type;
    Value* v = load_wide(slot, static_cast<unsigned>(e.size), !enum_unsigned(e));
    if (plan_.traits.open_enums) {
      put(enum_unsigned(e) ? "put_uint" : "put_int", fallible, {i64_, i32_, i32_},
          {v, c32(in.width), c32(in.enc)});
      return;
    }
    if (!plan_.traits.enum_names) {
      declared(v, e);
      put("put_enum", fallible, {i64_}, {v});
      return;
    }
    switch_enum(v, e, [&](const EnumValue& d) { put_literal(format_.enum_text(d.name)); });
  }

  // An optional_leaf inside a run whose room is reserved: null, or present and the value.
  void optional_in_run(const Instr& in, const Instr& inner, Value* slot) {
    BasicBlock* some = block("opt.some");
    BasicBlock* none = block("opt.none");
    BasicBlock* done = block("opt.done");
    b_.CreateCondBr(engaged(in, slot), some, none);
    b_.SetInsertPoint(none);
    put_literal(literals_.null);
    b_.CreateBr(done);
    b_.SetInsertPoint(some);
    put_literal(literals_.present);
    bounded(inner, slot);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  // ---- values that reserve their own room -------------------------------------------------

  void unbounded(const Instr& in, Value* base) {
    Value* context = write_context();
    Value* slot = at(base, in.offset);
    switch (in.op) {
      case Op::Struct:
        enter(context);
        // The document's own object, which the root routine holds, carries no size.
        if (current_ == plan_.root) {
          call_routine(in.a, slot);
        } else {
          call_nested(in.a, slot);
        }
        leave(context);
        return;
      case Op::Nullable: {
        Value* held;
        if (in.type->kind == Kind::UniquePtr) {
          held = load(ptr_, slot, 0);  // the default deleter leaves only the pointer
        } else {
          held = b_.CreateSelect(engaged(in, slot), slot, llvm::ConstantPointerNull::get(ptr_));
        }
        ensure(c64(std::max(literals_.null.size(), literals_.present.size())));
        null_or(held, [&] {
          put_literal(literals_.present);
          enter(context);
          call_nested(in.a, held);
          leave(context);
        });
        return;
      }
      case Op::Shared: shared(in, slot); return;
      case Op::List: {
        const ListOps* ops = in.type->list_ops;
        const std::uint64_t stride = element_of(in).size;
        if (!ops->data) {  // std::vector<bool>
          Value* n =
              call_host(reinterpret_cast<const void*>(ops->size),
                        FunctionType::get(i64_, {ptr_, ptr_}, false), {const_ptr(in.type), slot});
          list(in, n, [&] {
            checked_span(b_.CreateCall(
                helper(kernel("write_bool_list").c_str(), span_,
                       {ptr_, ptr_, ptr_, ptr_, ptr_, i64_}),
                {context, cursor(), b_.CreateLoad(ptr_, limit_), slot, const_ptr(in.type), n}));
          });
          return;
        }
        Value* words = std_layout(in, slot);  // begin, end, end of storage
        Value* data = load(ptr_, words, 0);
        Value* n =
            b_.CreateExactUDiv(b_.CreatePtrDiff(i8_, load(ptr_, words, 8), data), c64(stride));
        list(in, n, [&] { elements_of(in, data, stride, n); });
        return;
      }
      case Op::Array: {
        const std::uint64_t stride = element_of(in).size;
        list(in, c64(in.count), [&] { elements_of(in, slot, stride, c64(in.count)); });
        return;
      }
      case Op::Dynamic:
        checked_span(
            b_.CreateCall(helper(kernel("write_value").c_str(), span_, {ptr_, ptr_, ptr_, ptr_}),
                          {context, cursor(), b_.CreateLoad(ptr_, limit_), slot}));
        return;
      case Op::Map: {
        enter(context);  // a level of nesting, empty or not
        const std::string item_key = items_key(in);
        checked_span(b_.CreateCall(
            helper(kernel("write_map").c_str(), span_,
                   {ptr_, ptr_, ptr_, ptr_, ptr_, i32_, ptr_, ptr_, ptr_, i64_}),
            {context, cursor(), b_.CreateLoad(ptr_, limit_), slot, const_ptr(in.type), c32(in.enc),
             routines_[in.a], framed_[in.b] ? framed_[in.b] : routines_[in.b], bytes(item_key),
             c64(item_key.size())}));
        leave(context);
        return;
      }
      default: return;
    }
  }

  // The null literal for a null `held`, else `some()`, in room for the null literal.
  template <class Some>
  void null_or(Value* held, Some some) {
    BasicBlock* null = block("null");
    BasicBlock* present = block("some");
    BasicBlock* done = block("some.done");
    b_.CreateCondBr(b_.CreateIsNull(held), null, present);
    b_.SetInsertPoint(null);
    put_literal(literals_.null);
    b_.CreateBr(done);
    b_.SetInsertPoint(present);
    some();
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  // A shared_ptr (which starts with its T*): in formats that keep identity, an object met
  // before is written as its reference; in the others it is copied wherever it appears, and
  // one met again inside itself is a cycle.
  void shared(const Instr& in, Value* slot) {
    Value* context = write_context();
    Value* object = load(ptr_, slot, 0);
    const bool identity = plan_.traits.shared_identity;
    const std::uint64_t ref = identity ? format_.write_bound(in).fixed : 0;
    ensure(c64(std::max({literals_.null.size(), literals_.shared_new.size(), ref})));
    null_or(object, [&] {
      if (!identity) {
        fail_if(b_.CreateNot(
            b_.CreateCall(helper("jitser_rt_open_shared", i1(), {ptr_, ptr_}), {context, object})));
        put_literal(literals_.shared_new);
        enter(context);
        call_nested(in.a, object);
        leave(context);
        b_.CreateCall(helper("jitser_rt_close_shared", Type::getVoidTy(ctx_), {ptr_}), {context});
        return;
      }
      Value* id = b_.CreateCall(helper("jitser_rt_shared_id", i64_, {ptr_, ptr_, ptr_}),
                                {context, object, const_ptr(in.type->shared_ops)});
      BasicBlock* earlier = block("shared.earlier");
      BasicBlock* fresh = block("shared.new");
      BasicBlock* done = block("shared.done");
      b_.CreateCondBr(b_.CreateICmpSLT(id, c64(0)), fresh, earlier);
      b_.SetInsertPoint(earlier);
      put("put_shared_ref", false, {i32_}, {b_.CreateTrunc(id, i32_)});
      b_.CreateBr(done);
      b_.SetInsertPoint(fresh);
      put_literal(literals_.shared_new);
      enter(context);
      call_nested(in.a, object);
      leave(context);
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
    });
  }

  // A list or array of n elements, as one level of nesting: what the format puts before them,
  // `elements()`, and what it puts after.
  template <class Elements>
  void list(const Instr& in, Value* n, Elements elements) {
    Value* context = write_context();
    const WriteBound bound = format_.write_bound(in);
    enter(context);
    Value* mark = bound.sized ? open_sized() : nullptr;
    ensure(c64(bound.fixed));
    put("put_begin_list", bound.fallible, {i64_, i32_, i32_},
        {n, c32(static_cast<std::uint32_t>(in.op)), c32(in.enc)});
    elements();
    ensure(c64(bound.close));
    put("put_end_list", bound.fallible, {i64_, i32_}, {n, c32(static_cast<std::uint32_t>(in.op))});
    if (mark) close_sized(mark);
    leave(context);
  }

  // Each element and the separator after it; the last separator is taken back, so the loop
  // has no branch for the first or last element.
  void elements_of(const Instr& in, Value* data, std::uint64_t stride, Value* n) {
    const std::string& separator = literals_.element_separator;
    const std::string item_key = items_key(in);
    each_of(data, stride, n, [&](Value* element) {
      put_literal_with_room(item_key);
      call_nested(in.a, element);
      put_literal_with_room(separator);
    });
    if (separator.empty()) return;
    Value* back = b_.CreateSelect(b_.CreateICmpEQ(n, c64(0)), c64(0),
                                  c64(static_cast<std::uint64_t>(-separator.size())));
    set_cursor(b_.CreateGEP(i8_, cursor(), back));
  }

  // ---- keys and sizes ----------------------------------------------------------------------

  // The key written before a field's value: none for a container whose items each have it.
  std::string key_before(const Instr& in) const {
    const PlanField& field = plan_.fields[in.field];
    return field.key_per_item ? std::string() : field.key;
  }
  // The key written before each item of a container (PlanField::key_per_item), else "".
  std::string items_key(const Instr& in) const {
    if (in.field == kNoField || !plan_.fields[in.field].key_per_item) return {};
    return plan_.fields[in.field].key;
  }
  // Constant bytes of the module's own, for a helper to copy.
  Value* bytes(const std::string& text) {
    if (text.empty()) return llvm::ConstantPointerNull::get(ptr_);
    return b_.CreateGlobalString(text, "key", 0, &module_);
  }

  // Calls routine r on a value nested in another: an object of a format that sizes objects
  // through its framing routine.
  void call_nested(std::uint32_t r, Value* object) {
    if (!framed_[r]) return call_routine(r, object);
    checked_span(b_.CreateCall(fn_type_, framed_[r],
                               {write_context(), cursor(), b_.CreateLoad(ptr_, limit_), object}));
  }

  // Leaves room for a size: returns where it is, as an offset from the start of the output,
  // which stays put when the buffer grows (WriteContext::out's data, kWriteContextOut).
  Value* open_sized() {
    ensure(c64(reserve_));
    Value* origin = load(ptr_, load(ptr_, write_context(), kWriteContextOut), 0);
    Value* mark = b_.CreatePtrDiff(i8_, cursor(), origin);
    advance(reserve_);
    return mark;
  }
  // Fills in the size of what was written since the room at `mark`.
  void close_sized(Value* mark) {
    take_span(b_.CreateCall(helper(kernel("close_sized").c_str(), span_, {ptr_, ptr_, ptr_, i64_}),
                            {write_context(), cursor(), b_.CreateLoad(ptr_, limit_), mark}));
  }

  // The framing routine of object routine r: room for its size, the object, and its size.
  void framed(std::uint32_t r) {
    current_ = r;
    begin(framed_[r]);
    Value* mark = open_sized();
    call_routine(r, fn_->getArg(3));
    close_sized(mark);
    end();
  }

  // Whether a nested struct is spliced into the routine that writes it. Splicing copies the
  // struct's steps, and those it splices in turn, into each place that writes it: a struct
  // written by six fields of a struct written by six fields would be written out 36 times.
  // So a struct written from more than one place is spliced only while its copies past the
  // first add at most kSpliceBudget steps; elsewhere its routine is called (and merged into
  // the caller or not by the rule of jit/plan_to_ir.cpp).
  bool splices(const Instr& in) {
    if (in.op != Op::Struct || track_depth_ || omits(in.a) || reserve_) return false;
    if (struct_uses_.empty()) {
      struct_uses_.assign(plan_.routines.size(), 0);
      for (const Instr& each : plan_.code) {
        if (each.op == Op::Struct) ++struct_uses_[each.a];
      }
    }
    return (struct_uses_[in.a] - 1) * spliced_steps(in.a) <= kSpliceBudget;
  }
  // The steps routine r writes, with what it splices; routines that count no depth form no
  // cycle, so this ends.
  std::size_t spliced_steps(std::uint32_t r) {
    if (spliced_steps_.empty()) spliced_steps_.assign(plan_.routines.size(), 0);
    std::size_t& steps = spliced_steps_[r];
    if (steps) return steps;
    const Routine& routine = plan_.routines[r];
    std::size_t n = 1;
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      n += splices(plan_.code[i]) ? spliced_steps(plan_.code[i].a) : 1;
    }
    return steps = n;
  }
  static constexpr std::size_t kSpliceBudget = 128;
  std::vector<std::uint32_t> struct_uses_;  // per routine: the Struct instructions naming it
  std::vector<std::size_t> spliced_steps_;  // per routine: spliced_steps(), once known

  const FormatTraits::Literals& literals_;
  // Whether struct routine r leaves fields out at run time: the options say so, or a field
  // is omitted when empty.
  bool omits(std::uint32_t r) const {
    if (!plan_.traits.keyed_objects) return false;
    if (omitting_) return true;
    const Routine& routine = plan_.routines[r];
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      const PlanField& field = plan_.fields[plan_.code[i].field];
      if (field.omit_empty || field.omit_absent) return true;
    }
    return false;
  }

  const bool omitting_;
  const std::uint8_t reserve_;     // FormatTraits::size_reserve
  std::vector<Function*> framed_;  // per routine: its framing routine, where it has one
  std::uint32_t current_ = 0;      // the routine being emitted
};

}  // namespace

void emit_writer(const Plan& plan, const RunOptions& options, llvm::Module& module,
                 const std::string& entry, std::vector<HostAddress>& hosts) {
  WriteEmitter(plan, options, module, hosts).emit(entry);
}

}  // namespace jitser::jit
