#include "jit/json_to_ir.h"

#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Intrinsics.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/json/lower_json.h"
#include "jit/emitter.h"

namespace jitser::jit {
namespace {

using namespace ir;

static_assert(std::endian::native == std::endian::little,
              "literals are packed into words as a little-endian host stores them");

// Up to 8 bytes of `text` from `at`, as the little-endian word they make in memory.
std::uint64_t word_of(std::string_view text, std::size_t at, std::size_t n) {
  std::uint64_t w = 0;
  for (std::size_t i = 0; i < n; ++i) {
    w |= std::uint64_t{static_cast<unsigned char>(text[at + i])} << (8 * i);
  }
  return w;
}

// ---------------------------------------------------------------------------------------------
// Deserializer: bool routine(ReadContext*, json::Slot* value, base*)

class JsonReadEmitter : public EmitterBase {
 public:
  JsonReadEmitter(const Plan& plan, const RunOptions& options, llvm::Module& module,
                  std::vector<HostAddress>& hosts)
      : EmitterBase(plan, options, module, hosts),
        slot_type_(llvm::ArrayType::get(i8_, 32)),
        fn_type_(FunctionType::get(i1(), {ptr_, ptr_, ptr_}, false)) {}

  void emit(const std::string& entry) {
    declare(fn_type_, entry, false);
    for (std::uint32_t r = 0; r < plan_.routines.size(); ++r) {
      begin(routines_[r]);
      const Routine& routine = plan_.routines[r];
      if (routine.object) {
        object(r);
      } else {
        for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
          const Instr& in = plan_.code[i];
          // No frame; a map's key routine stays empty, as jitser_json_read_map reads keys
          // from their text.
          if (in.op == Op::Frame || in.enc == json::kQuoted) continue;
          value(in, fn_->getArg(1), at(fn_->getArg(2), in.offset));
        }
      }
      b_.CreateRet(llvm::ConstantInt::getTrue(ctx_));
    }
    // The entry is a ReadFn, as in every format: it opens the input as the context's
    // document, reads the root value, and returns the input's end when nothing but whitespace
    // follows it.
    fn_ = define_entry(FunctionType::get(ptr_, {ptr_, ptr_, ptr_, ptr_}, false), entry);
    Value* context = fn_->getArg(0);
    Value* end = fn_->getArg(2);
    BasicBlock* body = block("entry");
    fail_ = block("fail");
    b_.SetInsertPoint(fail_);
    b_.CreateRet(llvm::ConstantPointerNull::get(ptr_));
    b_.SetInsertPoint(body);
    Value* root = new_slot("root");
    check("jitser_json_open", {ptr_, ptr_, ptr_, ptr_}, {context, fn_->getArg(1), end, root});
    call_routine(plan_.root, root, fn_->getArg(3));
    check("jitser_json_finish", {ptr_}, {context});
    b_.CreateRet(end);
  }

 private:
  void begin(Function* f) {
    fn_ = f;
    BasicBlock* entry = block("entry");
    fail_ = block("fail");
    b_.SetInsertPoint(fail_);
    b_.CreateRet(llvm::ConstantInt::getFalse(ctx_));
    b_.SetInsertPoint(entry);
  }

  Value* new_slot(const char* name) { return local(slot_type_, name); }

  // Calls a helper that returns whether it succeeded.
  void check(const char* name, llvm::ArrayRef<Type*> params, llvm::ArrayRef<Value*> args) {
    fail_if(b_.CreateNot(b_.CreateCall(helper(name, i1(), params), args)));
  }
  void call_routine(std::uint32_t r, Value* value, Value* object) {
    fail_if(b_.CreateNot(b_.CreateCall(fn_type_, routines_[r], {fn_->getArg(0), value, object})));
  }

