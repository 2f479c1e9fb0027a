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

#include "formats/json/json_write.h"
#include "formats/json/lower_json.h"
#include "jit/emitter.h"

namespace jitser::jit {
namespace {

using namespace ir;

static_assert(std::endian::native == std::endian::little,
              "literals are packed into words as a little-endian host stores them");

// Text as JSON writes it: quoted and escaped.
std::string quoted(std::string_view text) {
  std::string out(json::string_bound(text.size()), '\0');
  char* end = json::put_string(out.data(), text.data(), text.size());
  out.resize(end ? static_cast<std::size_t>(end - out.data()) : 0);
  return out;
}

// Up to 8 bytes of `text` from `at`, as the little-endian word they make in memory.
std::uint64_t word_of(std::string_view text, std::size_t at, std::size_t n) {
  std::uint64_t w = 0;
  for (std::size_t i = 0; i < n; ++i) {
    w |= std::uint64_t{static_cast<unsigned char>(text[at + i])} << (8 * i);
  }
  return w;
}

// ---------------------------------------------------------------------------------------------
// Serializer: WriteSpan routine(WriteContext*, cursor, limit, const base*), as for binary.

class JsonWriteEmitter : public WriterBase {
 public:
  JsonWriteEmitter(const Plan& plan, const RunOptions& options, llvm::Module& module,
                   std::vector<HostAddress>& hosts)
      : WriterBase(plan, options, module, hosts),
        omitting_(options.omit_null || options.omit_default) {}

  void emit(const std::string& entry) {
    declare(fn_type_, entry, false);
    for (std::uint32_t r = 0; r < plan_.routines.size(); ++r) {
      begin(routines_[r]);
      Value* base = fn_->getArg(3);
      const Routine& routine = plan_.routines[r];
      if (routine.object) {
        object(r, base);
      } else {
        for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
          if (plan_.code[i].op != Op::Frame) step({"", &plan_.code[i], base});  // JSON: no frame
        }
      }
      end();
    }
    begin(define_entry(fn_type_, entry));
    call_routine(plan_.root, fn_->getArg(3));
    end();
  }

 private:
  // A value to write and the literal text that goes before it.
  struct Step {
    std::string literal;
    const Instr* in;
    Value* base;  // what the instruction's offset is from
  };

  // An object. Without options that leave fields out, its text is fixed but for the values:
  // nested structs are spliced in (when no depth is counted), the literals between values
  // merge, and runs of values with a known bound share one capacity check.
  void object(std::uint32_t r, Value* base) {
    if (omitting_) return object_with_omissions(r, base);
    std::vector<Step> steps;
    std::string literal;
    expand(r, base, literal, steps);
    for (std::size_t i = 0; i < steps.size();) {
      std::size_t j = i;
      std::uint64_t bound = 0;
      Value* need = nullptr;
      for (; j < steps.size(); ++j) {
        const std::uint64_t fixed = fixed_bound(*steps[j].in);
        Value* dynamic = dynamic_bound(*steps[j].in, steps[j].base);
        if (!fixed && !dynamic) break;
        bound += steps[j].literal.size() + fixed;
        if (dynamic) need = need ? b_.CreateAdd(need, dynamic) : dynamic;
      }
      if (j == i) {
        step(steps[i]);
        ++i;
        continue;
      }
      ensure(need ? b_.CreateAdd(need, c64(bound)) : c64(bound));
      for (; i < j; ++i) {
        put_literal(steps[i].literal);
        bounded(*steps[i].in, steps[i].base);
      }
    }
    ensure(c64(literal.size()));
    put_literal(literal);
  }

  void expand(std::uint32_t r, Value* base, std::string& literal, std::vector<Step>& out) {
    const Routine& routine = plan_.routines[r];
    literal += '{';
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      const Instr& in = plan_.code[i];
      if (i != routine.begin) literal += ',';
      literal += plan_.fields[in.field].key;
      if (in.op == Op::Struct && !track_depth_) {
        expand(in.a, at(base, in.offset), literal, out);
      } else {
        out.push_back({literal, &in, base});
        literal.clear();
      }
    }
    literal += '}';
  }

