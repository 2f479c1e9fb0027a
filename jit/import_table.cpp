#include "jit/import_table.h"

#include <llvm/ExecutionEngine/JITLink/JITLink.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ReplaceConstant.h>

#include <unordered_map>
#include <vector>

namespace jitser::jit {
namespace {

constexpr const char* kTableSection = ".rodata.jitser.imports";

bool imported(const llvm::GlobalValue& g) {
  if (!g.isDeclaration() || g.use_empty()) return false;
  const auto* f = llvm::dyn_cast<llvm::Function>(&g);
  return !f || !f->isIntrinsic();
}

// Where a load for the use `u` goes: before its instruction, or for a phi, at the end of the
// block the value comes from.
llvm::Instruction* load_point(const llvm::Use& u) {
  auto* user = llvm::cast<llvm::Instruction>(u.getUser());
  if (auto* phi = llvm::dyn_cast<llvm::PHINode>(user)) {
    return phi->getIncomingBlock(u)->getTerminator();
  }
  return user;
}

}  // namespace

void route_imports_through_table(llvm::Module& module) {
  std::vector<llvm::Constant*> imports;
  for (llvm::GlobalValue& g : module.global_values()) {
    if (imported(g)) imports.push_back(&g);
  }
  if (imports.empty()) return;
  // A constant expression of an import (an address inside a host's data) used by an
  // instruction becomes an instruction, whose operand is then the import itself.
  llvm::convertUsersOfConstantsToInstructions(imports);

  llvm::LLVMContext& context = module.getContext();
  llvm::PointerType* ptr = llvm::PointerType::getUnqual(context);
  auto* type = llvm::ArrayType::get(ptr, imports.size());
  auto* table = new llvm::GlobalVariable(module, type, true, llvm::GlobalValue::InternalLinkage,
                                         llvm::ConstantArray::get(type, imports), "jitser.imports");
  table->setSection(kTableSection);
  llvm::MDNode* invariant = llvm::MDNode::get(context, {});

  for (std::size_t i = 0; i < imports.size(); ++i) {
    std::vector<llvm::Use*> uses;
    for (llvm::Use& u : imports[i]->uses()) {
      if (llvm::isa<llvm::Instruction>(u.getUser())) uses.push_back(&u);
    }
    // A phi may take the import from one block along several edges, and must take the same
    // value along each: one load per block it comes from.
    std::unordered_map<llvm::Instruction*, llvm::LoadInst*> loaded;
    for (llvm::Use* u : uses) {
      llvm::Instruction* at = load_point(*u);
      const bool phi = llvm::isa<llvm::PHINode>(u->getUser());
      llvm::LoadInst*& address = loaded[phi ? at : nullptr];
      if (!phi || !address) {
        llvm::IRBuilder<> b(at);
        address = b.CreateLoad(ptr, b.CreateConstInBoundsGEP2_64(type, table, 0, i), "import");
        address->setMetadata(llvm::LLVMContext::MD_invariant_load, invariant);
      }
      u->set(address);
    }
  }
}

void ImportTableSealer::modifyPassConfig(llvm::orc::MaterializationResponsibility&,
                                         llvm::jitlink::LinkGraph&,
                                         llvm::jitlink::PassConfiguration& config) {
  // Before memory is allocated, which groups sections by their protection.
  config.PostPrunePasses.push_back([](llvm::jitlink::LinkGraph& graph) {
    if (llvm::jitlink::Section* table = graph.findSectionByName(kTableSection)) {
      table->setMemProt(llvm::orc::MemProt::Read);
    }
    return llvm::Error::success();
  });
}

}  // namespace jitser::jit
