// What the IR emitters of every format share: the module, common types, constants for host
// addresses, and the per-function scaffolding (a failure block, nesting depth, loops).
#pragma once

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include <jitser/type_desc.h>

#include "formats/format_table.h"
#include "formats/plan.h"
#include "jit/code_identity.h"
#include "jit/plan_to_ir.h"
#include "typeinfo/strings.h"

namespace jitser::jit::ir {

using llvm::BasicBlock;
using llvm::Function;
using llvm::FunctionType;
using llvm::IRBuilder;
using llvm::Type;
using llvm::Value;

inline bool enum_unsigned(const TypeDesc& e) {
  return e.underlying == Kind::UInt8 || e.underlying == Kind::UInt16 ||
         e.underlying == Kind::UInt32 || e.underlying == Kind::UInt64;
}

inline const TypeDesc& element_of(const Instr& in) { return in.type->element->resolved(); }

// Turns a type name into something a symbol can carry and a profiler can show.
inline std::string symbol_text(const std::string& name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return out;
}

// What both directions share: the module, the common types, constants for host addresses, and
// the per-function scaffolding (a failure block, nesting depth).
class EmitterBase {
 protected:
  EmitterBase(const Plan& plan, const RunOptions& options, llvm::Module& module,
              std::vector<HostAddress>& hosts)
      : plan_(plan),
        format_(format_entry(plan.format)),
        options_(options),
        module_(module),
        hosts_(hosts),
        ctx_(module.getContext()),
        b_(ctx_),
        ptr_(llvm::PointerType::get(ctx_, 0)),
        i8_(Type::getInt8Ty(ctx_)),
        i32_(Type::getInt32Ty(ctx_)),
        i64_(Type::getInt64Ty(ctx_)),
        track_depth_(!depth_bounded(plan, options.max_depth)) {
    const std::vector<const void*> candidates = host_candidates(plan);
    for (std::uint32_t i = 0; i < candidates.size(); ++i) host_index_.try_emplace(candidates[i], i);
  }

