#include "jit/host_bits.h"

#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Target/TargetMachine.h>

namespace jitser::jit {

bool has_fast_pext(const llvm::TargetMachine& machine) {
  if (!machine.getTargetTriple().isX86()) return false;
  const llvm::MCSubtargetInfo* target = machine.getMCSubtargetInfo();
  if (!target || !target->checkFeatures("+bmi2")) return false;
  const llvm::StringRef cpu = machine.getTargetCPU();
  return !(cpu.starts_with("bdver") || cpu == "znver1" || cpu == "znver2");
}

void define_host_bits(llvm::Module& module, const llvm::TargetMachine& machine) {
  const bool fast_pext = has_fast_pext(machine);
  if (llvm::GlobalVariable* flag = module.getGlobalVariable("jitser_host_fast_pext")) {
    flag->setInitializer(llvm::ConstantInt::get(flag->getValueType(), fast_pext ? 1 : 0));
    flag->setConstant(true);
    flag->setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  llvm::Function* pext = module.getFunction("jitser_host_pext");
  if (!pext || !pext->isDeclaration() || !fast_pext) return;
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "entry", pext));
  b.CreateRet(
      b.CreateIntrinsic(llvm::Intrinsic::x86_bmi_pext_64, {}, {pext->getArg(0), pext->getArg(1)}));
  pext->setLinkage(llvm::GlobalValue::InternalLinkage);
  pext->addFnAttr(llvm::Attribute::AlwaysInline);
}

}  // namespace jitser::jit
