#include "jit/compiler.h"

#include <llvm-c/Core.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h>
#include <llvm/ExecutionEngine/Orc/EPCEHFrameRegistrar.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SmallVectorMemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Instrumentation/AddressSanitizer.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <exception>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>

#include "formats/format_table.h"
#include "jit/code_cache.h"
#include "jit/code_identity.h"
#include "jit/code_memory.h"
#include "jit/fork_gate.h"
#include "jit/host_binder.h"
#include "jit/host_bits.h"
#include "jit/import_table.h"
#include "jit/perf_jitdump.h"
#include "jit/plan_to_ir.h"

namespace jitser::jit {
namespace {

Status llvm_failure(const std::string& what, llvm::Error error) {
  return Status(Errc::jit_failed, what + ": " + llvm::toString(std::move(error)));
}

// A host built with AddressSanitizer gets compiled code instrumented the same way, so memory
// errors in generated code are reported like errors in the host's own code. The module needs no
// constructor: the host's runtime is initialized already.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kHostHasAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kHostHasAsan = true;
#else
constexpr bool kHostHasAsan = false;
#endif
#else
constexpr bool kHostHasAsan = false;
#endif

// LLVM's target registry is process-wide and initialized once; everything else is per Compiler.
void initialize_llvm() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

llvm::Expected<llvm::orc::JITTargetMachineBuilder> host_machine() {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder) return builder.takeError();
  // Less, not Default: half the code generation time for no measured loss on the payloads.
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Less);
  // Without AVX-512BW, code generation skips X86 Domain Reassignment, which took a third of the
  // time of large readers; compiled code's few vector loops lose nothing by it.
  builder->getFeatures().AddFeature("avx512bw", false);
  builder->setRelocationModel(llvm::Reloc::PIC_);
  builder->setCodeModel(llvm::CodeModel::Small);
  return builder;
}

// A format's kernel bitcode (formats/format_table.h) as a module of `context`, loaded lazily:
// linking reads the bodies of the functions compiled code calls, not the whole kernel for
// every module. Refused when the kernel was built with another layout of the classes it
// shares with the library.
llvm::Expected<std::unique_ptr<llvm::Module>> read_kernel(const FormatKernel& kernel,
                                                          llvm::LLVMContext& context) {
  auto parsed = llvm::getLazyBitcodeModule(
      llvm::MemoryBufferRef(llvm::StringRef(reinterpret_cast<const char*>(kernel.bitcode.data()),
                                            kernel.bitcode.size()),
                            "kernel"),
      context);
  if (!parsed || !kernel.layout_symbol) return parsed;
  const llvm::GlobalVariable* layout = (*parsed)->getGlobalVariable(kernel.layout_symbol);
  const auto* value =
      layout ? llvm::dyn_cast<llvm::ConstantInt>(layout->getInitializer()) : nullptr;
  if (!value || value->getZExtValue() != kernel.layout) {
    return llvm::createStringError(
        "the kernel's bitcode lays out the classes it shares with this build of jitser "
        "differently");
  }
  return parsed;
}