  // Fields the options may leave out decide at run time, and so do the commas between them.
  void object_with_omissions(std::uint32_t r, Value* base) {
    const Routine& routine = plan_.routines[r];
    Value* first = local(i1(), "first", 1);
    b_.CreateStore(llvm::ConstantInt::getTrue(ctx_), first);
    ensure(c64(1));
    put_literal("{");
    Function* omit = helper("jitser_json_omit", i1(), {ptr_, ptr_, i32_, i32_});
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      const Instr& in = plan_.code[i];
      BasicBlock* write = block("field");
      BasicBlock* comma = block("field.comma");
      BasicBlock* key = block("field.key");
      BasicBlock* next = block("field.next");
      Value* left_out =
          b_.CreateCall(omit, {const_ptr(plan_.fields[in.field].desc), at(base, in.offset),
                               c32(options_.omit_null), c32(options_.omit_default)});
      b_.CreateCondBr(left_out, next, write);
      b_.SetInsertPoint(write);
      ensure(c64(1));
      b_.CreateCondBr(b_.CreateLoad(i1(), first), key, comma);
      b_.SetInsertPoint(comma);
      put_literal(",");
      b_.CreateBr(key);
      b_.SetInsertPoint(key);
      b_.CreateStore(llvm::ConstantInt::getFalse(ctx_), first);
      step({plan_.fields[in.field].key, &in, base});
      b_.CreateBr(next);
      b_.SetInsertPoint(next);
    }
    ensure(c64(1));
    put_literal("}");
  }

  // One value and its literal, with room reserved for both.
  void step(const Step& s) {
    const std::uint64_t fixed = fixed_bound(*s.in);
    Value* dynamic = dynamic_bound(*s.in, s.base);
    if (fixed || dynamic) {
      Value* bound = c64(s.literal.size() + fixed);
      ensure(dynamic ? b_.CreateAdd(dynamic, bound) : bound);
      put_literal(s.literal);
      bounded(*s.in, s.base);
      return;
    }
    if (!s.literal.empty()) {
      ensure(c64(s.literal.size()));
      put_literal(s.literal);
    }
    unbounded(*s.in, s.base);
  }

  // The most bytes a value writes when that is a constant; 0 for the others.
  std::uint64_t fixed_bound(const Instr& in) const {
    switch (in.op) {
      case Op::Bool: return 8;  // stored as one word: "true" or "false" and padding
      case Op::Int:
      case Op::UInt: return json::kMaxIntChars + 2;  // quotes, as a map key
      case Op::Float: return json::kMaxFloatChars;
      case Op::Decimal: return json::kMaxDecimalChars;
      case Op::Time: return json::kMaxTimeChars;
      case Op::String: return 2 + kStringWord;  // string(): one whole word stored past the end
      case Op::Bytes: return 2;
      case Op::Enum: {
        std::uint64_t most = 0;
        for (const EnumValue& d : in.type->values) {
          most = std::max<std::uint64_t>(most, quoted(d.name).size());
        }
        return most;
      }
      default: return 0;
    }
  }

  // The part of a string's or bytes' bound that depends on their size.
  Value* dynamic_bound(const Instr& in, Value* base) {
    Value* slot = at(base, in.offset);
    if (in.op == Op::String) return b_.CreateMul(load(i64_, slot, 8), c64(6));
    if (in.op == Op::Bytes) {
      Value* n = b_.CreatePtrDiff(i8_, load(ptr_, slot, 8), load(ptr_, slot, 0));
      return b_.CreateMul(b_.CreateUDiv(b_.CreateAdd(n, c64(2)), c64(3)), c64(4));
    }
    return nullptr;
  }

  // A json_write primitive: returns the new cursor, or null for a value JSON cannot hold.
  void put(const char* name, llvm::ArrayRef<Type*> params, llvm::ArrayRef<Value*> args) {
    std::vector<Type*> types{ptr_};
    types.insert(types.end(), params.begin(), params.end());
    std::vector<Value*> values{cursor()};
    values.insert(values.end(), args.begin(), args.end());
    Value* end = b_.CreateCall(helper(name, ptr_, types), values);
    fail_if(b_.CreateIsNull(end));
    set_cursor(end);
  }

  // Literal bytes, stored a word at a time.
  void put_literal(std::string_view text) {
    for (std::size_t k = 0; k < text.size();) {
      const std::size_t left = text.size() - k;
      const std::size_t n = left >= 8 ? 8 : left >= 4 ? 4 : left >= 2 ? 2 : 1;
      store(llvm::ConstantInt::get(int_type(static_cast<unsigned>(n)), word_of(text, k, n)),
            cursor(), k);
      k += n;
    }
    if (!text.empty()) advance(text.size());
  }

  Value* load_wide(Value* slot, unsigned bytes, bool is_signed) {
    Value* v = load(int_type(bytes), slot, 0);
    return is_signed ? b_.CreateSExt(v, i64_) : b_.CreateZExt(v, i64_);
  }

  // A value whose room is reserved.
  void bounded(const Instr& in, Value* base) {
    Value* slot = at(base, in.offset);
    switch (in.op) {
      case Op::Bool: {
        Value* v = b_.CreateICmpNE(load(i8_, slot, 0), c8(0));
        store(b_.CreateSelect(v, c64(word_of("true", 0, 4)), c64(word_of("false", 0, 5))), cursor(),
              0);
        set_cursor(b_.CreateInBoundsGEP(i8_, cursor(), b_.CreateSelect(v, c64(4), c64(5))));
        return;
      }
      case Op::Int:
      case Op::UInt: {
        const bool is_signed = in.op == Op::Int;
        const bool quoted = in.enc == json::kQuoted;
        if (quoted) put_literal("\"");
        put(is_signed ? "jitser_json_int" : "jitser_json_uint", {i64_},
            {load_wide(slot, in.width, is_signed)});
        if (quoted) put_literal("\"");
        return;
      }
      case Op::Float:
        if (in.width == 4) {
          put("jitser_json_float", {Type::getFloatTy(ctx_)},
              {load(Type::getFloatTy(ctx_), slot, 0)});
        } else {
          put("jitser_json_double", {Type::getDoubleTy(ctx_)},
              {load(Type::getDoubleTy(ctx_), slot, 0)});
        }
        return;
      case Op::String: string(slot); return;
      case Op::Bytes: {  // std::vector<std::uint8_t>: begin, end
        Value* data = load(ptr_, slot, 0);
        put("jitser_json_base64", {ptr_, i64_},
            {data, b_.CreatePtrDiff(i8_, load(ptr_, slot, 8), data)});
        return;
      }
      case Op::Enum: {
        const TypeDesc& e = *in.type;
        Value* v = load_wide(slot, static_cast<unsigned>(e.size), !enum_unsigned(e));
        BasicBlock* done = block("enum.done");
        llvm::SwitchInst* sw = b_.CreateSwitch(v, fail_, static_cast<unsigned>(e.values.size()));
        std::vector<std::int64_t> seen;
        for (const EnumValue& d : e.values) {
          if (std::find(seen.begin(), seen.end(), d.value) != seen.end()) continue;
          seen.push_back(d.value);
          BasicBlock* name = block("enum.name");
          sw->addCase(c64(static_cast<std::uint64_t>(d.value)), name);
          b_.SetInsertPoint(name);
          put_literal(quoted(d.name));
          b_.CreateBr(done);
        }
        b_.SetInsertPoint(done);
        return;
      }
      case Op::Decimal: put("jitser_json_decimal", {ptr_}, {slot}); return;
      case Op::Time:
        put("jitser_json_time", {i64_, i32_, i32_},
            {load(i64_, slot, 0), c32(static_cast<std::uint32_t>(in.type->unit)),
             c32(in.type->kind == Kind::Duration)});
        return;
      default: return;
    }
  }

  // A std::string (data, size). One of up to 32 bytes that needs no escape (the common case)
  // is copied between its quotes as two 16-byte words, the first and the last 16 (overlapping,
  // or past the end for a short one): a std::string's storage always holds 16 bytes (its local
  // buffer, or a heap block of more than 15 and a terminator). Anything else, and every string
  // the words show to need care (a quote, a backslash, a control character or a byte of a
  // multi-byte character, which must be checked as UTF-8), goes to the helper.
  static constexpr std::uint64_t kStringWord = 16;
  void string(Value* slot) {
    Value* data = load(ptr_, slot, 0);
    Value* n = load(i64_, slot, 8);
    BasicBlock* short_string = block("str.short");
    BasicBlock* plain = block("str.plain");
    BasicBlock* general = block("str.general");
    BasicBlock* done = block("str.done");
    b_.CreateCondBr(b_.CreateICmpULE(n, c64(2 * kStringWord)), short_string, general);

    b_.SetInsertPoint(short_string);
    auto* bytes_type = llvm::FixedVectorType::get(i8_, kStringWord);
    auto splat = [&](std::uint8_t c) {
      return llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(kStringWord), c8(c));
    };
    auto care = [&](Value* word) {
      return b_.CreateOr(
          b_.CreateOr(b_.CreateICmpULT(word, splat(0x20)), b_.CreateICmpSLT(word, splat(0))),
          b_.CreateOr(b_.CreateICmpEQ(word, splat('"')), b_.CreateICmpEQ(word, splat('\\'))));
    };
    // The last word starts at n - 16 when the string is longer than one word; for a shorter
    // one it is the first word again, stored twice.
    Value* longer = b_.CreateICmpUGT(n, c64(kStringWord));
    Value* tail_at = b_.CreateSelect(longer, b_.CreateSub(n, c64(kStringWord)), c64(0));
    Value* head = load(bytes_type, data, 0);
    Value* tail = b_.CreateAlignedLoad(bytes_type, b_.CreateInBoundsGEP(i8_, data, tail_at),
                                       llvm::MaybeAlign(1));
    std::vector<llvm::Constant*> lanes;
    for (std::uint64_t i = 0; i < kStringWord; ++i) {
      lanes.push_back(c8(static_cast<std::uint8_t>(i)));
    }
    Value* in_head = b_.CreateICmpULT(llvm::ConstantVector::get(lanes),
                                      b_.CreateVectorSplat(kStringWord, b_.CreateTrunc(n, i8_)));
    Value* head_care = b_.CreateOrReduce(b_.CreateAnd(care(head), in_head));
    Value* tail_care = b_.CreateAnd(longer, b_.CreateOrReduce(care(tail)));
    b_.CreateCondBr(b_.CreateOr(head_care, tail_care), general, plain);

    b_.SetInsertPoint(plain);
    Value* out = cursor();
    store(c8('"'), out, 0);
    store(head, out, 1);
    b_.CreateAlignedStore(tail, b_.CreateInBoundsGEP(i8_, out, b_.CreateAdd(tail_at, c64(1))),
                          llvm::MaybeAlign(1));
    Value* close = b_.CreateInBoundsGEP(i8_, out, b_.CreateAdd(n, c64(1)));
    store(c8('"'), close, 0);
    Value* plain_end = at(close, 1);
    b_.CreateBr(done);

    b_.SetInsertPoint(general);
    Value* end =
        b_.CreateCall(helper("jitser_json_string", ptr_, {ptr_, ptr_, i64_}), {cursor(), data, n});
    fail_if(b_.CreateIsNull(end));
    BasicBlock* general_done = b_.GetInsertBlock();
    b_.CreateBr(done);

    b_.SetInsertPoint(done);
    llvm::PHINode* next = b_.CreatePHI(ptr_, 2);
    next->addIncoming(plain_end, plain);
    next->addIncoming(end, general_done);
    set_cursor(next);
  }

  void null_literal() {
    ensure(c64(4));
    put_literal("null");
  }

  // `[`, each element and a comma after it, then `]` over the last comma.
  void list(Value* data, std::uint64_t stride, Value* n, std::uint32_t element) {
    ensure(c64(1));
    put_literal("[");
    elements(write_context(), data, stride, n, [&](Value* e) {
      call_routine(element, e);
      ensure(c64(1));
      put_literal(",");
    });
    BasicBlock* empty = block("list.empty");
    BasicBlock* some = block("list.close");
    BasicBlock* done = block("list.done");
    b_.CreateCondBr(b_.CreateICmpEQ(n, c64(0)), empty, some);
    b_.SetInsertPoint(empty);
    ensure(c64(1));
    put_literal("]");
    b_.CreateBr(done);
    b_.SetInsertPoint(some);
    store(c8(']'), cursor(), static_cast<std::uint64_t>(-1));
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  void unbounded(const Instr& in, Value* base) {
    Value* context = write_context();
    Value* slot = at(base, in.offset);
    switch (in.op) {
      case Op::Struct:
        enter(context);
        call_routine(in.a, slot);
        leave(context);
        return;
      case Op::Nullable:
      case Op::Shared: {
        Value* held;
        if (in.type->kind == Kind::Optional) {
          // std::optional<T>: the value, then its engaged flag (jit/runtime.h).
          Value* engaged = b_.CreateICmpNE(load(i8_, slot, element_of(in).size), c8(0));
          held = b_.CreateSelect(engaged, slot, llvm::ConstantPointerNull::get(ptr_));
        } else {
          held = load(ptr_, slot, 0);  // unique_ptr and shared_ptr start with their T*
        }
        BasicBlock* null = block("null");
        BasicBlock* some = block("some");
        BasicBlock* done = block("some.done");
        b_.CreateCondBr(b_.CreateIsNull(held), null, some);
        b_.SetInsertPoint(null);
        null_literal();
        b_.CreateBr(done);
        b_.SetInsertPoint(some);
        const bool shared = in.op == Op::Shared;
        if (shared) {
          // Written as a copy wherever it appears; one that contains itself is a cycle.
          fail_if(b_.CreateNot(b_.CreateCall(helper("jitser_json_open_shared", i1(), {ptr_, ptr_}),
                                             {context, held})));
        }
        enter(context);
        call_routine(in.a, held);
        leave(context);
        if (shared) {
          b_.CreateCall(helper("jitser_json_close_shared", Type::getVoidTy(ctx_), {ptr_}),
                        {context});
        }
        b_.CreateBr(done);
        b_.SetInsertPoint(done);
        return;
      }
      case Op::List: {
        const ListOps* ops = in.type->list_ops;
        if (!ops->data) {  // std::vector<bool>
          enter(context);
          checked_span(b_.CreateCall(
              helper("jitser_json_write_bool_list", span_, {ptr_, ptr_, ptr_, ptr_, ptr_}),
              {context, cursor(), b_.CreateLoad(ptr_, limit_), slot, const_ptr(ops)}));
          leave(context);
          return;
        }
        const std::uint64_t stride = element_of(in).size;
        Value* data = load(ptr_, slot, 0);
        Value* n =
            b_.CreateExactUDiv(b_.CreatePtrDiff(i8_, load(ptr_, slot, 8), data), c64(stride));
        list(data, stride, n, in.a);
        return;
      }
      case Op::Array: list(slot, element_of(in).size, c64(in.count), in.a); return;
      case Op::Map:
        enter(context);
        checked_span(b_.CreateCall(
            helper("jitser_json_write_map", span_, {ptr_, ptr_, ptr_, ptr_, ptr_, ptr_, ptr_}),
            {context, cursor(), b_.CreateLoad(ptr_, limit_), slot, const_ptr(in.type->map_ops),
             routines_[in.a], routines_[in.b]}));
        leave(context);
        return;
      case Op::Dynamic:
        checked_span(
            b_.CreateCall(helper("jitser_json_write_value", span_, {ptr_, ptr_, ptr_, ptr_}),
                          {context, cursor(), b_.CreateLoad(ptr_, limit_), slot}));
        return;
      default: return;
    }
  }

  const bool omitting_;
};

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
  if (plan.direction == Direction::Serialize) {
    JsonWriteEmitter(plan, options, module, hosts).emit(entry);
  } else {
    JsonReadEmitter(plan, options, module, hosts).emit(entry);
  }
}

}  // namespace jitser::jit