  // The routines routine r calls: for nested structs, held values, elements, map keys and
  // values.
  static std::vector<std::uint32_t> callees(const Plan& plan, std::uint32_t r) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = plan.routines[r].begin; i < plan.routines[r].end; ++i) {
      const Instr& in = plan.code[i];
      switch (in.op) {
        case Op::Struct:
        case Op::Nullable:
        case Op::Shared:
        case Op::List:
        case Op::Array: out.push_back(in.a); break;
        case Op::Map:
          out.push_back(in.a);
          out.push_back(in.b);
          break;
        default: break;
      }
    }
    return out;
  }

  // True when no input can nest deeper than the limit: the routines call each other without a
  // cycle and the deepest chain of descents from the root stays within max_depth. Then the
  // depth counter can never trip, in either tier, and compiled code leaves it out.
  static bool depth_bounded(const Plan& plan, std::uint32_t max_depth) {
    std::vector<int> state(plan.routines.size(), 0);  // 0 new, 1 on the path, 2 done
    std::vector<std::uint32_t> deepest(plan.routines.size(), 0);
    bool cyclic = false;
    auto visit = [&](auto& self, std::uint32_t r) -> std::uint32_t {
      if (state[r] == 1) cyclic = true;
      if (state[r] != 0) return deepest[r];
      state[r] = 1;
      std::uint32_t most = 0;
      for (std::uint32_t c : callees(plan, r)) most = std::max(most, 1 + self(self, c));
      for (std::uint32_t i = plan.routines[r].begin; i < plan.routines[r].end; ++i) {
        if (plan.code[i].op == Op::Dynamic) cyclic = true;  // a Value nests as deep as its data
      }
      state[r] = 2;
      return deepest[r] = most;
    };
    const std::uint32_t depth = visit(visit, plan.root);
    return !cyclic && depth <= max_depth;
  }

  // Which routines can reach themselves through the routines they call: the inliner leaves
  // calls of those as calls.
  static std::vector<bool> recursive_routines(const Plan& plan) {
    const std::size_t n = plan.routines.size();
    std::vector<bool> recursive(n, false);
    for (std::uint32_t r = 0; r < n; ++r) {
      std::vector<bool> seen(n, false);
      std::vector<std::uint32_t> todo = callees(plan, r);
      while (!todo.empty() && !recursive[r]) {
        const std::uint32_t next = todo.back();
        todo.pop_back();
        if (next == r) recursive[r] = true;
        if (seen[next]) continue;
        seen[next] = true;
        for (std::uint32_t c : callees(plan, next)) todo.push_back(c);
      }
    }
    return recursive;
  }

  Type* i1() { return Type::getInt1Ty(ctx_); }
  llvm::ConstantInt* c32(std::uint32_t v) { return llvm::ConstantInt::get(i32_, v); }

  // Allocas go in the entry block, where SROA can turn them into registers.
  Value* local(Type* type, const char* name, std::uint64_t align = 8) {
    IRBuilder<> entry(&fn_->getEntryBlock(), fn_->getEntryBlock().begin());
    llvm::AllocaInst* a = entry.CreateAlloca(type, nullptr, name);
    a->setAlignment(llvm::Align(align));
    return a;
  }

  // An exported entry of the emitter's own, beside the routines.
  Function* define_entry(FunctionType* type, const std::string& name) {
    Function* f = Function::Create(type, Function::ExternalLinkage, name, module_);
    f->setUWTableKind(llvm::UWTableKind::Default);  // helpers may throw std::bad_alloc
    return f;
  }

  // A host address the code refers to (a type descriptor, an ops table, a field): an external
  // symbol of the module, which the JIT binds to the address when it links the code. Compiled
  // code holds no address of this process, so its object file could be loaded by another.
  llvm::Constant* const_ptr(const void* address) {
    return module_.getOrInsertGlobal(host_name(address), i8_);
  }
  llvm::ConstantInt* c64(std::uint64_t v) { return llvm::ConstantInt::get(i64_, v); }
  llvm::ConstantInt* c8(std::uint8_t v) { return llvm::ConstantInt::get(i8_, v); }
  Type* int_type(unsigned bytes) { return Type::getIntNTy(ctx_, bytes * 8); }

  Value* at(Value* base, std::uint64_t offset) {
    return offset ? b_.CreateConstInBoundsGEP1_64(i8_, base, offset) : base;
  }
  // Where the standard layout of the string or vector `in` at `slot` begins: after its
  // allocator's state (typeinfo/strings.h).
  Value* std_layout(const Instr& in, Value* slot) {
    return at(slot, std_layout_offset(in.type->allocator));
  }
  Value* load(Type* type, Value* base, std::uint64_t offset) {
    return b_.CreateAlignedLoad(type, at(base, offset), llvm::MaybeAlign(1));
  }
  void store(Value* v, Value* base, std::uint64_t offset) {
    b_.CreateAlignedStore(v, at(base, offset), llvm::MaybeAlign(1));
  }

  BasicBlock* block(const char* name) { return BasicBlock::Create(ctx_, name, fn_); }
  // Continues in a new block when `fails` is true at run time.
  void fail_if(Value* fails) {
    BasicBlock* ok = block("ok");
    b_.CreateCondBr(fails, fail_, ok, unlikely());
    b_.SetInsertPoint(ok);
  }
  // Fails when two fields of one oneof of routine r's struct at `base` hold a value; both
  // directions check, with the rule the interpreter applies (formats/field_default.h).
  void check_oneofs(const Routine& routine, Value* base) {
    if (!routine.oneofs) return;
    fail_if(b_.CreateNot(b_.CreateCall(helper("jitser_rt_oneofs", i1(), {ptr_, ptr_}),
                                       {const_ptr(routine.type), base})));
  }
  llvm::MDNode* unlikely() { return llvm::MDBuilder(ctx_).createBranchWeights(1, 1 << 20); }

  // Nesting depth lives at offset 0 of the context, as the interpreter counts it.
  void enter(Value* context) {
    if (!track_depth_) return;
    Value* depth = b_.CreateAdd(b_.CreateLoad(i32_, context), llvm::ConstantInt::get(i32_, 1));
    b_.CreateStore(depth, context);
    fail_if(b_.CreateICmpUGT(depth, llvm::ConstantInt::get(i32_, options_.max_depth)));
  }
  void leave(Value* context) {
    if (!track_depth_) return;
    b_.CreateStore(b_.CreateSub(b_.CreateLoad(i32_, context), llvm::ConstantInt::get(i32_, 1)),
                   context);
  }

  // Emits `each(element)` for n elements `stride` bytes apart from `data`, as one level of
  // nesting, the way the interpreter counts a list.
  template <class Each>
  void elements(Value* context, Value* data, std::uint64_t stride, Value* n, Each each) {
    enter(context);
    each_of(data, stride, n, each);
    leave(context);
  }
  // The same within a level the caller counts.
  template <class Each>
  void each_of(Value* data, std::uint64_t stride, Value* n, Each each) {
    BasicBlock* head = b_.GetInsertBlock();
    BasicBlock* loop = block("each");
    BasicBlock* done = block("each.done");
    b_.CreateCondBr(b_.CreateICmpEQ(n, c64(0)), done, loop);
    b_.SetInsertPoint(loop);
    llvm::PHINode* i = b_.CreatePHI(i64_, 2);
    i->addIncoming(c64(0), head);
    each(b_.CreateInBoundsGEP(i8_, data, b_.CreateMul(i, c64(stride))));
    Value* next = b_.CreateAdd(i, c64(1));
    i->addIncoming(next, b_.GetInsertBlock());
    b_.CreateCondBr(b_.CreateICmpULT(next, n), loop, done);
    b_.SetInsertPoint(done);
  }

  // A switch on v over the enum's declared values, each once; any other value fails.
  // `each(d)` emits what value d does, in a block of its own.
  template <class Each>
  void switch_enum(Value* v, const TypeDesc& e, Each each) {
    BasicBlock* done = block("enum.done");
    llvm::SwitchInst* sw = b_.CreateSwitch(v, fail_, static_cast<unsigned>(e.values.size()));
    std::vector<std::int64_t> seen;
    for (const EnumValue& d : e.values) {
      if (std::find(seen.begin(), seen.end(), d.value) != seen.end()) continue;
      seen.push_back(d.value);
      BasicBlock* value = block("enum.value");
      sw->addCase(c64(static_cast<std::uint64_t>(d.value)), value);
      b_.SetInsertPoint(value);
      each(d);
      b_.CreateBr(done);
    }
    b_.SetInsertPoint(done);
  }
  // Fails unless v is one of the enum's declared values.
  void declared(Value* v, const TypeDesc& e) {
    switch_enum(v, e, [](const EnumValue&) {});
  }

  // A call of a host function (a container operation of the user's type), by symbol too.
  Value* call_host(const void* fn, FunctionType* type, llvm::ArrayRef<Value*> args) {
    return b_.CreateCall(module_.getOrInsertFunction(host_name(fn), type), args);
  }
  // An address is named by its place among the Plan's host candidates (jit/code_identity.h),
  // so that the same Plan names the same things alike in every process. One that is not a
  // candidate gets a name of its own, which keeps the code out of the code cache.
  std::string host_name(const void* address) {
    for (const HostAddress& h : hosts_) {
      if (h.address == address) return h.name;
    }
    const auto it = host_index_.find(address);
    const std::string name =
        module_.getName().str() + (it != host_index_.end()
                                       ? ".host." + std::to_string(it->second)
                                       : kUncachedHost + std::to_string(hosts_.size()));
    hosts_.push_back({name, address});
    return name;
  }
  Function* helper(const char* name, Type* result, llvm::ArrayRef<Type*> params) {
    return llvm::cast<Function>(
        module_.getOrInsertFunction(name, FunctionType::get(result, params, false)).getCallee());
  }

  // One function per routine, declared up front so routines can call each other in any order.
  // The root routine is exported as `prefix` unless the emitter adds an entry of its own.
  void declare(FunctionType* type, const std::string& prefix, bool export_root = true) {
    for (std::uint32_t r = 0; r < plan_.routines.size(); ++r) {
      const bool root = export_root && r == plan_.root;
      std::string name = root ? prefix
                              : prefix + "." + symbol_text(display_name(*plan_.routines[r].type)) +
                                    "." + std::to_string(r);
      Function* f = Function::Create(
          type, root ? Function::ExternalLinkage : Function::InternalLinkage, name, module_);
      f->setUWTableKind(llvm::UWTableKind::Default);  // helpers may throw std::bad_alloc
      // Routines are merged into the entry before simplification (jit/compiler.cpp); the
      // inliner stops at recursion on its own.
      if (!root) f->addFnAttr(llvm::Attribute::AlwaysInline);
      routines_.push_back(f);
    }
  }

  // The name of the format's function `name` of the kernel contract (formats/compiled_abi.h).
  std::string kernel(const char* name) const {
    return std::string("jitser_") + format_.name + "_" + name;
  }

  const Plan& plan_;
  const FormatEntry& format_;
  const RunOptions& options_;
  llvm::Module& module_;
  std::vector<HostAddress>& hosts_;
  std::unordered_map<const void*, std::uint32_t> host_index_;
  llvm::LLVMContext& ctx_;
  IRBuilder<> b_;
  llvm::PointerType* ptr_;
  llvm::IntegerType* i8_;
  llvm::IntegerType* i32_;
  llvm::IntegerType* i64_;
  const bool track_depth_;
  std::vector<Function*> routines_;
  Function* fn_ = nullptr;
  BasicBlock* fail_ = nullptr;
};

