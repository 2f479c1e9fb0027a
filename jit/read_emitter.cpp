// The one deserializer emitter: a Plan of any format to IR, through the format's kernel contract
// (formats/compiled_abi.h). Routines are bool routine(ReadContext*, Slot* value, base*): the
// format alone knows what a Slot holds (the input left, in a positional format; a parser's
// value or iterator, in others). What formats share is written here once: fields by position,
// or by key with the field expected next tried first, the others compared as words against
// constants, a bitset for duplicates and defaults for what is missing; lists by count or until
// their end; nesting depth; shared objects; enums by name or number.
#include <llvm/IR/GlobalVariable.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "jit/emitter.h"
#include "typeinfo/integers.h"

namespace jitser::jit {
namespace {

using namespace ir;

class ReadEmitter : public EmitterBase {
 public:
  ReadEmitter(const Plan& plan, const RunOptions& options, llvm::Module& module,
              std::vector<HostAddress>& hosts)
      : EmitterBase(plan, options, module, hosts),
        inlined_(format_.kernel().inlined),
        expects_(defines("expect_field")),
        copies_(defines("copy_elements")),
        counted_(plan.traits.containers == FormatTraits::Containers::CountPrefixed),
        slot_type_(llvm::ArrayType::get(i8_, sizeof(Slot))),
        fn_type_(FunctionType::get(i1(), {ptr_, ptr_, ptr_}, false)),
        recursive_(recursive_routines(plan)) {}

  void emit(const std::string& entry) {
    declare(fn_type_, entry, false);
    for (std::uint32_t r = 0; r < plan_.routines.size(); ++r) routine(r);

    // The entry is a ReadFn, as in every format: it opens the input, reads the root value, and
    // returns the input's end when the format finds nothing more after it.
    fn_ = define_entry(FunctionType::get(ptr_, {ptr_, ptr_, ptr_, ptr_}, false), entry);
    Value* context = fn_->getArg(0);
    Value* end = fn_->getArg(2);
    BasicBlock* body = block("entry");
    fail_ = block("fail");
    b_.SetInsertPoint(fail_);
    b_.CreateRet(llvm::ConstantPointerNull::get(ptr_));
    b_.SetInsertPoint(body);
    Value* root = new_slot("root");
    check("open", {ptr_, ptr_, ptr_, ptr_}, {context, fn_->getArg(1), end, root});
    call_routine(plan_.root, root, fn_->getArg(3));
    check("finish", {ptr_, ptr_}, {context, root});
    b_.CreateRet(end);
  }

 private:
  void routine(std::uint32_t r) {
    begin_function(routines_[r]);
    const Routine& routine = plan_.routines[r];
    Value* slot = fn_->getArg(1);
    Value* base = fn_->getArg(2);
    if (routine.object && plan_.traits.keyed_objects) {
      object(r, slot, base);
    } else {
      // Positional: each value where the last one ended, in the one slot; where the format
      // counts an object's fields, after a head that must count them all.
      if (routine.object && plan_.traits.counted_objects) {
        check("begin_fields", {ptr_, i32_}, {slot, c32(routine.end - routine.begin)}, 0);
      }
      for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
        const Instr& in = plan_.code[i];
        value(in, slot, at(base, in.offset));
      }
    }
    check_oneofs(routine, base);
    b_.CreateRet(llvm::ConstantInt::getTrue(ctx_));
  }

  // Emits into f from its entry, with a failure block that returns false.
  void begin_function(Function* f) {
    fn_ = f;
    BasicBlock* entry = block("entry");
    fail_ = block("fail");
    b_.SetInsertPoint(fail_);
    b_.CreateRet(llvm::ConstantInt::getFalse(ctx_));
    b_.SetInsertPoint(entry);
  }

  // Whether the format's kernel defines the optional function `name`.
  bool defines(const char* name) const {
    const std::span<const HelperSymbol> functions = format_.kernel().functions;
    return std::any_of(functions.begin(), functions.end(),
                       [&](const HelperSymbol& f) { return kernel(name) == f.name; });
  }

  // ---- calls ----------------------------------------------------------------------------

  bool is_inlined(const std::string& name) const {
    return std::find(inlined_.begin(), inlined_.end(), name) != inlined_.end();
  }

  Value* new_slot(const char* name) { return local(slot_type_, name); }

  // A slot lent to a call that is not inlined goes as a copy, copied back after: a slot whose
  // address escapes would stay in memory for the whole function, and a positional format's
  // slot is its input position, used by every read.
  Value* lend(Value* slot) {
    Value* copy = new_slot("lent");
    b_.CreateMemCpy(copy, llvm::MaybeAlign(8), slot, llvm::MaybeAlign(8), format_.slot_bytes);
    return copy;
  }
  void take_back(Value* slot, Value* copy) {
    b_.CreateMemCpy(slot, llvm::MaybeAlign(8), copy, llvm::MaybeAlign(8), format_.slot_bytes);
  }

  // Calls the format's function `name`, which returns whether it succeeded; the Slot at
  // `slot_arg` (if any) is lent when the call is not inlined.
  void check(const char* name, llvm::ArrayRef<Type*> params, llvm::ArrayRef<Value*> args,
             int slot_arg = -1) {
    const std::string symbol = kernel(name);
    std::vector<Value*> values(args.begin(), args.end());
    Value* copy = nullptr;
    if (slot_arg >= 0 && !is_inlined(symbol)) {
      copy = lend(values[slot_arg]);
      values[slot_arg] = copy;
    }
    Value* ok = b_.CreateCall(helper(symbol.c_str(), i1(), params), values);
    if (copy) take_back(args[slot_arg], copy);
    fail_if(b_.CreateNot(ok));
  }
  void rt_check(const char* name, llvm::ArrayRef<Type*> params, llvm::ArrayRef<Value*> args) {
    fail_if(b_.CreateNot(b_.CreateCall(helper(name, i1(), params), args)));
  }
  // A routine that calls itself stays a call, so its slot is lent; any other is inlined, and
  // takes the slot itself.
  void call_routine(std::uint32_t r, Value* slot, Value* object) {
    Value* copy = recursive_[r] ? lend(slot) : slot;
    Value* ok = b_.CreateCall(fn_type_, routines_[r], {fn_->getArg(0), copy, object});
    if (copy != slot) take_back(slot, copy);
    fail_if(b_.CreateNot(ok));
  }

