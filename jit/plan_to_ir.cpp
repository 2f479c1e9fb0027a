#include "jit/plan_to_ir.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "formats/binary/wire.h"
#include "jit/emitter.h"
#include "jit/json_to_ir.h"

namespace jitser::jit {
namespace {

using namespace ir;

// ---------------------------------------------------------------------------------------------
// Serializer: WriteSpan routine(WriteContext*, cursor, limit, const base*)

class WriteEmitter : public WriterBase {
 public:
  WriteEmitter(const Plan& plan, const RunOptions& options, llvm::Module& module,
               std::vector<HostAddress>& hosts)
      : WriterBase(plan, options, module, hosts) {}

  void emit(const std::string& name) {
    declare(fn_type_, name);
    for (std::uint32_t r = 0; r < plan_.routines.size(); ++r) routine(r);
  }

 private:
  void routine(std::uint32_t r) {
    begin(routines_[r]);
    Value* context = write_context();
    Value* base = fn_->getArg(3);

    // Runs of instructions whose output size is known once their strings' sizes are loaded
    // share one capacity check. Nested structs are spliced into their parent's run when no
    // depth is counted (jit: depth_bounded), so a run can span several structs.
    std::vector<Step> steps;
    expand(r, base, steps);
    for (std::size_t i = 0; i < steps.size();) {
      std::size_t j = i;
      std::uint64_t bound = 0;
      Value* need = nullptr;
      auto add = [&](Value* n) { need = need ? b_.CreateAdd(need, n) : n; };
      for (; j < steps.size(); ++j) {
        const Instr& in = *steps[j].in;
        Value* slot = at(steps[j].base, in.offset);
        if (in.op == Op::String) {
          bound += kStringSlack;
          add(load(i64_, slot, 8));
        } else if (fixed_bound(in) > 0) {
          bound += fixed_bound(in);
        } else if (const Instr* inner = optional_leaf(in)) {
          bound += 1 + (inner->op == Op::String ? kStringSlack : fixed_bound(*inner));
          if (inner->op == Op::String) {
            add(b_.CreateSelect(engaged(in, slot), load(i64_, slot, 8), c64(0)));
          }
        } else {
          break;
        }
      }
      if (j > i) {
        ensure(need ? b_.CreateAdd(need, c64(bound)) : c64(bound));
        for (; i < j; ++i) {
          const Instr& in = *steps[i].in;
          Value* slot = at(steps[i].base, in.offset);
          if (in.op == Op::String) {
            bytes(in, slot, false);
          } else if (const Instr* inner = optional_leaf(in)) {
            optional_in_run(in, *inner, slot);
          } else {
            bounded(in, steps[i].base);
          }
        }
      } else {
        unbounded(context, *steps[i].in, steps[i].base);
        ++i;
      }
    }
    end();
  }

  struct Step {
    const Instr* in;
    Value* base;  // what the instruction's offset is from
  };

  // The instructions of routine r, with nested structs spliced in where no depth is counted.
  void expand(std::uint32_t r, Value* base, std::vector<Step>& out) {
    const Routine& routine = plan_.routines[r];
    for (std::uint32_t i = routine.begin; i < routine.end; ++i) {
      const Instr& in = plan_.code[i];
      if (in.op == Op::Struct && !track_depth_) {
        expand(in.a, at(base, in.offset), out);
      } else {
        out.push_back({&in, base});
      }
    }
  }

  // For a std::optional whose element is one String or bounded instruction (and no depth is
  // counted), that instruction: such an optional joins a run of bounded writes.
  const Instr* optional_leaf(const Instr& in) const {
    if (in.op != Op::Nullable || in.type->kind != Kind::Optional || track_depth_) return nullptr;
    const Routine& element = plan_.routines[in.a];
    if (element.end - element.begin != 1) return nullptr;
    const Instr& inner = plan_.code[element.begin];
    if (inner.offset != 0 || (inner.op != Op::String && fixed_bound(inner) == 0)) return nullptr;
    return &inner;
  }

  // std::optional<T>: the value, then its engaged flag (jit/runtime.h).
  Value* engaged(const Instr& in, Value* slot) {
    return b_.CreateICmpNE(load(i8_, slot, element_of(in).size), c8(0));
  }