// What serializers of every format share: WriteSpan routine(WriteContext*, cursor, limit,
// const base*). The cursor and limit live in allocas (registers after SROA); a failed write
// returns a null cursor.
class WriterBase : public EmitterBase {
 protected:
  WriterBase(const Plan& plan, const RunOptions& options, llvm::Module& module,
             std::vector<HostAddress>& hosts)
      : EmitterBase(plan, options, module, hosts),
        span_(llvm::StructType::get(ctx_, {ptr_, ptr_})),
        fn_type_(FunctionType::get(span_, {ptr_, ptr_, ptr_, ptr_}, false)) {}

  // Starts emitting f: its cursor and limit, and its failure block.
  void begin(Function* f) {
    fn_ = f;
    b_.SetInsertPoint(block("entry"));
    cursor_ = b_.CreateAlloca(ptr_, nullptr, "cursor");
    limit_ = b_.CreateAlloca(ptr_, nullptr, "limit");
    b_.CreateStore(fn_->getArg(1), cursor_);
    b_.CreateStore(fn_->getArg(2), limit_);
    BasicBlock* body = b_.GetInsertBlock();
    fail_ = block("fail");
    b_.SetInsertPoint(fail_);
    b_.CreateRet(llvm::ConstantAggregateZero::get(span_));
    b_.SetInsertPoint(body);
  }
  // Returns the cursor and limit.
  void end() {
    Value* result = llvm::UndefValue::get(span_);
    result = b_.CreateInsertValue(result, cursor(), 0);
    result = b_.CreateInsertValue(result, b_.CreateLoad(ptr_, limit_), 1);
    b_.CreateRet(result);
  }