std::string type_text(const llvm::Type& type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

// What compiled code may call of one format's kernel: each function its bitcode declares, by
// name, with its type as text, and whether first-tier code may call it, which it may when the
// kernel only declares it (a helper) or the library's table of the kernel's functions has it.
struct KernelCall {
  std::string type;
  bool native = false;
};
using KernelCalls = std::unordered_map<std::string, KernelCall>;

// The kernels' calls, read from their bitcode once per format, so that a first-tier compile
// checks its calls without reading the bitcode.
class KernelCatalog {
 public:
  Result<const KernelCalls*> calls(Format format) {
    std::lock_guard lock(mutex_);
    if (const auto known = formats_.find(format); known != formats_.end()) return &known->second;
    const FormatKernel& kernel = format_entry(format).kernel();
    llvm::LLVMContext context;
    auto parsed = read_kernel(kernel, context);
    if (!parsed) return llvm_failure("cannot read the kernel's bitcode", parsed.takeError());
    KernelCalls calls;
    for (const llvm::Function& f : **parsed) {
      const bool native = f.isDeclaration() ||
                          std::any_of(kernel.functions.begin(), kernel.functions.end(),
                                      [&](const HelperSymbol& h) { return f.getName() == h.name; });
      calls.emplace(f.getName().str(), KernelCall{type_text(*f.getFunctionType()), native});
    }
    return &formats_.emplace(format, std::move(calls)).first->second;
  }

 private:
  std::mutex mutex_;
  std::map<Format, KernelCalls> formats_;
};

// Compiled code declares what it calls by name and type: the kernel's functions, and the
// helpers, which the kernel declares with their C++ types (formats/kernel_calls.h). A call of
// any other, or with another type, would call it wrongly. Host symbols are the exception: they
// are the user's container operations, which the emitter types from their ops tables.
// First-tier code calls the kernel compiled into the library, which must define every
// function it calls.
Status check_calls(const llvm::Module& module, const KernelCalls& calls, const std::string& entry,
                   bool first) {
  const std::string host_prefix = entry + ".host.";
  for (const llvm::Function& declared : module) {
    if (!declared.isDeclaration() || declared.isIntrinsic() ||
        declared.getName().starts_with(host_prefix)) {
      continue;
    }
    const auto known = calls.find(declared.getName().str());
    if (known == calls.end()) {
      return Status(Errc::jit_failed, "the emitter calls " + declared.getName().str() +
                                          ", which the format's kernel does not declare");
    }
    if (known->second.type != type_text(*declared.getFunctionType())) {
      return Status(Errc::jit_failed, "the emitter calls " + declared.getName().str() +
                                          " with another signature than its kernel's");
    }
    if (first && !known->second.native) {
      return Status(Errc::jit_failed, "first-tier code calls " + declared.getName().str() +
                                          ", which the kernel's table of functions lacks");
    }
  }
  return Status();
}

// Links a format's kernel into an optimized module as private functions the pipeline inlines:
// a compiled reader and the parser code under the kernel's getters then optimize as one
// function, with the slots in registers rather than passed to calls, and a writer formats
// numbers and plain strings in line. Their target attributes go, so they compile for the host
// like the rest.
Status link_kernel(llvm::Module& module, const FormatKernel& kernel, const std::string& entry) {
  auto parsed = read_kernel(kernel, module.getContext());
  if (!parsed) return llvm_failure("cannot read the kernel's bitcode", parsed.takeError());
  (*parsed)->setDataLayout(module.getDataLayout());
  (*parsed)->setTargetTriple(module.getTargetTriple());
  for (llvm::Function& f : **parsed) {
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    f.removeFnAttr("tune-cpu");
  }
  if (llvm::Linker::linkModules(module, std::move(*parsed), llvm::Linker::LinkOnlyNeeded)) {
    return Status(Errc::jit_failed, "cannot link the kernel into " + entry);
  }
  for (llvm::Function& f : module) {
    if (f.isDeclaration() || f.getName() == entry) continue;
    f.setLinkage(llvm::GlobalValue::InternalLinkage);
    if (std::find(kernel.inlined.begin(), kernel.inlined.end(), f.getName()) !=
        kernel.inlined.end()) {
      f.addFnAttr(llvm::Attribute::AlwaysInline);
    }
  }
  for (llvm::GlobalVariable& g : module.globals()) {
    if (!g.isDeclaration()) g.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  return Status();
}

// What build() makes of a Plan: the IR as emitted, the optimized code, or first-tier code.
enum class Build : std::uint8_t { Emitted, Optimized, First };

// The name of a Plan's entry in code of a tier: the tiers' code lives side by side in the JIT.
std::string tier_entry(const Plan& plan, CodeTier tier) {
  return entry_name(plan) + (tier == CodeTier::First ? ".first" : "");
}

// Runs a textual pass pipeline over the module, which may be empty, with AddressSanitizer's
// after it when the host has it.
Status run_pipeline(llvm::Module& module, llvm::TargetMachine& machine, const char* text) {
  if (!*text && !kHostHasAsan) return Status();
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder passes(&machine);
  passes.registerModuleAnalyses(mam);
  passes.registerCGSCCAnalyses(cgam);
  passes.registerFunctionAnalyses(fam);
  passes.registerLoopAnalyses(lam);
  passes.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager pipeline;
  if (*text) {
    if (llvm::Error e = passes.parsePassPipeline(pipeline, text)) {
      return llvm_failure("bad pass pipeline", std::move(e));
    }
  }
  if (kHostHasAsan) {
    for (llvm::Function& f : module) {
      if (!f.isDeclaration()) f.addFnAttr(llvm::Attribute::SanitizeAddress);
    }
    pipeline.addPass(llvm::AddressSanitizerPass(llvm::AddressSanitizerOptions{}, false, false,
                                                llvm::AsanDtorKind::None,
                                                llvm::AsanCtorKind::None));
  }
  pipeline.run(module, mam);
  return Status();
}

// Target machines lent to compiles. Making one, from the host's description to its
// subtarget's tables, cost about as much as generating a small codec's code. A TargetMachine
// serves one module at a time, and generating code at one optimization level leaves settings
// behind (FastISel), so each level has machines of its own.
//
// A lease is a module being compiled, and the pool lends at most one per core. Compiles beyond
// that shared the cores: of MediaContent's two codecs, four modules on two cores, the largest
// shared its core until the end and finished last, while given a core of its own as soon as it
// asks, it finishes about when the other three do on the other core.
class MachinePool {
 public:
  class Lease {
   public:
    Lease(MachinePool* pool, llvm::CodeGenOptLevel level,
          std::unique_ptr<llvm::TargetMachine> machine)
        : pool_(pool), level_(level), machine_(std::move(machine)) {}
    Lease(Lease&& other) noexcept = default;
    Lease& operator=(Lease&&) = delete;
    Lease(const Lease&) = delete;
    ~Lease() {
      if (machine_) pool_->give_back(level_, std::move(machine_));
    }
    llvm::TargetMachine& operator*() const { return *machine_; }
    llvm::TargetMachine* operator->() const { return machine_.get(); }

   private:
    MachinePool* pool_;
    llvm::CodeGenOptLevel level_;
    std::unique_ptr<llvm::TargetMachine> machine_;
  };

  /// Waits until fewer leases than cores are out.
  Result<Lease> borrow(llvm::CodeGenOptLevel level) {
    {
      std::unique_lock lock(mutex_);
      returned_.wait(lock, [this] { return lent_ < cores_; });
      ++lent_;
      std::vector<std::unique_ptr<llvm::TargetMachine>>& free = free_[index(level)];
      if (!free.empty()) {
        Lease lease(this, level, std::move(free.back()));
        free.pop_back();
        return lease;
      }
    }
    Result<std::unique_ptr<llvm::TargetMachine>> made = make(level);
    if (!made) {
      give_back(level, nullptr);
      return made.status();
    }
    return Lease(this, level, std::move(*made));
  }

 private:
  static std::size_t index(llvm::CodeGenOptLevel level) {
    return level == llvm::CodeGenOptLevel::None ? 0 : 1;
  }
  static Result<std::unique_ptr<llvm::TargetMachine>> make(llvm::CodeGenOptLevel level) {
    initialize_llvm();
    auto host = host_machine();
    if (!host) return llvm_failure("cannot describe the host", host.takeError());
    // Made as for optimized code, then set to the level: a machine made for
    // CodeGenOptLevel::None generated first-tier readers that ran almost twice as long.
    auto machine = host->createTargetMachine();
    if (!machine) return llvm_failure("no target machine for the host", machine.takeError());
    (*machine)->setOptLevel(level);
    return std::move(*machine);
  }
  void give_back(llvm::CodeGenOptLevel level, std::unique_ptr<llvm::TargetMachine> machine) {
    {
      std::lock_guard lock(mutex_);
      if (machine) free_[index(level)].push_back(std::move(machine));
      --lent_;
    }
    returned_.notify_one();
  }

  const unsigned cores_ = std::max(1u, std::thread::hardware_concurrency());
  std::mutex mutex_;
  std::condition_variable returned_;
  unsigned lent_ = 0;
  std::array<std::vector<std::unique_ptr<llvm::TargetMachine>>, 2> free_;
};

// The module of one Plan, verified, optionally run through the optimization pipeline.
struct Built {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::vector<HostAddress> hosts;  // what the module's external symbols stand for
};

// First-tier code is generated as fast as LLVM can: FastISel and the fast register allocator,
// which CodeGenOptLevel::None selects.
llvm::CodeGenOptLevel codegen_level(Build what) {
  return what == Build::First ? llvm::CodeGenOptLevel::None : llvm::CodeGenOptLevel::Less;
}

Result<Built> build(const Plan& plan, const RunOptions& options, Build what,
                    llvm::TargetMachine& machine, KernelCatalog& kernels, bool reject = false) {
  Built built;
  const bool first = what == Build::First;
  const std::string entry = tier_entry(plan, first ? CodeTier::First : CodeTier::Optimized);
  built.context = std::make_unique<llvm::LLVMContext>();
  built.module = std::make_unique<llvm::Module>(entry, *built.context);
  built.module->setDataLayout(machine.createDataLayout());
  built.module->setTargetTriple(machine.getTargetTriple().str());
  built.hosts = emit_plan(plan, options, *built.module, entry);
  Result<const KernelCalls*> calls = kernels.calls(plan.format);
  if (!calls) return calls.status();
  if (Status s = check_calls(*built.module, **calls, entry, first); !s) return s;
  if (!first) {
    if (Status s = link_kernel(*built.module, format_entry(plan.format).kernel(), entry); !s) {
      return s;
    }
  }
  if (!first) define_host_bits(*built.module, machine);
  if (reject) {  // a function whose only block has no terminator
    llvm::Function* bad = llvm::Function::Create(
        llvm::FunctionType::get(llvm::Type::getVoidTy(*built.context), false),
        llvm::Function::ExternalLinkage, "jitser.rejected", *built.module);
    llvm::BasicBlock::Create(*built.context, "entry", bad);
  }

  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*built.module, &os)) {
    return Status(Errc::jit_failed, "emitted IR does not verify: " + problems);
  }
  if (first) {
    // Nothing but what the host's sanitizer adds: the routines stay functions and the kernel's
    // calls stay calls of the library's optimized code. Merging the routines, as optimized
    // code does, took half of a first-tier compile of nested types for little speed.
    if (Status s = run_pipeline(*built.module, machine, ""); !s) return s;
    route_imports_through_table(*built.module);
    problems.clear();
    if (llvm::verifyModule(*built.module, &os)) {
      return Status(Errc::jit_failed, "first-tier IR does not verify: " + problems);
    }
  }
  if (what == Build::Optimized) {
    // Not the O2 pipeline: measured on MediaContent, O2 took ~90 ms of a ~125 ms compile,
    // most of it re-simplifying each routine before and after the inliner. Every routine but
    // the entry is always-inline (jit/emitter.h), so one inlining step and one round of
    // simplification of the merged function give code within 10% of O2's speed at half the
    // compile time. Jump threading routes each inlined kernel call's failure, which the call
    // returned as a bool merged from its paths, straight to the routine's failure block; it
    // made MediaContent's positional reader faster and its compile shorter, as simpler control
    // flow leaves less to generate code for. InstCombine runs without its fixpoint check: a bare
    // `instcombine` in a textual pipeline verifies that one iteration reached a fixpoint and calls
    // report_fatal_error, ending the process, when it did not (as on a struct of one enum
    // named V0 and V1); O2 runs it without the check too.
    if (Status s = run_pipeline(*built.module, machine,
                                "always-inline,function(sroa,early-cse,instcombine<no-verify-"
                                "fixpoint>,sroa,jump-threading,simplifycfg),globaldce");
        !s) {
      return s;
    }
    route_imports_through_table(*built.module);
    // Code generation calls report_fatal_error on some IR it cannot lower; IR that the
    // pipeline left invalid is refused here instead, and the codec stays interpreted.
    problems.clear();
    if (llvm::verifyModule(*built.module, &os)) {
      return Status(Errc::jit_failed, "optimized IR does not verify: " + problems);
    }
  }
  return built;
}