  // Branches to `match` when the raw key at `raw` is `tail` (the key's JSON text after its
  // opening quote, closing quote included), else to `miss`. Words are compared in order and
  // the next is read only after one matched: those bytes lie before the key's closing quote,
  // so a read ends at most 8 bytes past it, within the input's padding.
  void branch_on_key(Value* raw, std::string_view tail, BasicBlock* match, BasicBlock* miss) {
    for (std::size_t k = 0; k < tail.size(); k += 8) {
      const std::size_t n = std::min<std::size_t>(8, tail.size() - k);
      Value* word = load(i64_, raw, k);
      if (n < 8) word = b_.CreateAnd(word, c64((std::uint64_t{1} << (8 * n)) - 1));
      BasicBlock* next = k + 8 < tail.size() ? block("key.more") : match;
      b_.CreateCondBr(b_.CreateICmpEQ(word, c64(word_of(tail, k, n))), next, miss);
      if (next != match) b_.SetInsertPoint(next);
    }
  }

  std::string_view key_tail(const Instr& in) const {
    const std::string& key = plan_.fields[in.field].key;  // `"name":`
    return std::string_view(key).substr(1, key.size() - 2);
  }

  // An object into a struct. Each key is first compared with the field expected next (the one
  // after the field read last), so fields in declaration order match on one compare; any other
  // key goes to dispatch, which compares it with every field's, then looks its unescaped text
  // up. One loop reads the fields, so the inlined iteration appears once per struct. A bitset
  // of the fields read finds duplicates and what is missing.
  void object(std::uint32_t r) {
    const Routine& routine = plan_.routines[r];
    const std::uint32_t n = routine.end - routine.begin;
    Value* value = fn_->getArg(1);
    Value* base = fn_->getArg(2);
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
    check("jitser_json_begin_object", {ptr_, ptr_}, {value, it});

    BasicBlock* next = block("object.next");
    BasicBlock* have = block("object.key");
    BasicBlock* finish = block("object.end");
    BasicBlock* dispatch = block("object.dispatch");
    std::vector<BasicBlock*> handle(n);
    for (std::uint32_t i = 0; i < n; ++i) handle[i] = block("field");
    b_.CreateBr(next);

    b_.SetInsertPoint(next);
    Value* status = b_.CreateCall(helper("jitser_json_next_field", i32_, {ptr_, ptr_, ptr_}),
                                  {it, field, raw_at});
    llvm::SwitchInst* step = b_.CreateSwitch(status, fail_, 2);
    step->addCase(c32(1), have);
    step->addCase(c32(0), finish);

    b_.SetInsertPoint(have);
    Value* raw = b_.CreateLoad(ptr_, raw_at);
    llvm::SwitchInst* guess = b_.CreateSwitch(b_.CreateLoad(i32_, expected), dispatch, n);
    for (std::uint32_t i = 0; i < n; ++i) {
      BasicBlock* compare = block("object.expected");
      guess->addCase(c32(i), compare);
      b_.SetInsertPoint(compare);
      branch_on_key(raw, key_tail(plan_.code[routine.begin + i]), handle[i], dispatch);
    }

    b_.SetInsertPoint(dispatch);
    for (std::uint32_t i = 0; i < n; ++i) {
      BasicBlock* miss = block("dispatch.next");
      branch_on_key(raw, key_tail(plan_.code[routine.begin + i]), handle[i], miss);
      b_.SetInsertPoint(miss);
    }
    // No key matched as written: compare its unescaped text with the fields' names.
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
    Value* index = b_.CreateCall(helper("jitser_json_find_field", i32_, {ptr_, ptr_, i32_}),
                                 {raw, table, c32(n)});
    // An unknown key's value is skipped by the next step of the iterator.
    llvm::SwitchInst* sw = b_.CreateSwitch(index, fail_, n + 1);
    if (!options_.strict) sw->addCase(llvm::ConstantInt::get(i32_, -1, true), next);
    for (std::uint32_t i = 0; i < n; ++i) sw->addCase(c32(i), handle[i]);

    for (std::uint32_t i = 0; i < n; ++i) {
      b_.SetInsertPoint(handle[i]);
      Value* word = b_.CreateLoad(i64_, seen[i / 64]);
      Value* bit = c64(std::uint64_t{1} << (i % 64));
      fail_if(b_.CreateICmpNE(b_.CreateAnd(word, bit), c64(0)));  // a duplicate key
      b_.CreateStore(b_.CreateOr(word, bit), seen[i / 64]);
      const Instr& in = plan_.code[routine.begin + i];
      this->value(in, field, at(base, in.offset));
      b_.CreateStore(c32(i + 1), expected);
      b_.CreateBr(next);
    }

    b_.SetInsertPoint(finish);
    for (std::uint32_t i = 0; i < n; ++i) {
      const Instr& in = plan_.code[routine.begin + i];
      BasicBlock* absent = block("missing");
      BasicBlock* done = block("missing.done");
      Value* word = b_.CreateLoad(i64_, seen[i / 64]);
      Value* bit = c64(std::uint64_t{1} << (i % 64));
      b_.CreateCondBr(b_.CreateICmpEQ(b_.CreateAnd(word, bit), c64(0)), absent, done);
      b_.SetInsertPoint(absent);
      check("jitser_json_missing", {ptr_, ptr_},
            {const_ptr(plan_.fields[in.field].desc), at(base, in.offset)});
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
    }
  }