  // A number the format's getter `name` reads through a local of `type`.
  Value* get(const char* name, Value* slot, Type* type, llvm::ArrayRef<Type*> params = {},
             llvm::ArrayRef<Value*> args = {}) {
    Value* out = local(type, "got");
    std::vector<Type*> types{ptr_, ptr_};
    types.insert(types.end(), params.begin(), params.end());
    std::vector<Value*> values{slot, out};
    values.insert(values.end(), args.begin(), args.end());
    check(name, types, values, 0);
    return b_.CreateLoad(type, out);
  }

  // ---- values ---------------------------------------------------------------------------

  // Reads the value in `slot` into `p` as `in` says; a map of a format with repeated keys into
  // `refill`.
  void value(const Instr& in, Value* slot, Value* p, Value* refill = nullptr) {
    Value* context = fn_->getArg(0);
    switch (in.op) {
      case Op::Frame:
        check("get_frame", {ptr_, i64_, i1()},
              {slot, c64(plan_.fingerprint),
               llvm::ConstantInt::getBool(ctx_, options_.require_fingerprint)},
              0);
        return;
      case Op::Bool: store(get("get_bool", slot, i8_), p, 0); return;
      case Op::Int:
      case Op::UInt: {
        Value* v = get(in.op == Op::Int ? "get_int" : "get_uint", slot, i64_, {i32_, i32_},
                       {c32(in.width), c32(in.enc)});
        store(b_.CreateTrunc(v, int_type(in.width)), p, 0);
        return;
      }
      case Op::Float:
        if (in.width == 4) {
          store(get("get_float", slot, Type::getFloatTy(ctx_), {i32_}, {c32(in.enc)}), p, 0);
        } else {
          store(get("get_double", slot, Type::getDoubleTy(ctx_), {i32_}, {c32(in.enc)}), p, 0);
        }
        return;
      case Op::String:
        check("get_string", {ptr_, ptr_, i32_},
              {slot, p, c32(static_cast<std::uint32_t>(in.type->allocator))}, 0);
        return;
      case Op::Bytes:
        check("get_bytes", {ptr_, ptr_, ptr_}, {slot, p, const_ptr(in.type)}, 0);
        return;
      case Op::Enum:
        if (plan_.traits.open_enums) {
          Value* v = get(enum_unsigned(*in.type) ? "get_uint" : "get_int", slot, i64_, {i32_, i32_},
                         {c32(in.width), c32(in.enc)});
          store(b_.CreateTrunc(v, int_type(in.width)), p, 0);
        } else if (plan_.traits.enum_names) {
          enum_name(in, slot, p);
        } else {
          Value* v = get("get_enum", slot, i64_);
          declared(v, *in.type);
          store(b_.CreateTrunc(v, int_type(in.width)), p, 0);
        }
        return;
      case Op::Decimal: check("get_decimal", {ptr_, ptr_}, {slot, p}, 0); return;
      case Op::Time:
        store(get("get_time", slot, i64_, {i32_, i32_, i32_},
                  {c32(static_cast<std::uint32_t>(in.type->unit)),
                   c32(in.type->kind == Kind::Duration), c32(in.enc)}),
              p, 0);
        return;
      case Op::Dynamic: check("read_value", {ptr_, ptr_, ptr_}, {context, slot, p}, 1); return;
      case Op::Struct:
        enter(context);
        call_routine(in.a, slot, p);
        leave(context);
        return;
      case Op::Nullable: nullable(in, slot, p); return;
      case Op::Shared: shared(in, slot, p); return;
      case Op::List: list(in, slot, p); return;
      case Op::Array: array(in, slot, p); return;
      case Op::Map: {
        const std::uint32_t min_entry =
            plan_.routines[in.a].min_wire_bytes + plan_.routines[in.b].min_wire_bytes;
        const Instr& key = plan_.code[plan_.routines[in.a].begin];
        enter(context);  // a level of nesting, empty or not
        check("read_map", {ptr_, ptr_, ptr_, ptr_, ptr_, i32_, i32_, ptr_, ptr_, ptr_},
              {context, slot, p, const_ptr(in.type), const_ptr(&key), c32(in.enc), c32(min_entry),
               routines_[in.a], routines_[in.b],
               refill ? refill : llvm::ConstantPointerNull::get(ptr_)},
              1);
        leave(context);
        return;
      }
    }
  }