Result<llvm::SmallVector<char, 0>> emit(Built& built, llvm::TargetMachine& machine,
                                        llvm::CodeGenFileType type) {
  llvm::SmallVector<char, 0> bytes;
  llvm::raw_svector_ostream os(bytes);
  llvm::legacy::PassManager codegen;
  if (machine.addPassesToEmitFile(codegen, os, nullptr, type)) {
    return Status(Errc::jit_failed, "the target cannot emit this file type");
  }
  codegen.run(*built.module);
  return bytes;
}

// One Plan's module, optimized, as object code, with the host addresses it refers to, and
// what the code cache did.
struct Object {
  llvm::SmallVector<char, 0> bytes;
  std::vector<HostAddress> hosts;
  std::string cache;
};

// The host addresses of code the cache kept, from the names it refers to: the Plan's
// candidates by their place. Null when a name is not one of them.
std::optional<std::vector<HostAddress>> bind_hosts(const Plan& plan, const std::string& entry,
                                                   const std::vector<std::string>& names) {
  const std::vector<const void*> candidates = host_candidates(plan);
  const std::string prefix = entry + ".host.";
  std::vector<HostAddress> hosts;
  for (const std::string& name : names) {
    if (!name.starts_with(prefix)) return std::nullopt;
    const std::string index = name.substr(prefix.size());
    if (index.empty() || index.size() > 9 ||
        !std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::nullopt;
    }
    const std::size_t i = std::stoul(index);
    if (i >= candidates.size()) return std::nullopt;
    hosts.push_back({name, candidates[i]});
  }
  return hosts;
}