  Value* write_context() { return fn_->getArg(0); }
  Value* cursor() { return b_.CreateLoad(ptr_, cursor_); }
  void set_cursor(Value* p) { b_.CreateStore(p, cursor_); }
  void advance(std::uint64_t n) { set_cursor(at(cursor(), n)); }

  // Makes room for `need` more bytes, growing the buffer when there is not.
  void ensure(Value* need) {
    Value* room = b_.CreatePtrDiff(i8_, b_.CreateLoad(ptr_, limit_), cursor());
    BasicBlock* grow = block("grow");
    BasicBlock* done = block("room");
    b_.CreateCondBr(b_.CreateICmpULT(room, need), grow, done, unlikely());
    b_.SetInsertPoint(grow);
    take_span(b_.CreateCall(helper("jitser_rt_grow", span_, {ptr_, ptr_, i64_}),
                            {write_context(), cursor(), need}));
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  void take_span(Value* span) {
    set_cursor(b_.CreateExtractValue(span, 0));
    b_.CreateStore(b_.CreateExtractValue(span, 1), limit_);
  }
  // Calls a routine or helper that returns a WriteSpan; a null cursor is a failure.
  void checked_span(Value* span) {
    fail_if(b_.CreateIsNull(b_.CreateExtractValue(span, 0)));
    take_span(span);
  }
  void call_routine(std::uint32_t r, Value* object) {
    checked_span(b_.CreateCall(fn_type_, routines_[r],
                               {write_context(), cursor(), b_.CreateLoad(ptr_, limit_), object}));
  }

  llvm::StructType* span_;
  FunctionType* fn_type_;
  Value* cursor_ = nullptr;
  Value* limit_ = nullptr;
};

}  // namespace jitser::jit::ir

namespace jitser::jit {

/// Emits a serializing Plan of any format into `module`, its root routine exported as `entry`
/// (jit/write_emitter.cpp).
void emit_writer(const Plan& plan, const RunOptions& options, llvm::Module& module,
                 const std::string& entry, std::vector<HostAddress>& hosts);
/// Emits a deserializing Plan of any format into `module`, its entry exported as `entry`
/// (jit/read_emitter.cpp).
void emit_reader(const Plan& plan, const RunOptions& options, llvm::Module& module,
                 const std::string& entry, std::vector<HostAddress>& hosts);

}  // namespace jitser::jit