  // Reads a number through `getter` into a 64-bit local.
  Value* get(const char* getter, Value* value, Type* type) {
    Value* out = local(type, "number");
    check(getter, {ptr_, ptr_}, {value, out});
    return b_.CreateLoad(type, out);
  }

  // Reads the value in slot `value` into `p` as `in` says.
  void value(const Instr& in, Value* value, Value* p) {
    Value* context = fn_->getArg(0);
    switch (in.op) {
      case Op::Bool: {
        Value* out = local(i8_, "bool", 1);
        check("jitser_json_get_bool", {ptr_, ptr_}, {value, out});
        store(b_.CreateLoad(i8_, out), p, 0);
        return;
      }
      case Op::Int: {
        Value* v = get("jitser_json_get_int", value, i64_);
        Value* narrow = b_.CreateTrunc(v, int_type(in.width));
        if (in.width < 8) fail_if(b_.CreateICmpNE(b_.CreateSExt(narrow, i64_), v));
        store(narrow, p, 0);
        return;
      }
      case Op::UInt: {
        Value* v = get("jitser_json_get_uint", value, i64_);
        if (in.width < 8) fail_if(b_.CreateICmpUGE(v, c64(std::uint64_t{1} << (8 * in.width))));
        store(b_.CreateTrunc(v, int_type(in.width)), p, 0);
        return;
      }
      case Op::Float: {
        Value* d = get("jitser_json_get_double", value, Type::getDoubleTy(ctx_));
        if (in.width == 8) {
          store(d, p, 0);
          return;
        }
        // Out of range only when it rounds past the largest float, as the interpreter says.
        Value* f = b_.CreateFPTrunc(d, Type::getFloatTy(ctx_));
        Value* magnitude = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, f);
        fail_if(b_.CreateFCmpOEQ(magnitude, llvm::ConstantFP::getInfinity(f->getType())));
        store(f, p, 0);
        return;
      }
      case Op::String: string(value, p); return;
      case Op::Bytes:
        check("jitser_json_read_bytes", {ptr_, ptr_, ptr_},
              {value, p, const_ptr(in.type->list_ops)});
        return;
      case Op::Enum: enum_name(in, value, p); return;
      case Op::Decimal: check("jitser_json_read_decimal", {ptr_, ptr_}, {value, p}); return;
      case Op::Time:
        check("jitser_json_read_time", {ptr_, ptr_, i32_, i32_},
              {value, p, c32(static_cast<std::uint32_t>(in.type->unit)),
               c32(in.type->kind == Kind::Duration)});
        return;
      case Op::Dynamic:
        check("jitser_json_read_value", {ptr_, ptr_, ptr_}, {context, value, p});
        return;
      case Op::Struct:
        enter(context);
        call_routine(in.a, value, p);
        leave(context);
        return;
      case Op::Nullable:
      case Op::Shared: {
        // A shared object is read as a copy: JSON has no references.
        const void* reset = in.op == Op::Shared
                                ? reinterpret_cast<const void*>(in.type->shared_ops->reset)
                                : reinterpret_cast<const void*>(in.type->nullable_ops->reset);
        const void* fill = in.op == Op::Shared
                               ? reinterpret_cast<const void*>(in.type->shared_ops->emplace)
                               : reinterpret_cast<const void*>(in.type->nullable_ops->fill);
        Value* was_null = local(i8_, "was_null", 1);
        check("jitser_json_take_null", {ptr_, ptr_}, {value, was_null});
        BasicBlock* null = block("null");
        BasicBlock* some = block("some");
        BasicBlock* done = block("some.done");
        b_.CreateCondBr(b_.CreateICmpNE(b_.CreateLoad(i8_, was_null), c8(0)), null, some);
        b_.SetInsertPoint(null);
        call_host(reset, FunctionType::get(Type::getVoidTy(ctx_), {ptr_}, false), {p});
        b_.CreateBr(done);
        b_.SetInsertPoint(some);
        Value* held = call_host(fill, FunctionType::get(ptr_, {ptr_}, false), {p});
        enter(context);
        call_routine(in.a, value, held);
        leave(context);
        b_.CreateBr(done);
        b_.SetInsertPoint(done);
        return;
      }
      case Op::List: {
        const ListOps* ops = in.type->list_ops;
        enter(context);
        if (!ops->data) {  // std::vector<bool>
          check("jitser_json_read_bool_list", {ptr_, ptr_, ptr_}, {value, p, const_ptr(ops)});
        } else {
          list(in, value, p);
        }
        leave(context);
        return;
      }
      case Op::Array: {
        enter(context);
        const std::uint64_t stride = element_of(in).size;
        Value* count = local(i64_, "count");
        b_.CreateStore(c64(0), count);
        each_element(value, [&](Value* element) {
          Value* i = b_.CreateLoad(i64_, count);
          fail_if(b_.CreateICmpUGE(i, c64(in.count)));  // more elements than the array holds
          call_routine(in.a, element, b_.CreateInBoundsGEP(i8_, p, b_.CreateMul(i, c64(stride))));
          b_.CreateStore(b_.CreateAdd(i, c64(1)), count);
        });
        fail_if(b_.CreateICmpNE(b_.CreateLoad(i64_, count), c64(in.count)));
        leave(context);
        return;
      }
      case Op::Map: {
        enter(context);
        const Instr& key = plan_.code[plan_.routines[in.a].begin];
        check("jitser_json_read_map", {ptr_, ptr_, ptr_, ptr_, ptr_, ptr_},
              {context, value, p, const_ptr(in.type), const_ptr(&key), routines_[in.b]});
        leave(context);
        return;
      }
      default: return;
    }
  }