// What the code cache holds for one Plan's code of a tier: the object, or why there is none.
struct Lookup {
  std::optional<Object> object;
  std::string identity;  // the cache's key for the code, empty without a cache
  std::string why_not;
};

Lookup look_up(const Plan& plan, const RunOptions& options, CodeTier tier, bool reject,
               const CodeCache* cache) {
  Lookup out;
  if (!cache || reject) return out;
  out.identity = code_identity(plan, options) +
                 (tier == CodeTier::First ? "tier first\n" : "tier optimized\n");
  CacheLookup found = cache->load(out.identity);
  if (!found.object) {
    out.why_not = std::move(found.why_not);
    return out;
  }
  if (std::optional<std::vector<HostAddress>> hosts =
          bind_hosts(plan, tier_entry(plan, tier), found.object->host_names)) {
    llvm::SmallVector<char, 0> bytes(found.object->bytes.begin(), found.object->bytes.end());
    out.object = Object{std::move(bytes), std::move(*hosts), "hit"};
  } else {
    out.why_not = "ignored a file: it names host symbols this codec does not have";
  }
  return out;
}

// Compiles what the cache did not hold, and stores it there.
Result<Object> compile_object(const Plan& plan, const RunOptions& options, CodeTier tier,
                              bool reject, const CodeCache* cache, const Lookup& lookup,
                              MachinePool& machines, KernelCatalog& kernels) {
  // The machine goes back before the object is stored: another compile may use the core while
  // this one writes the file.
  Result<Object> generated = [&]() -> Result<Object> {
    const Build what = tier == CodeTier::First ? Build::First : Build::Optimized;
    Result<MachinePool::Lease> machine = machines.borrow(codegen_level(what));
    if (!machine) return machine.status();
    Result<Built> built = build(plan, options, what, **machine, kernels, reject);
    if (!built) return built.status();
    Result<llvm::SmallVector<char, 0>> bytes =
        emit(*built, **machine, llvm::CodeGenFileType::ObjectFile);
    if (!bytes) return bytes.status();
    return Object{std::move(*bytes), std::move(built->hosts), lookup.why_not};
  }();
  if (!generated || lookup.identity.empty()) return generated;
  Object& object = *generated;
  CachedObject kept;
  kept.bytes.assign(object.bytes.begin(), object.bytes.end());
  bool cacheable = true;
  for (const HostAddress& h : object.hosts) {
    cacheable = cacheable && h.name.find(kUncachedHost) == std::string::npos;
    kept.host_names.push_back(h.name);
  }
  if (!cacheable) {
    object.cache += ", not stored: it refers to an address the Plan does not name";
  } else if (Status s = cache->store(lookup.identity, kept); !s) {
    object.cache += ", not stored: " + s.message();
  } else {
    object.cache += ", stored";
  }
  return generated;
}