  // An optional_leaf inside a run whose room is reserved: its flag, then the value if any.
  void optional_in_run(const Instr& in, const Instr& inner, Value* slot) {
    BasicBlock* some = block("opt.some");
    BasicBlock* none = block("opt.none");
    BasicBlock* done = block("opt.done");
    b_.CreateCondBr(engaged(in, slot), some, none);
    b_.SetInsertPoint(none);
    put_byte(wire::kNull);
    b_.CreateBr(done);
    b_.SetInsertPoint(some);
    put_byte(wire::kNotNull);
    if (inner.op == Op::String) {
      bytes(inner, slot, false);
    } else {
      bounded(inner, slot);
    }
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  // The most bytes an instruction writes, when it writes a bounded amount and calls nothing.
  static std::uint64_t fixed_bound(const Instr& in) {
    switch (in.op) {
      case Op::Frame: return 10;
      case Op::Bool: return 1;
      case Op::Int:
      case Op::UInt:
      case Op::Float:
        switch (in.enc) {
          case wire::kFixed: return in.width;
          case wire::kCompact: return 9;
          default: return (in.width * 8u + 6) / 7;
        }
      case Op::Enum:
      case Op::Decimal:
      case Op::Time: return 2 * wire::kMaxVarintBytes;
      default: return 0;
    }
  }

  void put_byte(std::uint8_t byte) {
    store(c8(byte), cursor(), 0);
    advance(1);
  }

  // The kernel's writers (formats/binary/binary_kernel.cpp), inlined: each takes the cursor
  // and returns the end of what it wrote.
  void put(const char* name, llvm::ArrayRef<Type*> params, llvm::ArrayRef<Value*> args) {
    std::vector<Type*> types{ptr_};
    types.insert(types.end(), params.begin(), params.end());
    std::vector<Value*> values{cursor()};
    values.insert(values.end(), args.begin(), args.end());
    set_cursor(b_.CreateCall(helper(name, ptr_, types), values));
  }
  void put_varuint(Value* v) { put("jitser_binary_put_varuint", {i64_}, {v}); }

  Value* zigzag(Value* v) {
    return b_.CreateXor(b_.CreateShl(v, c64(1)), b_.CreateAShr(v, c64(63)));
  }

  // Loads an integer of `bytes` bytes and widens it to 64 bits.
  Value* load_wide(Value* base, std::uint64_t offset, unsigned bytes, bool is_signed) {
    Value* v = load(int_type(bytes), base, offset);
    return is_signed ? b_.CreateSExt(v, i64_) : b_.CreateZExt(v, i64_);
  }

  void bounded(const Instr& in, Value* base) {
    switch (in.op) {
      case Op::Frame:
        put("jitser_binary_put_frame", {i64_, i1()},
            {c64(plan_.fingerprint), llvm::ConstantInt::getBool(ctx_, options_.write_fingerprint)});
        return;
      case Op::Bool: {
        Value* v = b_.CreateICmpNE(load(i8_, base, in.offset), c8(0));
        store(b_.CreateZExt(v, i8_), cursor(), 0);
        advance(1);
        return;
      }
      case Op::Int:
      case Op::UInt:
      case Op::Float:
        switch (in.enc) {
          case wire::kFixed:
            store(load(int_type(in.width), base, in.offset), cursor(), 0);
            advance(in.width);
            return;
          case wire::kVarint: put_varuint(load_wide(base, in.offset, in.width, false)); return;
          case wire::kZigzag:
            put_varuint(zigzag(load_wide(base, in.offset, in.width, true)));
            return;
          default: put("jitser_binary_put_compact", {i64_}, {load(i64_, base, in.offset)}); return;
        }
      case Op::Enum: {
        const TypeDesc& e = *in.type;
        Value* v = load_wide(base, in.offset, static_cast<unsigned>(e.size), !enum_unsigned(e));
        declared(v, e);
        put_varuint(zigzag(v));
        return;
      }
      case Op::Decimal: {
        put_varuint(zigzag(load(i64_, base, in.offset + offsetof(Decimal, unscaled))));
        put_varuint(
            zigzag(b_.CreateSExt(load(i32_, base, in.offset + offsetof(Decimal, scale)), i64_)));
        return;
      }
      case Op::Time:
        put("jitser_binary_put_time", {i64_, i32_},
            {load(i64_, base, in.offset), c32(static_cast<std::uint32_t>(in.type->unit))});
        return;
      default: return;
    }
  }

  void unbounded(Value* context, const Instr& in, Value* base) {
    Value* slot = at(base, in.offset);
    switch (in.op) {
      case Op::String:
      case Op::Bytes: bytes(in, slot, true); return;
      case Op::Struct:
        enter(context);
        call_routine(in.a, slot);
        leave(context);
        return;
      case Op::Nullable: {
        Value* value;
        if (in.type->kind == Kind::UniquePtr) {
          value = load(ptr_, slot, 0);  // the default deleter leaves only the pointer
        } else {
          value = b_.CreateSelect(engaged(in, slot), slot, llvm::ConstantPointerNull::get(ptr_));
        }
        ensure(c64(1));
        flag_or_value(context, value, in.a, wire::kNotNull);
        return;
      }
      case Op::Shared: {
        Value* object = load(ptr_, slot, 0);  // shared_ptr<T> starts with its T*
        ensure(c64(1 + wire::kMaxVarintBytes));
        BasicBlock* null = block("shared.null");
        BasicBlock* some = block("shared.some");
        BasicBlock* done = block("shared.done");
        b_.CreateCondBr(b_.CreateIsNull(object), null, some);
        b_.SetInsertPoint(null);
        put_byte(wire::kNull);
        b_.CreateBr(done);
        b_.SetInsertPoint(some);
        Value* id = b_.CreateCall(helper("jitser_binary_shared_id", i64_, {ptr_, ptr_, ptr_}),
                                  {context, object, const_ptr(in.type->shared_ops)});
        BasicBlock* ref = block("shared.ref");
        BasicBlock* fresh = block("shared.new");
        b_.CreateCondBr(b_.CreateICmpSLT(id, c64(0)), fresh, ref);
        b_.SetInsertPoint(ref);
        put_byte(wire::kRef);
        put_varuint(id);
        b_.CreateBr(done);
        b_.SetInsertPoint(fresh);
        put_byte(wire::kRefValue);
        enter(context);
        call_routine(in.a, object);
        leave(context);
        b_.CreateBr(done);
        b_.SetInsertPoint(done);
        return;
      }
      case Op::List: {
        const ListOps* ops = in.type->list_ops;
        const std::uint64_t stride = element_of(in).size;
        Value* data = nullptr;
        Value* n;
        if (ops->data) {
          data = load(ptr_, slot, 0);  // std::vector<T>: begin, end, end of storage
          n = b_.CreateExactUDiv(b_.CreatePtrDiff(i8_, load(ptr_, slot, 8), data), c64(stride));
        } else {
          n = call_host(reinterpret_cast<const void*>(ops->size),
                        FunctionType::get(i64_, {ptr_}, false), {slot});
        }
        // A list is a level of nesting, empty or not.
        enter(context);
        ensure(c64(wire::kMaxVarintBytes + 1));
        put_varuint(n);
        BasicBlock* some = block("list.some");
        BasicBlock* done = block("list.done");
        b_.CreateCondBr(b_.CreateICmpEQ(n, c64(0)), done, some);
        b_.SetInsertPoint(some);
        put_byte(in.enc);
        if (!data) {
          checked_span(b_.CreateCall(
              helper("jitser_binary_write_bool_list", span_, {ptr_, ptr_, ptr_, ptr_, ptr_, i64_}),
              {context, cursor(), b_.CreateLoad(ptr_, limit_), slot, const_ptr(ops), n}));
        } else {
          each_of(data, stride, n, [&](Value* element) { call_routine(in.a, element); });
        }
        b_.CreateBr(done);
        b_.SetInsertPoint(done);
        leave(context);
        return;
      }
      case Op::Array:
        elements(context, slot, element_of(in).size, c64(in.count),
                 [&](Value* element) { call_routine(in.a, element); });
        return;
      case Op::Dynamic:
        checked_span(
            b_.CreateCall(helper("jitser_binary_write_value", span_, {ptr_, ptr_, ptr_, ptr_}),
                          {context, cursor(), b_.CreateLoad(ptr_, limit_), slot}));
        return;
      case Op::Map: {
        Function* write_map = helper("jitser_binary_write_map", span_,
                                     {ptr_, ptr_, ptr_, ptr_, ptr_, i8_, ptr_, ptr_});
        checked_span(b_.CreateCall(write_map, {context, cursor(), b_.CreateLoad(ptr_, limit_), slot,
                                               const_ptr(in.type->map_ops), c8(in.enc),
                                               routines_[in.a], routines_[in.b]}));
        return;
      }
      default: return;
    }
  }

  // Most bytes a string adds beyond its size: its length varint, and the 16 bytes a short copy
  // may touch.
  static constexpr std::uint64_t kStringSlack = wire::kMaxVarintBytes + 16;

  // A String or Bytes value: varuint size, then the bytes. With `check`, reserves room first;
  // without, the caller has reserved size + kStringSlack.
  void bytes(const Instr& in, Value* slot, bool check) {
    // std::string starts with its data pointer and size; std::vector with begin and end.
    Value* data = load(ptr_, slot, 0);
    Value* n = in.op == Op::String ? load(i64_, slot, 8)
                                   : b_.CreatePtrDiff(i8_, load(ptr_, slot, 8), data);
    if (check) ensure(b_.CreateAdd(n, c64(kStringSlack)));
    put_varuint(n);
    if (in.op == Op::String) {
      // A string's storage always holds 16 bytes (its local buffer, or a heap block of more
      // than 15 chars and a terminator), so up to 16 bytes copy as one 16-byte move; up to 32
      // as the first and the last 16, which overlap; up to 64 as the first and the last 32.
      // Longer ones call memcpy.
      BasicBlock* one = block("str.one");
      BasicBlock* not_one = block("str.longer");
      BasicBlock* ends16 = block("str.ends16");
      BasicBlock* not_two = block("str.longer32");
      BasicBlock* ends32 = block("str.ends32");
      BasicBlock* call = block("str.memcpy");
      BasicBlock* done = block("str.done");
      b_.CreateCondBr(b_.CreateICmpULE(n, c64(16)), one, not_one);
      b_.SetInsertPoint(one);
      store(load(llvm::FixedVectorType::get(i8_, 16), data, 0), cursor(), 0);
      b_.CreateBr(done);
      b_.SetInsertPoint(not_one);
      b_.CreateCondBr(b_.CreateICmpULE(n, c64(32)), ends16, not_two);
      b_.SetInsertPoint(ends16);
      copy_ends(data, n, 16);
      b_.CreateBr(done);
      b_.SetInsertPoint(not_two);
      b_.CreateCondBr(b_.CreateICmpULE(n, c64(64)), ends32, call);
      b_.SetInsertPoint(ends32);
      copy_ends(data, n, 32);
      b_.CreateBr(done);
      b_.SetInsertPoint(call);
      b_.CreateMemCpy(cursor(), llvm::MaybeAlign(1), data, llvm::MaybeAlign(1), n);
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
    } else {
      b_.CreateMemCpy(cursor(), llvm::MaybeAlign(1), data, llvm::MaybeAlign(1), n);
    }
    b_.CreateStore(b_.CreateInBoundsGEP(i8_, cursor(), n), cursor_);
  }

  // Copies n bytes, width <= n <= 2 * width, to the cursor as two moves of `width` bytes that
  // may overlap: the first and the last.
  void copy_ends(Value* data, Value* n, unsigned width) {
    Type* v = llvm::FixedVectorType::get(i8_, width);
    Value* tail = b_.CreateSub(n, c64(width));
    Value* head_bytes = load(v, data, 0);
    Value* tail_bytes =
        b_.CreateAlignedLoad(v, b_.CreateInBoundsGEP(i8_, data, tail), llvm::MaybeAlign(1));
    store(head_bytes, cursor(), 0);
    b_.CreateAlignedStore(tail_bytes, b_.CreateInBoundsGEP(i8_, cursor(), tail),
                          llvm::MaybeAlign(1));
  }

  // Writes kNull for a null `value`; otherwise `present` and the value through routine r.
  void flag_or_value(Value* context, Value* value, std::uint32_t r, std::uint8_t present) {
    BasicBlock* null = block("null");
    BasicBlock* some = block("some");
    BasicBlock* done = block("done");
    b_.CreateCondBr(b_.CreateIsNull(value), null, some);
    b_.SetInsertPoint(null);
    put_byte(wire::kNull);
    b_.CreateBr(done);
    b_.SetInsertPoint(some);
    put_byte(present);
    enter(context);
    call_routine(r, value);
    leave(context);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }
};

// ---------------------------------------------------------------------------------------------
// Deserializer: const uint8_t* routine(ReadContext*, p, end, base*); null on failure

class ReadEmitter : public EmitterBase {
 public:
  ReadEmitter(const Plan& plan, const RunOptions& options, llvm::Module& module,
              std::vector<HostAddress>& hosts)
      : EmitterBase(plan, options, module, hosts),
        fn_type_(FunctionType::get(ptr_, {ptr_, ptr_, ptr_, ptr_}, false)) {}