  // An optional or pointer: null, or its value read into what the holder makes.
  void nullable(const Instr& in, Value* slot, Value* p) {
    Value* context = fn_->getArg(0);
    const NullableOps* ops = in.type->nullable_ops;
    Value* is_null = get("get_null", slot, i8_);
    BasicBlock* null = block("null");
    BasicBlock* some = block("some");
    BasicBlock* done = block("some.done");
    b_.CreateCondBr(b_.CreateICmpNE(is_null, c8(0)), null, some);
    // A std::optional of a number needs no call: its value, then its engaged flag
    // (jit/runtime.h); the value is zeroed before it is read, so a failed read leaves a valid one.
    const TypeDesc& held_type = element_of(in);
    const bool plain = in.type->kind == Kind::Optional && is_plain_number(held_type.kind);
    b_.SetInsertPoint(null);
    if (plain) {
      store(c8(0), p, held_type.size);
    } else {
      call_host(reinterpret_cast<const void*>(ops->reset),
                FunctionType::get(Type::getVoidTy(ctx_), {ptr_, ptr_}, false),
                {const_ptr(in.type), p});
    }
    b_.CreateBr(done);
    b_.SetInsertPoint(some);
    Value* held = p;
    if (plain) {
      store(llvm::ConstantInt::get(int_type(static_cast<unsigned>(held_type.size)), 0), p, 0);
      store(c8(1), p, held_type.size);
    } else {
      held = call_host(reinterpret_cast<const void*>(ops->fill),
                       FunctionType::get(ptr_, {ptr_, ptr_}, false), {const_ptr(in.type), p});
    }
    enter(context);
    call_routine(in.a, slot, held);
    leave(context);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  // A shared_ptr: null, an object read before (formats that keep identity), or a new one.
  void shared(const Instr& in, Value* slot, Value* p) {
    Value* context = fn_->getArg(0);
    Value* ref_at = local(i32_, "ref", 4);
    Value* id_at = local(i32_, "id", 4);
    check("get_shared", {ptr_, ptr_, ptr_}, {slot, ref_at, id_at}, 0);
    BasicBlock* null = block("shared.null");
    BasicBlock* earlier = plan_.traits.shared_identity ? block("shared.earlier") : nullptr;
    BasicBlock* fresh = block("shared.new");
    BasicBlock* done = block("shared.done");
    llvm::SwitchInst* sw = b_.CreateSwitch(b_.CreateLoad(i32_, ref_at), fail_, 3);
    sw->addCase(c32(kSharedNull), null);
    sw->addCase(c32(kSharedNew), fresh);
    if (plan_.traits.shared_identity) sw->addCase(c32(kSharedEarlier), earlier);
    b_.SetInsertPoint(null);
    call_host(reinterpret_cast<const void*>(in.type->shared_ops->reset),
              FunctionType::get(Type::getVoidTy(ctx_), {ptr_, ptr_}, false),
              {const_ptr(in.type), p});
    b_.CreateBr(done);
    if (plan_.traits.shared_identity) {
      b_.SetInsertPoint(earlier);
      rt_check("jitser_rt_shared_earlier", {ptr_, ptr_, ptr_, i32_},
               {context, p, const_ptr(in.type), b_.CreateLoad(i32_, id_at)});
      b_.CreateBr(done);
    }
    b_.SetInsertPoint(fresh);
    Value* object =
        b_.CreateCall(helper("jitser_rt_shared_new", ptr_, {ptr_, ptr_, ptr_, i32_}),
                      {context, p, const_ptr(in.type), c32(plan_.traits.shared_identity)});
    enter(context);
    call_routine(in.a, slot, object);
    leave(context);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  // Runs `each(element slot)` for every element of the list or array `in`, until its end.
  template <class Each>
  void each_element(const Instr& in, Value* iterator, Each each) {
    Value* element = new_slot("element");
    BasicBlock* loop = block("element");
    BasicBlock* body = block("element.read");
    BasicBlock* done = block("elements.done");
    b_.CreateBr(loop);
    b_.SetInsertPoint(loop);
    Value* status = b_.CreateCall(helper(kernel("next_element").c_str(), i32_, {ptr_, ptr_, i32_}),
                                  {iterator, element, c32(in.enc)});
    llvm::SwitchInst* sw = b_.CreateSwitch(status, fail_, 2);
    sw->addCase(c32(1), body);
    sw->addCase(c32(0), done);
    b_.SetInsertPoint(body);
    each(element);
    b_.CreateBr(loop);
    b_.SetInsertPoint(done);
  }

  // Starts the list or array in `slot`; returns its count in formats that state it first.
  Value* begin_list(const Instr& in, Value* slot, Value* iterator) {
    Value* count = local(i64_, "count");
    b_.CreateStore(c64(in.op == Op::Array ? in.count : kUnknownCount), count);
    check("begin_list", {ptr_, ptr_, ptr_, i32_, i32_, i32_},
          {slot, iterator, count, c32(static_cast<std::uint32_t>(in.op)), c32(in.enc),
           c32(plan_.routines[in.a].min_wire_bytes)},
          0);
    return b_.CreateLoad(i64_, count);
  }

  // A std::vector, as one level of nesting. Counted: resized to its count, then each element
  // read in place. Until its end: elements already there are read into in place (their buffers
  // reused), it grows by doubling, and is cut to the elements read, as the interpreter does.
  void list(const Instr& in, Value* slot, Value* p) {
    Value* context = fn_->getArg(0);
    const ListOps* ops = in.type->list_ops;
    const std::uint64_t stride = element_of(in).size;
    FunctionType* resize_type = FunctionType::get(Type::getVoidTy(ctx_), {ptr_, ptr_, i64_}, false);
    Value* type = const_ptr(in.type);
    const void* resize = reinterpret_cast<const void*>(ops->resize);
    enter(context);
    if (!ops->data) {  // std::vector<bool>
      check("read_bool_list", {ptr_, ptr_, ptr_, i32_, i32_}, {slot, p, type, c32(in.enc), c32(0)},
            0);
      leave(context);
      return;
    }
    Value* iterator = new_slot("list");
    Value* n = begin_list(in, slot, iterator);
    if (counted_) {
      call_host(resize, resize_type, {type, p, n});
      each_of(load(ptr_, std_layout(in, p), 0), stride, n,
              [&](Value* element) { call_routine(in.a, slot, element); });
      leave(context);
      return;
    }
    auto size = [&] { return list_size(in, p); };
    Value* count = local(i64_, "read");
    Value* have = local(i64_, "have");
    b_.CreateStore(c64(0), count);
    b_.CreateStore(size(), have);
    each_element(in, iterator, [&](Value* element) {
      Value* i = b_.CreateLoad(i64_, count);
      BasicBlock* grow = block("list.grow");
      BasicBlock* ready = block("list.ready");
      b_.CreateCondBr(b_.CreateICmpUGE(i, b_.CreateLoad(i64_, have)), grow, ready);
      b_.SetInsertPoint(grow);
      Value* doubled = b_.CreateMul(b_.CreateLoad(i64_, have), c64(2));
      Value* wanted = b_.CreateAdd(i, c64(1));
      call_host(resize, resize_type,
                {type, p, b_.CreateSelect(b_.CreateICmpUGT(doubled, wanted), doubled, wanted)});
      b_.CreateStore(size(), have);
      b_.CreateBr(ready);
      b_.SetInsertPoint(ready);
      Value* target = list_element(in, p, i);
      call_routine(in.a, element, target);
      b_.CreateStore(b_.CreateAdd(i, c64(1)), count);
    });
    call_host(resize, resize_type, {type, p, b_.CreateLoad(i64_, count)});
    leave(context);
  }

  // A fixed-size array, as one level of nesting: exactly its count of elements.
  void array(const Instr& in, Value* slot, Value* p) {
    Value* context = fn_->getArg(0);
    const std::uint64_t stride = element_of(in).size;
    enter(context);
    Value* iterator = new_slot("array");
    Value* n = begin_list(in, slot, iterator);
    if (counted_) {
      fail_if(b_.CreateICmpNE(n, c64(in.count)));
      each_of(p, stride, c64(in.count), [&](Value* element) { call_routine(in.a, slot, element); });
      leave(context);
      return;
    }
    Value* count = local(i64_, "read");
    b_.CreateStore(c64(0), count);
    each_element(in, iterator, [&](Value* element) {
      Value* i = b_.CreateLoad(i64_, count);
      fail_if(b_.CreateICmpUGE(i, c64(in.count)));  // more elements than the array holds
      call_routine(in.a, element, b_.CreateInBoundsGEP(i8_, p, b_.CreateMul(i, c64(stride))));
      b_.CreateStore(b_.CreateAdd(i, c64(1)), count);
    });
    fail_if(b_.CreateICmpNE(b_.CreateLoad(i64_, count), c64(in.count)));
    leave(context);
  }

  // ---- keys -----------------------------------------------------------------------------

  // Branches to `match` when the bytes at `raw` start with `text`, else to `miss`. Words are
  // compared in order and the next is read only after one matched; the contract keeps a word
  // read past the text readable.
  void branch_on_text(Value* raw, std::string_view text, BasicBlock* match, BasicBlock* miss) {
    if (text.empty()) {
      b_.CreateBr(match);
      return;
    }
    for (std::size_t k = 0; k < text.size(); k += 8) {
      const std::size_t n = std::min<std::size_t>(8, text.size() - k);
      std::uint64_t expected = 0;
      for (std::size_t i = 0; i < n; ++i) {
        expected |= std::uint64_t{static_cast<unsigned char>(text[k + i])} << (8 * i);
      }
      Value* word = load(i64_, raw, k);
      if (n < 8) word = b_.CreateAnd(word, c64((std::uint64_t{1} << (8 * n)) - 1));
      BasicBlock* next = k + 8 < text.size() ? block("text.more") : match;
      b_.CreateCondBr(b_.CreateICmpEQ(word, c64(expected)), next, miss);
      if (next != match) b_.SetInsertPoint(next);
    }
  }

  // An enum by name: the text compared with each declared name, by its length, then as words.
  // An unknown name fails.
  void enum_name(const Instr& in, Value* slot, Value* p) {
    const TypeDesc& e = *in.type;
    Value* data_at = local(ptr_, "text");
    Value* size_at = local(i64_, "text_size");
    check("get_text", {ptr_, ptr_, ptr_}, {slot, data_at, size_at}, 0);
    Value* data = b_.CreateLoad(ptr_, data_at);
    Value* n = b_.CreateLoad(i64_, size_at);
    BasicBlock* done = block("enum.done");
    for (const EnumValue& d : e.values) {
      BasicBlock* compare = block("enum.compare");
      BasicBlock* match = block("enum.match");
      BasicBlock* next = block("enum.next");
      b_.CreateCondBr(b_.CreateICmpEQ(n, c64(d.name.size())), compare, next);
      b_.SetInsertPoint(compare);
      branch_on_text(data, d.name, match, next);
      b_.SetInsertPoint(match);
      store(llvm::ConstantInt::get(int_type(static_cast<unsigned>(e.size)),
                                   static_cast<std::uint64_t>(d.value)),
            p, 0);
      b_.CreateBr(done);
      b_.SetInsertPoint(next);
    }
    b_.CreateBr(fail_);
    b_.SetInsertPoint(done);
  }

  // An object into a struct, in a keyed format. Each key is first compared with the field
  // expected next (the one after the field read last), so fields in declaration order match on
  // one compare; any other key goes to dispatch, which compares it with every field's, then
  // asks the format which field its text names. One loop reads the fields, so the inlined
  // iteration appears once per struct. A bitset of the fields read finds duplicates and what
  // is missing.
  void object(std::uint32_t r, Value* value, Value* base) {
    const Routine& routine = plan_.routines[r];
    const std::uint32_t n = routine.end - routine.begin;
    Value* it = new_slot("object");
    Value* field = new_slot("field");
    Value* raw_at = local(ptr_, "raw_key");
    Value* expected = local(i32_, "expected", 4);
    std::vector<Value*> seen;
    for (std::uint32_t w = 0; w < (n + 63) / 64; ++w) {
      seen.push_back(local(i64_, "seen"));
      b_.CreateStore(c64(0), seen.back());
    }
    b_.CreateStore(c32(0), expected);
    // Formats with repeated keys: the items each array field, and each list field whose key
    // comes once per item, has read so far (another list's are its size), and each map field's
    // refill, from its first appearance to the object's end.
    std::vector<Value*> items(n, nullptr);
    std::vector<Value*> refills(n, nullptr);
    for (std::uint32_t i = 0; repeated_ && i < n; ++i) {
      const Instr& in = plan_.code[routine.begin + i];
      if (in.op == Op::Map) {
        refills[i] = local(llvm::ArrayType::get(i8_, kMapRefillSize), "refill", 16);
      } else if (in.op == Op::Array || counts_items(in)) {
        items[i] = local(i64_, "items");
        b_.CreateStore(c64(0), items[i]);
      }
    }
    check("begin_object", {ptr_, ptr_}, {value, it}, 0);

    BasicBlock* next = block("object.next");
    BasicBlock* have = block("object.key");
    BasicBlock* finish = block("object.end");
    BasicBlock* dispatch = block("object.dispatch");
    BasicBlock* unknown = block("object.unknown");
    std::vector<BasicBlock*> handle(n);
    for (std::uint32_t i = 0; i < n; ++i) handle[i] = block("field");
    // Formats that find a field by its key as written (expect_field) read declaration order
    // without dispatch: the key of the field expected next is looked for in the input first,
    // and a hit goes to that field's block in `to`; anything else is read by next_field.
    auto expect = [&](std::uint32_t expected_field, const std::vector<BasicBlock*>& to) {
      if (!expects_ || expected_field >= n) {
        b_.CreateBr(next);
        return;
      }
      const std::string& key = plan_.fields[plan_.code[routine.begin + expected_field].field].key;
      Value* hit = b_.CreateCall(
          helper(kernel("expect_field").c_str(), i1(), {ptr_, ptr_, ptr_, i32_}),
          {it, field, b_.CreateGlobalString(key, "key", 0, &module_), c32(key.size())});
      b_.CreateCondBr(hit, to[expected_field], next);
    };
    auto read_next = [&](std::uint32_t expected_field) { expect(expected_field, handle); };
    // Declaration order, in formats that look for the key expected next and whose keys may
    // repeat: the fields read one after another by copies of their handlers (`in_line`), each
    // entered only from the one before, so that what the loop's handlers learn at run time is
    // constant on this path: which fields were read (the `seen` bits), that none was read
    // before, so that what a repeated key would merge, refill or append folds away, and the
    // framing each key as written implies. Where a key comes once, all a copy saves is the
    // check for a duplicate, and the copies made much of a reader's code and its compile
    // time. The first key not found where expected, a field whose key comes once per item, and
    // a field that holds objects or a map leave the line for the loop, with the fields read so
    // far: a copy of those would copy every object nested in them, as often as the objects
    // around them were copied.
    std::vector<BasicBlock*> in_line = handle;
    for (std::uint32_t i = 0; expects_ && repeated_ && i < n; ++i) {
      const Instr& in = plan_.code[routine.begin + i];
      if (in.op != Op::Map && !holds_object(in)) in_line[i] = block("line");
    }
    expect(0, in_line);

    b_.SetInsertPoint(next);
    Value* status =
        b_.CreateCall(helper(kernel("next_field").c_str(), i32_, {ptr_, ptr_, ptr_, i32_}),
                      {it, field, raw_at, c32(options_.max_depth)});
    llvm::SwitchInst* step = b_.CreateSwitch(status, fail_, 2);
    step->addCase(c32(1), have);
    step->addCase(c32(0), finish);

    b_.SetInsertPoint(have);
    Value* raw = b_.CreateLoad(ptr_, raw_at);
    auto match_of = [&](std::uint32_t i) -> std::string_view {
      return plan_.fields[plan_.code[routine.begin + i].field].match;
    };
    if (expects_) {
      // The field expected next was looked for already: a key read here is out of order.
      b_.CreateBr(dispatch);
    } else {
      llvm::SwitchInst* guess = b_.CreateSwitch(b_.CreateLoad(i32_, expected), dispatch, n);
      for (std::uint32_t i = 0; i < n; ++i) {
        BasicBlock* compare = block("object.expected");
        guess->addCase(c32(i), compare);
        b_.SetInsertPoint(compare);
        branch_on_text(raw, match_of(i), handle[i], dispatch);
      }
    }

    b_.SetInsertPoint(dispatch);
    for (std::uint32_t i = 0; i < n; ++i) {
      BasicBlock* miss = block("dispatch.next");
      branch_on_text(raw, match_of(i), handle[i], miss);
      b_.SetInsertPoint(miss);
    }
    // No key matched as written: the format finds the field its text names, if any.
    std::vector<llvm::Constant*> fields;
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      fields.push_back(
          llvm::cast<llvm::Constant>(const_ptr(plan_.fields[plan_.code[i].field].desc)));
    }
    Value* table = llvm::ConstantPointerNull::get(ptr_);
    if (n) {
      auto* type = llvm::ArrayType::get(ptr_, n);
      table = new llvm::GlobalVariable(module_, type, true, llvm::GlobalValue::PrivateLinkage,
                                       llvm::ConstantArray::get(type, fields), "fields");
    }
    Value* index = b_.CreateCall(helper(kernel("find_field").c_str(), i32_, {ptr_, ptr_, i32_}),
                                 {raw, table, c32(n)});
    llvm::SwitchInst* sw = b_.CreateSwitch(index, fail_, n + 1);
    if (!options_.strict) sw->addCase(llvm::ConstantInt::get(i32_, -1, true), unknown);
    for (std::uint32_t i = 0; i < n; ++i) sw->addCase(c32(i), handle[i]);

    b_.SetInsertPoint(unknown);
    check("skip", {ptr_}, {field}, 0);
    b_.CreateBr(next);

    Value* context = fn_->getArg(0);
    // Reads field i's value where the insert point is, then goes on to `then(after)`, the field
    // expected after it.
    auto read_field = [&](std::uint32_t i, auto&& then) {
      const Instr& in = plan_.code[routine.begin + i];
      const PlanField& plan_field = plan_.fields[in.field];
      Value* p = at(base, in.offset);
      Value* again = was_seen(seen, i);
      if (!repeated_) {
        fail_if(again);  // a duplicate key
      } else if (merges(in)) {
        // An object read again merges into the one read before: the interpreter does that.
        BasicBlock* decline = block("object.merge");
        BasicBlock* first = block("object.first");
        b_.CreateCondBr(again, decline, first, unlikely());
        b_.SetInsertPoint(decline);
        b_.CreateCall(helper("jitser_rt_decline", i1(), {ptr_}), {context});
        b_.CreateBr(fail_);
        b_.SetInsertPoint(first);
      } else if (in.op == Op::Map) {
        // A map's first appearance replaces what it held; later ones add to it.
        BasicBlock* empty = block("items.empty");
        BasicBlock* ready = block("items.ready");
        b_.CreateCondBr(again, ready, empty);
        b_.SetInsertPoint(empty);
        call_host(reinterpret_cast<const void*>(in.type->map_ops->refill_begin),
                  FunctionType::get(Type::getVoidTy(ctx_), {ptr_, ptr_, ptr_, i64_}, false),
                  {const_ptr(in.type), p, refills[i], c64(UINT64_MAX)});
        b_.CreateBr(ready);
        b_.SetInsertPoint(ready);
      }
      b_.CreateStore(
          b_.CreateOr(b_.CreateLoad(i64_, seen[i / 64]), c64(std::uint64_t{1} << (i % 64))),
          seen[i / 64]);
      if (items[i]) {
        counted_items(in, field, p, items[i]);
      } else if (repeated_ && in.op == Op::List) {
        list_items(in, field, p, again);
      } else {
        this->value(in, field, p, refills[i]);
      }
      if (repeated_ && routine.oneofs) drop_alternatives(routine, i, base);
      // A key that comes once per item is likely to come again next.
      const std::uint32_t after = plan_field.key_per_item ? i : i + 1;
      if (!expects_) b_.CreateStore(c32(after), expected);
      then(after);
    };
    for (std::uint32_t i = 0; i < n; ++i) {
      b_.SetInsertPoint(handle[i]);
      read_field(i, read_next);
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      if (in_line[i] == handle[i]) continue;
      b_.SetInsertPoint(in_line[i]);
      read_field(i, [&](std::uint32_t after) { expect(after, after == i ? handle : in_line); });
    }

    b_.SetInsertPoint(finish);
    // What the input left out takes its default (or fails); one compare per 64 fields finds
    // that it left out none.
    for (std::uint32_t w = 0; w < seen.size(); ++w) {
      const std::uint32_t first = 64 * w;
      const std::uint32_t last = std::min(n, first + 64);
      const std::uint64_t all =
          last - first == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (last - first)) - 1;
      BasicBlock* some = block("missing.some");
      BasicBlock* none = block("missing.none");
      b_.CreateCondBr(b_.CreateICmpEQ(b_.CreateLoad(i64_, seen[w]), c64(all)), none, some);
      b_.SetInsertPoint(some);
      for (std::uint32_t i = first; i < last; ++i) {
        const Instr& in = plan_.code[routine.begin + i];
        BasicBlock* absent = block("missing");
        BasicBlock* done = block("missing.done");
        b_.CreateCondBr(was_seen(seen, i), done, absent);
        b_.SetInsertPoint(absent);
        const FieldDesc* desc = plan_.fields[in.field].desc;
        if (repeated_) {
          b_.CreateCall(helper("jitser_rt_absent", Type::getVoidTy(ctx_), {ptr_, ptr_}),
                        {const_ptr(desc), at(base, in.offset)});
        } else {
          rt_check("jitser_rt_missing", {ptr_, ptr_}, {const_ptr(desc), at(base, in.offset)});
        }
        b_.CreateBr(done);
        b_.SetInsertPoint(done);
      }
      b_.CreateBr(none);
      b_.SetInsertPoint(none);
    }
    // What it held ends: an array must have all its items, a list counted by its items keeps
    // no more, and a map's refill ends.
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!items[i] && !refills[i]) continue;
      const Instr& in = plan_.code[routine.begin + i];
      BasicBlock* present = block("present");
      BasicBlock* done = block("present.done");
      b_.CreateCondBr(was_seen(seen, i), present, done);
      b_.SetInsertPoint(present);
      if (items[i]) items_end(in, at(base, in.offset), b_.CreateLoad(i64_, items[i]));
      if (refills[i]) {
        // Ended here, the refill is forgotten, so that a failure after it does not end it again.
        end_refill(in, refills[i]);
        b_.CreateStore(
            b_.CreateAnd(b_.CreateLoad(i64_, seen[i / 64]), c64(~(std::uint64_t{1} << (i % 64)))),
            seen[i / 64]);
      }
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
    }
    // A failure ends the refills begun, as the interpreter's do.
    if (std::find_if(refills.begin(), refills.end(), [](Value* v) { return v; }) == refills.end()) {
      return;
    }
    BasicBlock* resume = b_.GetInsertBlock();
    fail_->getTerminator()->eraseFromParent();
    b_.SetInsertPoint(fail_);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!refills[i]) continue;
      BasicBlock* begun = block("fail.refill");
      BasicBlock* done = block("fail.refill.done");
      b_.CreateCondBr(was_seen(seen, i), begun, done);
      b_.SetInsertPoint(begun);
      end_refill(plan_.code[routine.begin + i], refills[i]);
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
    }
    b_.CreateRet(llvm::ConstantInt::getFalse(ctx_));
    b_.SetInsertPoint(resume);
  }

  // Whether reading `in` reads the fields of an object: a nested struct, or one held, listed or
  // mapped.
  bool holds_object(const Instr& in) const {
    switch (in.op) {
      case Op::Struct: return true;
      case Op::Nullable:
      case Op::Shared:
      case Op::List:
      case Op::Array: return routine_holds_object(in.a);
      case Op::Map: return routine_holds_object(in.a) || routine_holds_object(in.b);
      default: return false;
    }
  }
  bool routine_holds_object(std::uint32_t r) const {
    const Routine& routine = plan_.routines[r];
    if (routine.object) return true;
    return std::any_of(plan_.code.begin() + routine.begin, plan_.code.begin() + routine.end,
                       [&](const Instr& in) { return holds_object(in); });
  }

  // Whether field i of an object has been read: its bit in the object's `seen` words.
  Value* was_seen(const std::vector<Value*>& seen, std::uint32_t i) {
    Value* word = b_.CreateLoad(i64_, seen[i / 64]);
    return b_.CreateICmpNE(b_.CreateAnd(word, c64(std::uint64_t{1} << (i % 64))), c64(0));
  }

  void end_refill(const Instr& in, Value* refill) {
    call_host(reinterpret_cast<const void*>(in.type->map_ops->refill_end),
              FunctionType::get(Type::getVoidTy(ctx_), {ptr_, ptr_}, false),
              {const_ptr(in.type), refill});
  }

  // ---- repeated keys --------------------------------------------------------------------

  // Whether reading the field again merges into what it holds: a nested object.
  bool merges(const Instr& in) const {
    return in.op == Op::Struct || (in.op == Op::Nullable && plan_.routines[in.a].object);
  }

  // One appearance of a list field in a format with repeated keys: its first replaces what the
  // list held, later ones add to it, so the list's size counts the items read and nothing is
  // left to do at the object's end. begin_list gives the appearance's count first, so the list
  // is resized once, if at all, and a counted loop reads the items in place (a used list's
  // elements reused). A list of bools is read by its helper.
  void list_items(const Instr& in, Value* slot, Value* p, Value* again) {
    Value* context = fn_->getArg(0);
    enter(context);
    if (!in.type->list_ops->data) {
      check("read_bool_list", {ptr_, ptr_, ptr_, i32_, i32_},
            {slot, p, const_ptr(in.type), c32(in.enc), b_.CreateZExt(again, i32_)}, 0);
      leave(context);
      return;
    }
    Value* iterator = new_slot("items");
    Value* n = begin_list(in, slot, iterator);
    Value* size = list_size(in, p);
    Value* start = b_.CreateSelect(again, size, c64(0));
    Value* total = b_.CreateAdd(start, n);
    resize_list_if(b_.CreateICmpNE(total, size), in, p, total);
    read_items(in, iterator, list_element(in, p, start), n);
    leave(context);
  }

  // Whether a list field's items are counted across its appearances in the object (items_end
  // trims it to them): a list whose key comes once per item, of elements with a place in
  // memory. Its items are read into the elements a used list holds, which keep their strings
  // and nested objects, where resizing the list to each appearance would destroy them and make
  // them again.
  bool counts_items(const Instr& in) const {
    return in.op == Op::List && plan_.fields[in.field].key_per_item && in.type->list_ops->data;
  }

  // One appearance of an array field, or of a list field counted by its items: its items from
  // index *count on. An array fails past its size, and at the object's end (items_end) unless
  // it has them all; a list is grown where it holds too few, its elements there read into.
  void counted_items(const Instr& in, Value* slot, Value* p, Value* count) {
    Value* context = fn_->getArg(0);
    enter(context);
    Value* iterator = new_slot("items");
    Value* n = begin_list(in, slot, iterator);
    Value* start = b_.CreateLoad(i64_, count);
    Value* total = b_.CreateAdd(start, n);
    Value* first = nullptr;
    if (in.op == Op::Array) {
      fail_if(b_.CreateICmpUGT(total, c64(in.count)));  // more elements than the array holds
      first = b_.CreateInBoundsGEP(i8_, p, b_.CreateMul(start, c64(element_of(in).size)));
    } else {
      resize_list_if(b_.CreateICmpUGT(total, list_size(in, p)), in, p, total);
      first = list_element(in, p, start);
    }
    read_items(in, iterator, first, n);
    b_.CreateStore(total, count);
    leave(context);
  }

  // The n items begin_list counted into the elements from `first` on. Numbers are read by a
  // function of their own: inlined into the object's function, their loop runs with the
  // object's state live around it, and spills its position and value to the stack on every
  // element for want of registers.
  void read_items(const Instr& in, Value* iterator, Value* first, Value* n) {
    if (!is_plain_number(element_of(in).kind)) {
      items_loop(in, iterator, first, n);
      return;
    }
    // One function per list, however many places read it.
    Function*& items = items_functions_[&in];
    const bool made = items != nullptr;
    if (!made) {
      items = Function::Create(FunctionType::get(i1(), {ptr_, ptr_, ptr_, i64_}, false),
                               Function::InternalLinkage, fn_->getName() + ".items", module_);
      items->setUWTableKind(llvm::UWTableKind::Default);  // helpers may throw std::bad_alloc
      items->addFnAttr(llvm::Attribute::NoInline);
    }
    fail_if(b_.CreateNot(b_.CreateCall(items, {fn_->getArg(0), iterator, first, n})));
    if (made) return;

    const llvm::IRBuilderBase::InsertPointGuard resume(b_);
    Function* outer = fn_;
    BasicBlock* outer_fail = fail_;
    begin_function(items);
    // The cursor in a local of this function, which SROA keeps in registers.
    Value* cursor = new_slot("items");
    b_.CreateMemCpy(cursor, llvm::MaybeAlign(8), items->getArg(1), llvm::MaybeAlign(8),
                    format_.slot_bytes);
    Value* first_in = items->getArg(2);
    Value* n_in = items->getArg(3);
    if (copies_) {
      // Elements the format can copy as they lie in the input need no loop.
      const Instr& element = plan_.code[plan_.routines[in.a].begin];
      BasicBlock* loop = block("items.loop");
      BasicBlock* copied = block("items.copied");
      b_.CreateCondBr(
          b_.CreateCall(
              helper(kernel("copy_elements").c_str(), i1(), {ptr_, ptr_, i64_, i32_, i32_, i32_}),
              {cursor, first_in, n_in, c32(static_cast<std::uint32_t>(element.op)),
               c32(element.width), c32(in.enc)}),
          copied, loop);
      b_.SetInsertPoint(copied);
      b_.CreateRet(llvm::ConstantInt::getTrue(ctx_));
      b_.SetInsertPoint(loop);
    }
    items_loop(in, cursor, first_in, n_in);
    b_.CreateRet(llvm::ConstantInt::getTrue(ctx_));
    fn_ = outer;
    fail_ = outer_fail;
  }

  void items_loop(const Instr& in, Value* iterator, Value* first, Value* n) {
    Value* element = new_slot("element");
    each_of(first, element_of(in).size, n, [&](Value* target) {
      Value* status =
          b_.CreateCall(helper(kernel("next_element").c_str(), i32_, {ptr_, ptr_, i32_}),
                        {iterator, element, c32(in.enc)});
      fail_if(b_.CreateICmpNE(status, c32(1)));
      call_routine(in.a, element, target);
    });
  }

  // After the object, the n items read of the array or counted list at p: an array must have
  // all its items, and a list drops the elements it held past them.
  void items_end(const Instr& in, Value* p, Value* n) {
    if (in.op == Op::Array) {
      fail_if(b_.CreateICmpNE(n, c64(in.count)));
      return;
    }
    resize_list_if(b_.CreateICmpNE(list_size(in, p), n), in, p, n);
  }

  // A field of a oneof just read empties the others of its group, as the last to come wins.
  void drop_alternatives(const Routine& routine, std::uint32_t read, Value* base) {
    const std::string& group = plan_.fields[plan_.code[routine.begin + read].field].desc->oneof;
    if (group.empty()) return;
    for (std::uint32_t k = 0; k < routine.end - routine.begin; ++k) {
      const Instr& other = plan_.code[routine.begin + k];
      if (k == read || plan_.fields[other.field].desc->oneof != group) continue;
      const void* reset = other.op == Op::Shared
                              ? reinterpret_cast<const void*>(other.type->shared_ops->reset)
                              : reinterpret_cast<const void*>(other.type->nullable_ops->reset);
      call_host(reset, FunctionType::get(Type::getVoidTy(ctx_), {ptr_, ptr_}, false),
                {const_ptr(other.type), at(base, other.offset)});
    }
  }

  // Resizes the list `in` at p to n elements, by its ops.
  void resize_list(const Instr& in, Value* p, Value* n) {
    call_host(reinterpret_cast<const void*>(in.type->list_ops->resize),
              FunctionType::get(Type::getVoidTy(ctx_), {ptr_, ptr_, i64_}, false),
              {const_ptr(in.type), p, n});
  }

  // Resizes the list `in` at p to n elements where `needed` holds.
  void resize_list_if(Value* needed, const Instr& in, Value* p, Value* n) {
    BasicBlock* resize = block("items.resize");
    BasicBlock* ready = block("items.ready");
    b_.CreateCondBr(needed, resize, ready);
    b_.SetInsertPoint(resize);
    resize_list(in, p, n);
    b_.CreateBr(ready);
    b_.SetInsertPoint(ready);
  }

  // The address of element `index` of the vector `in` at p.
  Value* list_element(const Instr& in, Value* p, Value* index) {
    return b_.CreateInBoundsGEP(i8_, load(ptr_, std_layout(in, p), 0),
                                b_.CreateMul(index, c64(element_of(in).size)));
  }

  // A vector's size: its begin and end.
  Value* list_size(const Instr& in, Value* p) {
    Value* words = std_layout(in, p);
    return b_.CreateExactUDiv(b_.CreatePtrDiff(i8_, load(ptr_, words, 8), load(ptr_, words, 0)),
                              c64(element_of(in).size));
  }

  const std::span<const char* const> inlined_;
  std::unordered_map<const Instr*, Function*> items_functions_;  // read_items
  const bool expects_;
  const bool copies_;
  const bool counted_;
  const bool repeated_ = plan_.traits.repeated_keys;
  llvm::ArrayType* slot_type_;
  FunctionType* fn_type_;
  const std::vector<bool> recursive_;
};

}  // namespace

void emit_reader(const Plan& plan, const RunOptions& options, llvm::Module& module,
                 const std::string& entry, std::vector<HostAddress>& hosts) {
  ReadEmitter(plan, options, module, hosts).emit(entry);
}

}  // namespace jitser::jit