// What compiles code besides the codec's own identity: code made in another environment is not
// used. The build ID stands for jitser's emitter and kernels; LLVM's version is the library's
// that runs, which may be newer than the headers'.
std::string environment(const llvm::orc::JITTargetMachineBuilder& host) {
  unsigned major = 0, minor = 0, patch = 0;
  LLVMGetVersion(&major, &minor, &patch);
  return "LLVM: " + std::to_string(major) + "." + std::to_string(minor) + "." +
         std::to_string(patch) + "\nCPU: " + host.getCPU() +
         "\nCPU features: " + host.getFeatures().getString() +
         "\nAddressSanitizer: " + std::to_string(kHostHasAsan) + "\njitser build: " + build_id() +
         "\n";
}

std::size_t text_bytes(const llvm::SmallVector<char, 0>& object) {
  auto file = llvm::object::ObjectFile::createObjectFile(
      llvm::MemoryBufferRef(llvm::StringRef(object.data(), object.size()), "codec"));
  if (!file) {
    llvm::consumeError(file.takeError());
    return 0;
  }
  std::size_t total = 0;
  for (const llvm::object::SectionRef& section : (*file)->sections()) {
    if (section.isText()) total += section.getSize();
  }
  return total;
}

// LLJIT's own linking layer maps fresh pages for every object and unmaps them with it; this
// one packs the objects into arenas (jit/code_memory.h). Frames are registered for unwinding
// as LLJIT registers them.
llvm::Expected<std::unique_ptr<llvm::orc::ObjectLayer>> linking_layer(
    llvm::orc::ExecutionSession& session, const llvm::Triple&) {
  auto memory = PackedCodeMemory::Create();
  if (!memory) return memory.takeError();
  auto layer = std::make_unique<llvm::orc::ObjectLinkingLayer>(session, std::move(*memory));
  auto frames = llvm::orc::EPCEHFrameRegistrar::Create(session);
  if (!frames) return frames.takeError();
  layer->addPlugin(
      std::make_unique<llvm::orc::EHFrameRegistrationPlugin>(session, std::move(*frames)));
  return layer;
}

}  // namespace