  void emit(const std::string& name) {
    declare(fn_type_, name);
    for (std::uint32_t r = 0; r < plan_.routines.size(); ++r) routine(r);
  }

 private:
  void routine(std::uint32_t r) {
    fn_ = routines_[r];
    Value* context = fn_->getArg(0);
    end_ = fn_->getArg(2);
    Value* base = fn_->getArg(3);
    b_.SetInsertPoint(block("entry"));
    p_ = b_.CreateAlloca(ptr_, nullptr, "p");
    scratch_ = b_.CreateAlloca(i64_, nullptr, "scratch");
    fill_ = b_.CreateAlloca(ptr_, nullptr, "fill");
    b_.CreateStore(fn_->getArg(1), p_);
    BasicBlock* body = b_.GetInsertBlock();
    fail_ = block("fail");
    b_.SetInsertPoint(fail_);
    b_.CreateRet(llvm::ConstantPointerNull::get(ptr_));
    b_.SetInsertPoint(body);

    const Routine& routine = plan_.routines[r];
    for (std::uint32_t i = routine.begin; i < routine.end;) {
      // A run of fixed-size reads shares one bounds check.
      std::uint32_t j = i;
      std::uint64_t size = 0;
      while (j < routine.end && fixed_size(plan_.code[j]) > 0) size += fixed_size(plan_.code[j++]);
      if (j > i) {
        need(c64(size));
        for (; i < j; ++i) fixed(plan_.code[i], base);
      } else {
        variable(context, plan_.code[i++], base);
      }
    }
    b_.CreateRet(pos());
  }