  // The unescaped text of the string in `value`: its data and size.
  std::pair<Value*, Value*> get_string(Value* value) {
    Value* data_at = local(ptr_, "text");
    Value* size_at = local(i64_, "text_size");
    check("jitser_json_get_string", {ptr_, ptr_, ptr_}, {value, data_at, size_at});
    return {b_.CreateLoad(ptr_, data_at), b_.CreateLoad(i64_, size_at)};
  }

  // A string of up to 15 bytes is stored in line, read as two words from where it lies (the
  // padded input or simdjson's padded string buffer, as for enum names); a longer one is
  // assigned by the host.
  void string(Value* value, Value* p) {
    auto [data, n] = get_string(value);
    BasicBlock* in_line = block("string.short");
    BasicBlock* host = block("string.long");
    BasicBlock* done = block("string.done");
    b_.CreateCondBr(b_.CreateICmpULE(n, c64(15)), in_line, host);
    b_.SetInsertPoint(in_line);
    store_short_string(b_, p, load(i64_, data, 0), load(i64_, data, 8), n);
    b_.CreateBr(done);
    b_.SetInsertPoint(host);
    b_.CreateCall(helper("jitser_json_assign_string", Type::getVoidTy(ctx_), {ptr_, ptr_, i64_}),
                  {p, data, n});
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  // An enum by name: the unescaped string compared with each declared name, by its length,
  // then as words (the string lies in the padded input or simdjson's padded string buffer, so
  // a word read past its end stays readable). An unknown name fails.
  void enum_name(const Instr& in, Value* value, Value* p) {
    const TypeDesc& e = *in.type;
    auto [data, n] = get_string(value);
    BasicBlock* done = block("enum.done");
    for (const EnumValue& d : e.values) {
      BasicBlock* compare = block("enum.compare");
      BasicBlock* match = block("enum.match");
      BasicBlock* next = block("enum.next");
      b_.CreateCondBr(b_.CreateICmpEQ(n, c64(d.name.size())), compare, next);
      b_.SetInsertPoint(compare);
      if (d.name.empty()) {
        b_.CreateBr(match);
      } else {
        branch_on_key(data, d.name, match, next);
      }
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

  // Runs `each(element slot)` for every element of the array in `value`.
  template <class Each>
  void each_element(Value* value, Each each) {
    Value* it = new_slot("array");
    Value* element = new_slot("element");
    check("jitser_json_begin_array", {ptr_, ptr_}, {value, it});
    BasicBlock* loop = block("element");
    BasicBlock* body = block("element.read");
    BasicBlock* done = block("elements.done");
    b_.CreateBr(loop);
    b_.SetInsertPoint(loop);
    Value* status =
        b_.CreateCall(helper("jitser_json_next_element", i32_, {ptr_, ptr_}), {it, element});
    llvm::SwitchInst* sw = b_.CreateSwitch(status, fail_, 2);
    sw->addCase(llvm::ConstantInt::get(i32_, 1), body);
    sw->addCase(llvm::ConstantInt::get(i32_, 0), done);
    b_.SetInsertPoint(body);
    each(element);
    b_.CreateBr(loop);
    b_.SetInsertPoint(done);
  }

  // A std::vector: elements already there are read into in place (their buffers reused), it
  // grows by doubling, and is cut to the elements read at the end, as the interpreter does.
  void list(const Instr& in, Value* value, Value* p) {
    const ListOps* ops = in.type->list_ops;
    const std::uint64_t stride = element_of(in).size;
    FunctionType* resize_type = FunctionType::get(Type::getVoidTy(ctx_), {ptr_, i64_}, false);
    const void* resize = reinterpret_cast<const void*>(ops->resize);
    auto size = [&] {
      return b_.CreateExactUDiv(b_.CreatePtrDiff(i8_, load(ptr_, p, 8), load(ptr_, p, 0)),
                                c64(stride));
    };
    Value* count = local(i64_, "count");
    Value* have = local(i64_, "have");
    b_.CreateStore(c64(0), count);
    b_.CreateStore(size(), have);
    each_element(value, [&](Value* element) {
      Value* i = b_.CreateLoad(i64_, count);
      BasicBlock* grow = block("list.grow");
      BasicBlock* ready = block("list.ready");
      b_.CreateCondBr(b_.CreateICmpUGE(i, b_.CreateLoad(i64_, have)), grow, ready);
      b_.SetInsertPoint(grow);
      Value* doubled = b_.CreateMul(b_.CreateLoad(i64_, have), c64(2));
      Value* wanted = b_.CreateAdd(i, c64(1));
      call_host(resize, resize_type,
                {p, b_.CreateSelect(b_.CreateICmpUGT(doubled, wanted), doubled, wanted)});
      b_.CreateStore(size(), have);
      b_.CreateBr(ready);
      b_.SetInsertPoint(ready);
      Value* target = b_.CreateInBoundsGEP(i8_, load(ptr_, p, 0), b_.CreateMul(i, c64(stride)));
      call_routine(in.a, element, target);
      b_.CreateStore(b_.CreateAdd(i, c64(1)), count);
    });
    call_host(resize, resize_type, {p, b_.CreateLoad(i64_, count)});
  }

  llvm::ArrayType* slot_type_;
  FunctionType* fn_type_;
};

}  // namespace

void emit_json_plan(const Plan& plan, const RunOptions& options, llvm::Module& module,
                    const std::string& entry, std::vector<HostAddress>& hosts) {
  JsonReadEmitter(plan, options, module, hosts).emit(entry);
}

}  // namespace jitser::jit