struct Compiler::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::unique_ptr<CodeCache> cache;
  std::string cache_refused;  // why there is no cache, when one was asked for
  MachinePool machines;
  KernelCatalog kernels;
  std::shared_ptr<HostBinder> hosts = std::make_shared<HostBinder>();
};

Compiler::Compiler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Compiler::~Compiler() {
  const ForkGuard guard;
  impl_.reset();
}

Result<std::unique_ptr<Compiler>> Compiler::create(const CompilerOptions& options) {
  const ForkGuard guard;
  if (!std_layouts_match()) {
    return Status(Errc::jit_failed,
                  "this standard library lays out std::string, std::vector or smart pointers "
                  "differently from libstdc++, which compiled code assumes");
  }
  initialize_llvm();
  auto host = host_machine();
  if (!host) return llvm_failure("cannot describe the host", host.takeError());
  auto impl = std::make_unique<Impl>();
  if (!options.cache_dir.empty()) {
    const std::string build = build_id();
    Result<std::unique_ptr<CodeCache>> cache =
        build.empty()
            ? Result<std::unique_ptr<CodeCache>>(
                  Status(Errc::unsupported, "this program has no build ID to tell builds apart"))
            : CodeCache::open(options.cache_dir, environment(*host), options.cache_max_bytes);
    if (cache) {
      impl->cache = std::move(*cache);
    } else {
      impl->cache_refused = "off: " + cache.status().message();
    }
  }
  llvm::orc::LLJITBuilder builder;
  builder.setJITTargetMachineBuilder(std::move(*host));
  builder.setObjectLinkingLayerCreator(linking_layer);
  auto jit = builder.create();
  if (!jit) return llvm_failure("cannot start LLJIT", jit.takeError());
  auto* linker = llvm::dyn_cast<llvm::orc::ObjectLinkingLayer>(&(*jit)->getObjLinkingLayer());
  if (!linker) return Status(Errc::jit_failed, "LLJIT links with RuntimeDyld, not JITLink");
  linker->addPlugin(impl->hosts);
  linker->addPlugin(std::make_unique<ImportTableSealer>());
  if (options.perf) linker->addPlugin(std::make_unique<PerfJitdumpPlugin>());
  if (options.debugger) {
    if (llvm::Error e = llvm::orc::enableDebuggerSupport(**jit)) {
      return llvm_failure("cannot register with the debugger", std::move(e));
    }
  }
  // Compiled code calls the helpers of jit/runtime.h by name.
  llvm::orc::SymbolMap helpers;
  for (const HelperSymbol& h : helper_symbols()) {
    helpers[(*jit)->mangleAndIntern(h.name)] = llvm::orc::ExecutorSymbolDef(
        llvm::orc::ExecutorAddr::fromPtr(h.address), llvm::JITSymbolFlags::Exported);
  }
  if (llvm::Error e =
          (*jit)->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(helpers)))) {
    return llvm_failure("cannot define the runtime helpers", std::move(e));
  }
  impl->jit = std::move(*jit);
  return std::make_unique<Compiler>(std::move(impl));
}