  static std::uint64_t fixed_size(const Instr& in) {
    switch (in.op) {
      case Op::Bool: return 1;
      case Op::Int:
      case Op::UInt:
      case Op::Float: return in.enc == wire::kFixed ? in.width : 0;
      default: return 0;
    }
  }

  Value* pos() { return b_.CreateLoad(ptr_, p_); }
  void advance(std::uint64_t n) { b_.CreateStore(at(pos(), n), p_); }
  Value* remaining() { return b_.CreatePtrDiff(i8_, end_, pos()); }
  void need(Value* n) { fail_if(b_.CreateICmpULT(remaining(), n)); }

  Value* get_byte() {
    need(c64(1));
    Value* v = load(i8_, pos(), 0);
    advance(1);
    return v;
  }

  // A LEB128 value: one byte inline, anything longer through a decoder function of the module
  // (one per width), which LLVM may inline where it pays.
  Value* get_varuint(unsigned bits) {
    BasicBlock* one = block("varint.one");
    BasicBlock* check = block("varint.check");
    BasicBlock* longer = block("varint.long");
    BasicBlock* done = block("varint.done");
    Value* p = pos();
    b_.CreateCondBr(b_.CreateICmpULT(p, end_), check, longer);
    b_.SetInsertPoint(check);
    Value* first = load(i8_, p, 0);
    b_.CreateCondBr(b_.CreateICmpSGE(first, c8(0)), one, longer);
    b_.SetInsertPoint(one);
    Value* short_value = b_.CreateZExt(first, i64_);
    b_.CreateStore(at(p, 1), p_);
    b_.CreateBr(done);
    b_.SetInsertPoint(longer);
    Value* result = b_.CreateCall(varuint_decoder(bits), {p, end_});
    Value* next = b_.CreateExtractValue(result, 0);
    fail_if(b_.CreateIsNull(next));
    b_.CreateStore(next, p_);
    Value* long_value = b_.CreateExtractValue(result, 1);
    BasicBlock* long_end = b_.GetInsertBlock();
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    llvm::PHINode* v = b_.CreatePHI(i64_, 2);
    v->addIncoming(short_value, one);
    v->addIncoming(long_value, long_end);
    return v;
  }

