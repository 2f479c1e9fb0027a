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
  if (plan.direction == Direction::Serialize) {
    emit_writer(plan, options, module, entry_name(plan), hosts);
  } else if (plan.format == Format::Json) {
    emit_json_plan(plan, options, module, entry_name(plan), hosts);
  } else {
    ReadEmitter(plan, options, module, hosts).emit(entry_name(plan));
  }
  return hosts;
}

}  // namespace jitser::jit