Result<CompiledCodec> Compiler::compile(const Plan& serialize, const Plan& deserialize,
                                        const RunOptions& options, CodeTier tier, bool reject) {
  const ForkGuard guard;
  // Both directions' code comes from the cache when it has it. What it lacks compiles, each
  // direction its own module: with both to compile, the serializer compiles on a second
  // thread while this one compiles the deserializer. Code generation is most of a compile, so on
  // two cores this about halves the time until a codec runs compiled code. The deserializer,
  // the larger module, asks for its core first (MachinePool).
  const CodeCache* cache = impl_->cache.get();
  Lookup write_lookup = look_up(serialize, options, tier, reject, cache);
  Lookup read_lookup = look_up(deserialize, options, tier, false, cache);
  auto object_of = [&](const Plan& plan, bool rejected, Lookup& lookup) -> Result<Object> {
    if (lookup.object) return std::move(*lookup.object);
    return compile_object(plan, options, tier, rejected, cache, lookup, impl_->machines,
                          impl_->kernels);
  };
  std::optional<Result<Object>> write_object;
  std::thread writer;
  if (!read_lookup.object && !write_lookup.object) {
    writer = std::thread([&] {
      try {
        write_object = object_of(serialize, reject, write_lookup);
      } catch (const std::exception& e) {
        write_object = Status(Errc::jit_failed, std::string("compiling failed: ") + e.what());
      }
    });
  }
  Result<Object> read_object = object_of(deserialize, false, read_lookup);
  if (writer.joinable()) {
    writer.join();
  } else {
    write_object = object_of(serialize, reject, write_lookup);
  }

  CompiledCodec out;
  if (!impl_->cache_refused.empty()) {
    out.cache = impl_->cache_refused;
  } else if (cache && write_object->ok() && read_object.ok()) {
    const std::string& written = (*write_object)->cache;
    const std::string& read = read_object->cache;
    out.cache = written == "hit" && read == "hit"
                    ? "hit"
                    : "serialize: " + written + "; deserialize: " + read;
  }
  // The objects' references to this process's type descriptors, ops tables and fields are
  // symbols, bound as each object is linked; one lookup of both entries links the two.
  const std::string write_entry = tier_entry(serialize, tier);
  const std::string read_entry = tier_entry(deserialize, tier);
  for (const auto& [name, object] :
       {std::pair{&write_entry, &*write_object}, std::pair{&read_entry, &read_object}}) {
    if (!*object) return object->status();
    out.code_bytes += text_bytes((*object)->bytes);
  }
  llvm::orc::JITDylib& dylib = impl_->jit->getMainJITDylib();
  for (const auto& [name, object] :
       {std::pair{&write_entry, &*write_object}, std::pair{&read_entry, &read_object}}) {
    impl_->hosts->expect(*name, std::move((*object)->hosts));
    if (llvm::Error e = impl_->jit->addObjectFile(std::make_unique<llvm::SmallVectorMemoryBuffer>(
            std::move((*object)->bytes), *name, false))) {
      impl_->hosts->forget(*name);
      return llvm_failure("cannot add the object of " + *name, std::move(e));
    }
  }
  const llvm::orc::SymbolStringPtr write_symbol = impl_->jit->mangleAndIntern(write_entry);
  const llvm::orc::SymbolStringPtr read_symbol = impl_->jit->mangleAndIntern(read_entry);
  auto linked = impl_->jit->getExecutionSession().lookup(
      llvm::orc::makeJITDylibSearchOrder(&dylib),
      llvm::orc::SymbolLookupSet({write_symbol, read_symbol}));
  if (!linked) {
    impl_->hosts->forget(write_entry);
    impl_->hosts->forget(read_entry);
    return llvm_failure("cannot link " + write_entry, linked.takeError());
  }
  out.serialize = (*linked)[write_symbol].getAddress().toPtr<WriteFn>();
  out.deserialize = (*linked)[read_symbol].getAddress().toPtr<ReadFn>();
  return out;
}

Result<std::string> plan_ir(const Plan& plan, const RunOptions& options, bool optimized) {
  const ForkGuard guard;
  const Build what = optimized ? Build::Optimized : Build::Emitted;
  MachinePool machines;
  Result<MachinePool::Lease> machine = machines.borrow(codegen_level(what));
  if (!machine) return machine.status();
  KernelCatalog kernels;
  Result<Built> built = build(plan, options, what, **machine, kernels);
  if (!built) return built.status();
  std::string text;
  llvm::raw_string_ostream os(text);
  built->module->print(os, nullptr);
  return text;
}

Result<std::string> plan_asm(const Plan& plan, const RunOptions& options) {
  const ForkGuard guard;
  MachinePool machines;
  Result<MachinePool::Lease> machine = machines.borrow(codegen_level(Build::Optimized));
  if (!machine) return machine.status();
  KernelCatalog kernels;
  Result<Built> built = build(plan, options, Build::Optimized, **machine, kernels);
  if (!built) return built.status();
  Result<llvm::SmallVector<char, 0>> text =
      emit(*built, **machine, llvm::CodeGenFileType::AssemblyFile);
  if (!text) return text.status();
  return std::string(text->data(), text->size());
}

}  // namespace jitser::jit