  // i1 assign(std::string* s, p, end, n): checks n input bytes are UTF-8 and assigns them. A
  // string of up to 15 ASCII bytes, with 16 input bytes readable, is copied as two words
  // (store_short_string). Anything else goes to the host helper.
  Function* string_assigner() {
    const char* name = "jitser.assign_string";
    if (Function* f = module_.getFunction(name)) return f;
    Function* f =
        Function::Create(FunctionType::get(Type::getInt1Ty(ctx_), {ptr_, ptr_, ptr_, i64_}, false),
                         Function::InternalLinkage, name, module_);
    f->setUWTableKind(llvm::UWTableKind::Default);
    Value* s = f->getArg(0);
    Value* p = f->getArg(1);
    Value* end = f->getArg(2);
    Value* n = f->getArg(3);
    IRBuilder<> b(ctx_);
    BasicBlock* entry = BasicBlock::Create(ctx_, "entry", f);
    BasicBlock* words = BasicBlock::Create(ctx_, "words", f);
    BasicBlock* copy = BasicBlock::Create(ctx_, "copy", f);
    BasicBlock* host = BasicBlock::Create(ctx_, "host", f);
    b.SetInsertPoint(entry);
    Value* short_enough = b.CreateICmpULE(n, c64(15));
    Value* readable = b.CreateICmpUGE(b.CreatePtrDiff(i8_, end, p), c64(16));
    b.CreateCondBr(b.CreateAnd(short_enough, readable), words, host);
    b.SetInsertPoint(words);
    Value* lo = b.CreateAlignedLoad(i64_, p, llvm::MaybeAlign(1));
    Value* hi =
        b.CreateAlignedLoad(i64_, b.CreateConstInBoundsGEP1_64(i8_, p, 8), llvm::MaybeAlign(1));
    // Only the first n bytes count: masks of n bytes across the two words.
    Value* bits = b.CreateShl(n, c64(3));
    Value* lo_mask = b.CreateSelect(b.CreateICmpUGE(n, c64(8)), c64(~0ull),
                                    b.CreateSub(b.CreateShl(c64(1), bits), c64(1)));
    Value* hi_mask = b.CreateSelect(
        b.CreateICmpUGT(n, c64(8)),
        b.CreateSub(b.CreateShl(c64(1), b.CreateSub(bits, c64(64))), c64(1)), c64(0));
    Value* high = b.CreateAnd(b.CreateOr(b.CreateAnd(lo, lo_mask), b.CreateAnd(hi, hi_mask)),
                              c64(0x8080808080808080ull));
    b.CreateCondBr(b.CreateICmpEQ(high, c64(0)), copy, host);
    b.SetInsertPoint(copy);
    store_short_string(b, s, lo, hi, n);
    b.CreateRet(llvm::ConstantInt::getTrue(ctx_));
    b.SetInsertPoint(host);
    b.CreateRet(b.CreateCall(
        helper("jitser_binary_assign_string", Type::getInt1Ty(ctx_), {ptr_, ptr_, i64_}),
        {s, p, n}));
    return f;
  }

  // {next, value} decode(p, end): wire::get_varuint in IR, unrolled to the width's byte count;
  // next is null on failure.
  Function* varuint_decoder(unsigned bits) {
    const std::string name = "jitser.varuint" + std::to_string(bits);
    if (Function* f = module_.getFunction(name)) return f;
    llvm::StructType* result = llvm::StructType::get(ctx_, {ptr_, i64_});
    Function* f = Function::Create(FunctionType::get(result, {ptr_, ptr_}, false),
                                   Function::InternalLinkage, name, module_);
    IRBuilder<> b(ctx_);
    BasicBlock* entry = BasicBlock::Create(ctx_, "entry", f);
    BasicBlock* bad = BasicBlock::Create(ctx_, "bad", f);
    b.SetInsertPoint(bad);
    b.CreateRet(llvm::ConstantAggregateZero::get(result));
    b.SetInsertPoint(entry);
    Value* p = f->getArg(0);
    Value* end = f->getArg(1);
    Value* v = c64(0);
    const unsigned max_bytes = (bits + 6) / 7;
    for (unsigned i = 0; i < max_bytes; ++i) {
      Value* at_i = i ? b.CreateConstInBoundsGEP1_64(i8_, p, i) : p;
      BasicBlock* have = BasicBlock::Create(ctx_, "byte", f);
      b.CreateCondBr(b.CreateICmpULT(at_i, end), have, bad);
      b.SetInsertPoint(have);
      Value* byte = b.CreateLoad(i8_, at_i);
      if (i == max_bytes - 1) {
        // The last byte may not continue, nor carry bits past the width.
        const unsigned spare = 7 * max_bytes - bits;
        Value* too_big = b.CreateICmpUGE(byte, c8(static_cast<std::uint8_t>(1u << (7 - spare))));
        BasicBlock* fits = BasicBlock::Create(ctx_, "fits", f);
        b.CreateCondBr(too_big, bad, fits);
        b.SetInsertPoint(fits);
      }
      v = b.CreateOr(v, b.CreateShl(b.CreateZExt(b.CreateAnd(byte, c8(0x7F)), i64_), c64(7 * i)));
      BasicBlock* last = BasicBlock::Create(ctx_, "last", f);
      BasicBlock* more = BasicBlock::Create(ctx_, "more", f);
      b.CreateCondBr(b.CreateICmpSLT(byte, c8(0)), more, last);
      b.SetInsertPoint(last);
      if (i > 0) {
        // A redundant zero final byte would give a value a second encoding.
        BasicBlock* minimal = BasicBlock::Create(ctx_, "minimal", f);
        b.CreateCondBr(b.CreateICmpEQ(byte, c8(0)), bad, minimal);
        b.SetInsertPoint(minimal);
      }
      Value* out = llvm::UndefValue::get(result);
      out = b.CreateInsertValue(out, b.CreateConstInBoundsGEP1_64(i8_, p, i + 1), 0);
      b.CreateRet(b.CreateInsertValue(out, v, 1));
      b.SetInsertPoint(more);
    }
    b.CreateBr(bad);  // unreachable: the last byte either ends the value or fails above
    return f;
  }

  Value* unzigzag(Value* v) {
    return b_.CreateXor(b_.CreateLShr(v, c64(1)), b_.CreateNeg(b_.CreateAnd(v, c64(1))));
  }

  // A count of items of at least `min_bytes` each, bounded by the input left, as the interpreter
  // checks it before allocating.
  Value* get_count(std::uint64_t min_bytes) {
    Value* n = get_varuint(64);
    Value* limit = min_bytes ? b_.CreateUDiv(remaining(), c64(min_bytes))
                             : static_cast<Value*>(c64(wire::kMaxEmptyElements));
    fail_if(b_.CreateICmpUGT(n, limit));
    return n;
  }

  // Compact int64, refusing a long form that holds a short value: one encoding per value.
  void get_compact(Value* slot) {
    need(c64(4));
    Value* first = load(i8_, pos(), 0);
    BasicBlock* small = block("sli.small");
    BasicBlock* large = block("sli.large");
    BasicBlock* done = block("sli.done");
    b_.CreateCondBr(b_.CreateICmpEQ(b_.CreateAnd(first, c8(1)), c8(0)), small, large);
    b_.SetInsertPoint(small);
    Value* raw = load(i32_, pos(), 0);
    store(b_.CreateSExt(b_.CreateAShr(raw, llvm::ConstantInt::get(i32_, 1)), i64_), slot, 0);
    advance(4);
    b_.CreateBr(done);
    b_.SetInsertPoint(large);
    fail_if(b_.CreateICmpNE(first, c8(0x01)));
    need(c64(9));
    Value* v = load(i64_, pos(), 1);
    // The long form of a value that fits the short one is refused: one encoding per value.
    fail_if(b_.CreateICmpULT(b_.CreateAdd(v, c64(1u << 30)), c64(1ull << 31)));
    store(v, slot, 0);
    advance(9);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  void fixed(const Instr& in, Value* base) {
    if (in.op == Op::Bool) {
      Value* v = load(i8_, pos(), 0);
      fail_if(b_.CreateICmpUGT(v, c8(1)));
      store(v, base, in.offset);
      advance(1);
      return;
    }
    store(load(int_type(in.width), pos(), 0), base, in.offset);
    advance(in.width);
  }

  void variable(Value* context, const Instr& in, Value* base) {
    Value* slot = at(base, in.offset);
    switch (in.op) {
      case Op::Frame: {
        need(c64(2));
        fail_if(b_.CreateICmpNE(load(i8_, pos(), 0), c8(wire::kMagic)));
        Value* flags = load(i8_, pos(), 1);
        advance(2);
        const std::uint8_t with = wire::kVersion | wire::kHasFingerprint;
        BasicBlock* has = block("fingerprint");
        BasicBlock* done = block("header.done");
        if (options_.require_fingerprint) {
          fail_if(b_.CreateICmpNE(flags, c8(with)));
          b_.CreateBr(has);
        } else {
          BasicBlock* other = block("header.plain");
          b_.CreateCondBr(b_.CreateICmpEQ(flags, c8(with)), has, other);
          b_.SetInsertPoint(other);
          fail_if(b_.CreateICmpNE(flags, c8(wire::kVersion)));
          b_.CreateBr(done);
        }
        b_.SetInsertPoint(has);
        need(c64(8));
        fail_if(b_.CreateICmpNE(load(i64_, pos(), 0), c64(plan_.fingerprint)));
        advance(8);
        b_.CreateBr(done);
        b_.SetInsertPoint(done);
        return;
      }
      case Op::Int:
      case Op::UInt:
        if (in.enc == wire::kVarint) {
          store(b_.CreateTrunc(get_varuint(in.width * 8u), int_type(in.width)), slot, 0);
        } else if (in.enc == wire::kZigzag) {
          store(b_.CreateTrunc(unzigzag(get_varuint(in.width * 8u)), int_type(in.width)), slot, 0);
        } else {
          get_compact(slot);
        }
        return;
      case Op::String: {
        Value* n = get_count(1);
        fail_if(b_.CreateNot(b_.CreateCall(string_assigner(), {slot, pos(), end_, n})));
        b_.CreateStore(b_.CreateInBoundsGEP(i8_, pos(), n), p_);
        return;
      }
      case Op::Bytes: {
        Value* n = get_count(1);
        b_.CreateCall(
            helper("jitser_binary_assign_bytes", Type::getVoidTy(ctx_), {ptr_, ptr_, ptr_, i64_}),
            {slot, const_ptr(in.type->list_ops), pos(), n});
        b_.CreateStore(b_.CreateInBoundsGEP(i8_, pos(), n), p_);
        return;
      }
      case Op::Enum: {
        Value* v = unzigzag(get_varuint(64));
        declared(v, *in.type);
        store(b_.CreateTrunc(v, int_type(in.width)), slot, 0);
        return;
      }
      case Op::Decimal: {
        Value* unscaled = unzigzag(get_varuint(64));
        Value* scale = unzigzag(get_varuint(64));
        Value* fits = b_.CreateICmpEQ(b_.CreateSExt(b_.CreateTrunc(scale, i32_), i64_), scale);
        fail_if(b_.CreateNot(fits));
        store(unscaled, slot, offsetof(Decimal, unscaled));
        store(b_.CreateTrunc(scale, i32_), slot, offsetof(Decimal, scale));
        return;
      }
      case Op::Time: {
        Value* next = b_.CreateCall(
            helper("jitser_binary_read_time", ptr_, {ptr_, ptr_, i32_, ptr_}),
            {pos(), end_, llvm::ConstantInt::get(i32_, static_cast<std::uint32_t>(in.type->unit)),
             scratch_});
        fail_if(b_.CreateIsNull(next));
        b_.CreateStore(next, p_);
        store(b_.CreateLoad(i64_, scratch_), slot, 0);
        return;
      }
      case Op::Struct:
        enter(context);
        call_routine(context, in.a, slot);
        leave(context);
        return;
      case Op::Nullable: {
        const NullableOps* ops = in.type->nullable_ops;
        Value* flag = get_byte();
        BasicBlock* null = block("null");
        BasicBlock* some = block("some");
        BasicBlock* done = block("done");
        llvm::SwitchInst* sw = b_.CreateSwitch(flag, fail_, 2);
        sw->addCase(c8(wire::kNull), null);
        sw->addCase(c8(wire::kNotNull), some);
        b_.SetInsertPoint(null);
        call_host(reinterpret_cast<const void*>(ops->reset),
                  FunctionType::get(Type::getVoidTy(ctx_), {ptr_}, false), {slot});
        b_.CreateBr(done);
        b_.SetInsertPoint(some);
        Value* value = call_host(reinterpret_cast<const void*>(ops->fill),
                                 FunctionType::get(ptr_, {ptr_}, false), {slot});
        enter(context);
        call_routine(context, in.a, value);
        leave(context);
        b_.CreateBr(done);
        b_.SetInsertPoint(done);
        return;
      }
      case Op::Shared: {
        Value* next = b_.CreateCall(
            helper("jitser_binary_read_shared", ptr_, {ptr_, ptr_, ptr_, ptr_, ptr_, ptr_}),
            {context, pos(), end_, slot, const_ptr(in.type), fill_});
        fail_if(b_.CreateIsNull(next));
        b_.CreateStore(next, p_);
        Value* object = b_.CreateLoad(ptr_, fill_);
        BasicBlock* fresh = block("shared.new");
        BasicBlock* done = block("shared.done");
        b_.CreateCondBr(b_.CreateIsNull(object), done, fresh);
        b_.SetInsertPoint(fresh);
        enter(context);
        call_routine(context, in.a, object);
        leave(context);
        b_.CreateBr(done);
        b_.SetInsertPoint(done);
        return;
      }
      case Op::List: {
        const ListOps* ops = in.type->list_ops;
        FunctionType* resize_type = FunctionType::get(Type::getVoidTy(ctx_), {ptr_, i64_}, false);
        enter(context);  // a level of nesting, empty or not
        Value* n = get_count(plan_.routines[in.a].min_wire_bytes);
        BasicBlock* none = block("list.empty");
        BasicBlock* some = block("list.some");
        BasicBlock* done = block("list.done");
        b_.CreateCondBr(b_.CreateICmpEQ(n, c64(0)), none, some);
        b_.SetInsertPoint(none);
        call_host(reinterpret_cast<const void*>(ops->resize), resize_type, {slot, c64(0)});
        b_.CreateBr(done);
        b_.SetInsertPoint(some);
        fail_if(b_.CreateICmpNE(get_byte(), c8(in.enc)));
        call_host(reinterpret_cast<const void*>(ops->resize), resize_type, {slot, n});
        if (!ops->data) {
          Value* next = b_.CreateCall(
              helper("jitser_binary_read_bool_list", ptr_, {ptr_, ptr_, ptr_, ptr_, i64_}),
              {pos(), end_, slot, const_ptr(ops), n});
          fail_if(b_.CreateIsNull(next));
          b_.CreateStore(next, p_);
        } else {
          each_of(load(ptr_, slot, 0), element_of(in).size, n,
                  [&](Value* element) { call_routine(context, in.a, element); });
        }
        b_.CreateBr(done);
        b_.SetInsertPoint(done);
        leave(context);
        return;
      }
      case Op::Array:
        elements(context, slot, element_of(in).size, c64(in.count),
                 [&](Value* element) { call_routine(context, in.a, element); });
        return;
      case Op::Dynamic: {
        Value* next =
            b_.CreateCall(helper("jitser_binary_read_value", ptr_, {ptr_, ptr_, ptr_, ptr_}),
                          {context, pos(), end_, slot});
        fail_if(b_.CreateIsNull(next));
        b_.CreateStore(next, p_);
        return;
      }
      case Op::Map: {
        const std::uint32_t min_entry =
            plan_.routines[in.a].min_wire_bytes + plan_.routines[in.b].min_wire_bytes;
        Function* read_map = helper("jitser_binary_read_map", ptr_,
                                    {ptr_, ptr_, ptr_, ptr_, ptr_, i8_, i32_, ptr_, ptr_});
        Value* next = b_.CreateCall(
            read_map, {context, pos(), end_, slot, const_ptr(in.type), c8(in.enc),
                       llvm::ConstantInt::get(i32_, min_entry), routines_[in.a], routines_[in.b]});
        fail_if(b_.CreateIsNull(next));
        b_.CreateStore(next, p_);
        return;
      }
      default: return;
    }
  }

  void call_routine(Value* context, std::uint32_t r, Value* object) {
    Value* next = b_.CreateCall(fn_type_, routines_[r], {context, pos(), end_, object});
    fail_if(b_.CreateIsNull(next));
    b_.CreateStore(next, p_);
  }

  FunctionType* fn_type_;
  Value* end_ = nullptr;
  Value* p_ = nullptr;
  Value* scratch_ = nullptr;
  Value* fill_ = nullptr;
};

}  // namespace

std::string entry_name(const Plan& plan) {
  return std::string("jitser.") +
         (plan.direction == Direction::Serialize ? "serialize." : "deserialize.") +
         format_name(plan.format) + "." + symbol_text(display_name(*plan.root_type));
}

std::vector<HostAddress> emit_plan(const Plan& plan, const RunOptions& options,
                                   llvm::Module& module) {
  std::vector<HostAddress> hosts;
  if (plan.format == Format::Json) {
    emit_json_plan(plan, options, module, entry_name(plan), hosts);
  } else if (plan.direction == Direction::Serialize) {
    WriteEmitter(plan, options, module, hosts).emit(entry_name(plan));
  } else {
    ReadEmitter(plan, options, module, hosts).emit(entry_name(plan));
  }
  return hosts;
}

}  // namespace jitser::jit
