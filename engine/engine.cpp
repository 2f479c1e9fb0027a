#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include <jitser/engine.h>

#include "engine/compile_queue.h"
#include "engine/interpreter.h"
#include "formats/format_table.h"
#include "jit/compiler.h"
#include "jit/fork_gate.h"
#include "jit/runtime.h"
#include "typeinfo/layout.h"
#include "typeinfo/memory.h"
#include "typeinfo/registry.h"
#include "typeinfo/schema_text.h"

namespace jitser {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// A counter bumped on every call. A relaxed load and store instead of an atomic add keeps the
// hot path free of locked instructions; concurrent calls may lose a count, which statistics
// and the lazy threshold tolerate.
void bump(std::atomic<std::uint64_t>& counter) {
  counter.store(counter.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

// The value of an environment variable that names one of `names`, or `fallback` when it is
// unset; another value is ignored with a message.
template <class E, std::size_t N>
E enum_from_environment(const char* variable, E fallback,
                        const std::pair<std::string_view, E> (&names)[N]) {
  const char* value = std::getenv(variable);
  if (!value || !*value) return fallback;
  std::string expected;
  for (const auto& [name, e] : names) {
    if (name == value) return e;
    expected += (expected.empty() ? "" : ", ") + std::string(name);
  }
  std::cerr << "jitser: ignoring " << variable << "=" << value << " (expected one of " << expected
            << ")\n";
  return fallback;
}

JitPolicy policy_from_environment(JitPolicy fallback) {
  return enum_from_environment("JITSER_JIT", fallback,
                               {{"off", JitPolicy::Off},
                                {"sync", JitPolicy::Sync},
                                {"async", JitPolicy::Async},
                                {"lazy", JitPolicy::Lazy}});
}

CompileTiers tiers_from_environment(CompileTiers fallback) {
  return enum_from_environment("JITSER_TIERS", fallback,
                               {{"first", CompileTiers::First},
                                {"optimized", CompileTiers::Optimized},
                                {"both", CompileTiers::Both}});
}

bool profiling_from_environment(bool fallback) {
  const char* value = std::getenv("JITSER_PERF");
  return value && *value ? std::strcmp(value, "0") != 0 : fallback;
}

}  // namespace

const char* jit_policy_name(JitPolicy policy) {
  switch (policy) {
    case JitPolicy::Off: return "off";
    case JitPolicy::Sync: return "sync";
    case JitPolicy::Async: return "async";
    case JitPolicy::Lazy: return "lazy";
  }
  return "?";
}

namespace detail {

struct CodecState {
  const TypeDesc* type;
  Format format;
  Plan serialize;
  Plan deserialize;
  RunOptions run;
  Engine::Impl* engine;
  Clock::time_point created = Clock::now();

  // The tier switch: null until compiled code is installed; first-tier code, then optimized
  // code, each installed once and never changed after (a call may still be running it).
  std::atomic<const jit::CompiledCodec*> compiled{nullptr};
  std::atomic<JitState> jit{JitState::Off};
  std::atomic<std::uint64_t> interpreter_calls{0};
  std::atomic<std::uint64_t> compiled_calls{0};
  std::atomic<std::uint64_t> disagreements{0};
  std::atomic<std::uint64_t> declined{0};

  // Written once by the compiling thread under compile_mutex, before `jit` says Compiled/Failed.
  std::mutex compile_mutex;
  jit::CompiledCodec first_code;  // first-tier code
  jit::CompiledCodec code;        // optimized code
  double first_compile_ms = 0;
  double first_ready_ms = 0;
  double compile_ms = 0;
  double ready_ms = 0;
  std::string failure;
};

}  // namespace detail

// JITSER_JIT_FAIL_CALLS=1 installs these in place of every compiled function: each call
// reports failure and the interpreter reruns it, a broken JIT that the fallback would hide
// but for tier_disagreements and the audit below.
WriteSpan failing_write(WriteContext*, std::uint8_t*, std::uint8_t*, const std::uint8_t*) {
  return {nullptr, nullptr};
}
const std::uint8_t* failing_read(ReadContext*, const std::uint8_t*, const std::uint8_t*,
                                 std::uint8_t*) {
  return nullptr;
}

bool flag_from_environment(const char* name) {
  const char* value = std::getenv(name);
  return value && *value && std::strcmp(value, "0") != 0;
}

struct Engine::Impl {
  EngineOptions options;
  // JITSER_JIT_FAULT=<type>: compiling that type hands LLVM invalid IR, to rehearse a failure.
  std::string fault_type;
  bool fail_calls = false;  // JITSER_JIT_FAIL_CALLS
  bool audit = false;       // JITSER_AUDIT
  mutable std::mutex mutex;
  Registry registry;
  LayoutTables layout_tables;  // of the types load_schema registers
  std::map<std::pair<const TypeDesc*, Format>, std::unique_ptr<detail::CodecState>> codecs;

  // Declared after the codecs and destroyed before them: the queue joins its threads first,
  // then the compiler frees the code.
  std::mutex compiler_mutex;
  std::unique_ptr<jit::Compiler> compiler;
  Status compiler_failure;
  std::unique_ptr<detail::CompileQueue> queue;

  Result<detail::CodecState*> codec_for(Result<const TypeDesc*> type, Format format) {
    if (!type) return type.status();
    auto& slot = codecs[{*type, format}];
    if (!slot) {
      auto state = std::make_unique<detail::CodecState>();
      state->type = *type;
      state->format = format;
      state->engine = this;
      const FormatEntry& entry = format_entry(format);
      state->run = run_options(options);
      state->serialize = entry.lower(**type, Direction::Serialize, state->run);
      state->deserialize = entry.lower(**type, Direction::Deserialize, state->run);
      // A format the JIT does not compile yet keeps its codecs on the interpreter.
      if (!format_compiles(format)) {
        state->failure = std::string(format_name(format)) + " codecs are not compiled yet";
      }
      switch (format_compiles(format) ? options.jit : JitPolicy::Off) {
        case JitPolicy::Off: state->jit = JitState::Off; break;
        case JitPolicy::Lazy: state->jit = JitState::Waiting; break;
        case JitPolicy::Sync: state->jit = JitState::Queued; break;
        case JitPolicy::Async:
          state->jit = JitState::Queued;
          enqueue(state.get());
          break;
      }
      slot = std::move(state);
    }
    return slot.get();
  }

  // The codec for a type named by its registered name or C++ type; under Sync, compiled before
  // it is returned (outside the lock, so other threads are not held up).
  template <class Key>
  Result<DynCodec> codec_by(const Key& key, Format format) {
    Result<detail::CodecState*> state = [&] {
      std::lock_guard lock(mutex);
      return codec_for(registry.resolve(key), format);
    }();
    if (!state) return state.status();
    if (options.jit == JitPolicy::Sync) compile(**state);
    return DynCodec(*state);
  }

  // Called with `mutex` held or from a call of the codec; the queue has its own lock.
  void enqueue(detail::CodecState* state) {
    std::lock_guard lock(compiler_mutex);
    if (!queue) queue = std::make_unique<detail::CompileQueue>(options.compile_threads);
    queue->push([this, state] { compile(*state); });
  }

  jit::Compiler* get_compiler(Status& failure) {
    std::lock_guard lock(compiler_mutex);
    if (!compiler && compiler_failure.ok()) {
      Result<std::unique_ptr<jit::Compiler>> made =
          jit::Compiler::create({.perf = options.profiling,
                                 .debugger = options.profiling,
                                 .cache_dir = options.cache_dir,
                                 .cache_max_bytes = options.cache_max_bytes});
      if (made) {
        compiler = std::move(*made);
      } else {
        compiler_failure = made.status();
      }
    }
    failure = compiler_failure;
    return compiler.get();
  }

  // Compiles one codec unless it is compiled or failed already; waits for a compilation of it
  // under way on another thread. First-tier code first, installed as soon as it is linked,
  // then optimized code; under Sync with both tiers, only optimized code, since the caller
  // waits for it anyway. A fork waits for it (jit/fork_gate.h).
  void compile(detail::CodecState& state) {
    const jit::ForkGuard guard;
    std::lock_guard lock(state.compile_mutex);
    const JitState now = state.jit.load();
    if (now == JitState::Compiled || now == JitState::Failed || now == JitState::Off) return;
    state.jit = JitState::Compiling;
    Status failure;
    jit::Compiler* c = get_compiler(failure);
    const bool reject = !fault_type.empty() && fault_type == display_name(*state.type);
    const bool first = options.tiers != CompileTiers::Optimized &&
                       !(options.jit == JitPolicy::Sync && options.tiers == CompileTiers::Both);
    const bool optimized = options.tiers != CompileTiers::First;
    bool installed = false;
    auto compile_tier = [&](jit::CodeTier tier, jit::CompiledCodec& into, double& compile_ms,
                            double& ready_ms) {
      const Clock::time_point start = Clock::now();
      Result<jit::CompiledCodec> code =
          c ? c->compile(state.serialize, state.deserialize, state.run, tier, reject)
            : Result<jit::CompiledCodec>(failure);
      compile_ms = ms_since(start);
      if (!code) {
        state.failure = code.status().to_string();
        return;
      }
      into = *code;
      if (fail_calls) {
        into.serialize = failing_write;
        into.deserialize = failing_read;
      }
      ready_ms = ms_since(state.created);
      state.compiled.store(&into, std::memory_order_release);
      installed = true;
    };
    if (first) {
      compile_tier(jit::CodeTier::First, state.first_code, state.first_compile_ms,
                   state.first_ready_ms);
    }
    if (optimized) {
      compile_tier(jit::CodeTier::Optimized, state.code, state.compile_ms, state.ready_ms);
    }
    state.jit = installed ? JitState::Compiled : JitState::Failed;
  }

  // JITSER_AUDIT=1: a test suite's guard that the fallback to the interpreter hides no broken
  // compiled code. An Engine whose codecs had a tier disagreement, or that under Sync ran a
  // codec on the interpreter because it did not compile (other than a JITSER_JIT_FAULT
  // rehearsal), says which and ends the process when it is destroyed.
  void check_tiers() {
    std::string report;
    for (auto& [key, state] : codecs) {
      const std::string name = display_name(*state->type) + " (" + format_name(state->format) + ")";
      if (const std::uint64_t n = state->disagreements.load()) {
        report += "  " + name + ": " + std::to_string(n) +
                  " calls failed in compiled code and succeeded in the interpreter\n";
      }
      if (options.jit == JitPolicy::Sync && state->interpreter_calls.load() > 0 &&
          display_name(*state->type) != fault_type && format_compiles(state->format)) {
        report += "  " + name + ": " + std::to_string(state->interpreter_calls.load()) +
                  " calls ran on the interpreter under sync: " + state->failure + "\n";
      }
    }
    if (report.empty()) return;
    std::cerr << "jitser audit (JITSER_AUDIT=1): the interpreter covered for compiled code\n"
              << report << std::flush;
    std::abort();
  }

  void maybe_compile_lazily(detail::CodecState& state) {
    const std::uint64_t calls = state.interpreter_calls.load(std::memory_order_relaxed);
    if (calls < options.lazy_calls) return;
    JitState waiting = JitState::Waiting;
    if (state.jit.compare_exchange_strong(waiting, JitState::Queued)) enqueue(&state);
  }
};

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>()) {
  options.jit = policy_from_environment(options.jit);
  options.profiling = profiling_from_environment(options.profiling);
  options.tiers = tiers_from_environment(options.tiers);
  if (const char* dir = std::getenv("JITSER_CACHE_DIR"); dir && *dir) options.cache_dir = dir;
  if (const char* calls = std::getenv("JITSER_LAZY_CALLS"); calls && *calls) {
    options.lazy_calls = static_cast<std::uint32_t>(std::strtoul(calls, nullptr, 10));
  }
  impl_->options = options;
  if (const char* fault = std::getenv("JITSER_JIT_FAULT")) impl_->fault_type = fault;
  impl_->fail_calls = flag_from_environment("JITSER_JIT_FAIL_CALLS");
  impl_->audit = flag_from_environment("JITSER_AUDIT");
}

Engine::~Engine() {
  // Stop compiling before anything a compile job touches goes away.
  impl_->queue.reset();
  if (impl_->audit) impl_->check_tiers();
}

Status Engine::add(TypeDesc desc) {
  std::lock_guard lock(impl_->mutex);
  return impl_->registry.add(std::move(desc));
}

namespace {
// A registered copy refers to other types by name, for the registry to bind to its own copies.
void unbind(TypeDesc& t) {
  if (t.kind == Kind::Named) t.target = nullptr;
  if (t.element) unbind(*t.element.get());
  if (t.key) unbind(*t.key.get());
}
}  // namespace

Status Engine::load_schema(std::string_view text) {
  Result<ParsedSchema> schema = parse_schema(text);
  if (!schema) return schema.status();
  std::lock_guard lock(impl_->mutex);
  if (Status s = lay_out(*schema, impl_->layout_tables); !s) return s;
  std::vector<TypeDesc> copies;
  for (const auto& type : schema->types) {
    TypeDesc copy = *type;
    for (FieldDesc& f : copy.fields) unbind(*f.type.get());
    if (Status s = impl_->registry.check(copy); !s) return s;
    copies.push_back(std::move(copy));
  }
  for (TypeDesc& copy : copies) {
    if (Status s = impl_->registry.add(std::move(copy)); !s) return s;
  }
  return Status();
}

namespace {

// A schema is a few pages; a larger file is not one, and is refused before it fills memory.
constexpr std::uintmax_t kMaxSchemaFile = std::uintmax_t{64} << 20;

Result<std::string> read_schema_file(const std::string& path) {
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (error) return Status(Errc::cannot_read, path + ": " + error.message());
  if (!std::filesystem::is_regular_file(status)) {
    return Status(Errc::cannot_read, path + ": not a regular file");
  }
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return Status(Errc::cannot_read, path + ": " + error.message());
  if (size > kMaxSchemaFile) {
    return Status(Errc::cannot_read,
                  path + ": " + std::to_string(size) + " bytes, more than a schema file may hold");
  }
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) return Status(Errc::cannot_read, path + ": " + std::strerror(errno));
  return text;
}

}  // namespace

Status Engine::load_schema_file(const std::string& path) {
  if (std::filesystem::path(path).extension() == ".proto") {
    return Status(Errc::unsupported, path +
                                         ": a .proto file is loaded by jitser::load_proto "
                                         "(<jitser/proto.h>, library jitser_proto)");
  }
  Result<std::string> text = read_schema_file(path);
  if (!text) return text.status();
  Status s = load_schema(*text);
  if (s) return s;
  const bool placed = s.message().starts_with("line ");
  return Status(s.code(), path + (placed ? ", " : ": ") + s.message(), s.offset(), s.path());
}

Result<DynCodec> Engine::codec(std::string_view type_name, Format format) {
  return impl_->codec_by(type_name, format);
}

Result<DynCodec> Engine::codec(std::type_index cpp_type, Format format) {
  return impl_->codec_by(cpp_type, format);
}

Status Engine::compile_all(const CompileScope& scope) {
  if (impl_->options.jit == JitPolicy::Off) return Status();
  const std::span<const Format> formats =
      scope.formats.empty() ? all_formats() : std::span<const Format>(scope.formats);
  const auto in_scope = [&](Format f) {
    return std::find(formats.begin(), formats.end(), f) != formats.end();
  };
  std::vector<detail::CodecState*> states;
  {
    std::lock_guard lock(impl_->mutex);
    if (scope.types.empty()) {
      for (auto& [key, state] : impl_->codecs) {
        if (in_scope(state->format)) states.push_back(state.get());
      }
    }
    for (const std::string& type : scope.types) {
      for (const Format format : formats) {
        // Through resolve(), which binds the type's references to other registered types.
        Result<detail::CodecState*> state = impl_->codec_for(impl_->registry.resolve(type), format);
        if (!state) return state.status();
        states.push_back(*state);
      }
    }
  }
  // Codecs compile side by side, one per core: each compile splits only into its two
  // directions, which differ in size, so one codec at a time leaves cores idle.
  std::atomic<std::size_t> next{0};
  std::exception_ptr thrown;
  std::mutex thrown_mutex;
  auto work = [&] {
    for (std::size_t i = next++; i < states.size(); i = next++) {
      try {
        impl_->compile(*states[i]);
      } catch (...) {
        std::lock_guard lock(thrown_mutex);
        if (!thrown) thrown = std::current_exception();
      }
    }
  };
  const std::size_t threads =
      std::min<std::size_t>(states.size(), std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> workers;
  for (std::size_t t = 1; t < threads; ++t) workers.emplace_back(work);
  work();
  for (std::thread& t : workers) t.join();
  if (thrown) std::rethrow_exception(thrown);
  Status first;
  for (detail::CodecState* state : states) {
    if (first.ok() && state->jit == JitState::Failed) {
      first = Status(Errc::jit_failed, display_name(*state->type) + ": " + state->failure);
    }
  }
  return first;
}

JitPolicy Engine::jit_policy() const { return impl_->options.jit; }

std::vector<CodecStats> Engine::stats() const {
  std::vector<CodecStats> all;
  std::lock_guard lock(impl_->mutex);
  for (auto& [key, state] : impl_->codecs) all.push_back(DynCodec(state.get()).stats());
  return all;
}

std::vector<const TypeDesc*> Engine::types() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->registry.types();
}

Result<std::uint64_t> Engine::fingerprint(std::string_view type_name) {
  std::lock_guard lock(impl_->mutex);
  Result<const TypeDesc*> type = impl_->registry.resolve(type_name);
  if (!type) return type.status();
  return jitser::fingerprint(**type);
}

Result<std::string> Engine::schema_text(std::string_view type_name) {
  std::lock_guard lock(impl_->mutex);
  Result<const TypeDesc*> type = impl_->registry.resolve(type_name);
  if (!type) return type.status();
  return canonical_text(**type);
}

// Compiled code only says whether it succeeded (jit/runtime.h). On failure the interpreter runs
// the same call again and reports the error: the same code, offset and path in both tiers.
namespace {
Status empty_codec() {
  return Status(Errc::empty_codec, "this codec was default-constructed: ask an Engine for one");
}
}  // namespace

Status DynCodec::serialize(const void* object, Buffer& out) const {
  out.clear();
  if (!state_) return empty_codec();
  if (const jit::CompiledCodec* code = state_->compiled.load(std::memory_order_acquire)) {
    bump(state_->compiled_calls);
    WriteContext ctx;
    ctx.max_depth = state_->run.max_depth;
    ctx.out = &out;
    std::uint8_t* cursor = out.ensure(256);
    const WriteSpan end = code->serialize(&ctx, cursor, cursor + (out.capacity() - out.size()),
                                          static_cast<const std::uint8_t*>(object));
    if (end.cursor) {
      out.commit_to(end.cursor);
      if (auto finish = format_entry(state_->format).finish_write) finish(state_->run, out);
      return Status();
    }
    out.clear();
    Status status = interpret_serialize(state_->serialize, state_->run, object, out);
    if (status.ok()) bump(state_->disagreements);
    return status;
  }
  bump(state_->interpreter_calls);
  if (state_->jit.load(std::memory_order_relaxed) == JitState::Waiting) {
    state_->engine->maybe_compile_lazily(*state_);
  }
  return interpret_serialize(state_->serialize, state_->run, object, out);
}

Status DynCodec::deserialize(std::span<const std::uint8_t> input, void* object) const {
  return deserialize(PaddedInput{input, 0}, object);
}

Status DynCodec::deserialize(const PaddedInput& padded, void* object) const {
  if (!state_) return empty_codec();
  const std::span<const std::uint8_t> input = padded.bytes;
  if (const jit::CompiledCodec* code = state_->compiled.load(std::memory_order_acquire)) {
    bump(state_->compiled_calls);
    ReadContext ctx;
    ctx.max_depth = state_->run.max_depth;
    ctx.padding = padded.padding;
    ctx.resource = memory_resource_of(*state_->type, object);
    // Compiled code returns null for failure, so empty input (whole in Protobuf) gets an
    // address of its own.
    static constexpr std::uint8_t kNothing = 0;
    const std::uint8_t* begin = input.empty() ? &kNothing : input.data();
    const std::uint8_t* end = begin + input.size();
    const std::uint8_t* stop =
        code->deserialize(&ctx, begin, end, static_cast<std::uint8_t*>(object));
    if (stop && stop == end) return Status();
    // Objects this call created may form cycles through shared_ptr the caller cannot see;
    // emptying each one breaks them, as the interpreter does on failure.
    for (const auto& r : ctx.refs) r.holder->shared_ops->clear_object(r.holder, r.object.get());
    Status status =
        interpret_deserialize(state_->deserialize, state_->run, input, padded.padding, object);
    if (ctx.declined) {
      bump(state_->declined);
    } else if (status.ok()) {
      bump(state_->disagreements);
    }
    return status;
  }
  bump(state_->interpreter_calls);
  if (state_->jit.load(std::memory_order_relaxed) == JitState::Waiting) {
    state_->engine->maybe_compile_lazily(*state_);
  }
  return interpret_deserialize(state_->deserialize, state_->run, input, padded.padding, object);
}

Status DynCodec::holds(const Object& object) const {
  if (!state_) return empty_codec();
  if (object.type() == state_->type) return Status();
  return Status(Errc::type_mismatch,
                "an Object of " + (object.type() ? display_name(*object.type()) : "nothing") +
                    " given to the codec of " + display_name(*state_->type));
}

Status DynCodec::serialize(const Object& object, Buffer& out) const {
  if (Status s = holds(object); !s) {
    out.clear();
    return s;
  }
  return serialize(object.get(), out);
}

const TypeDesc& DynCodec::type() const {
  static const TypeDesc kNone{.kind = Kind::Struct, .name = "(empty codec)"};
  return state_ ? *state_->type : kNone;
}
Format DynCodec::format() const { return state_ ? state_->format : Format::Binary; }

std::string DynCodec::dump_plan(Direction direction) const {
  if (!state_) return {};
  return jitser::dump_plan(
      direction == Direction::Serialize ? state_->serialize : state_->deserialize,
      format_entry(state_->format).enc_name);
}

Result<std::string> DynCodec::dump_ir(Direction direction, bool optimized) const {
  if (!state_) return empty_codec();
  return jit::plan_ir(direction == Direction::Serialize ? state_->serialize : state_->deserialize,
                      state_->run, optimized);
}

Result<std::string> DynCodec::dump_asm(Direction direction) const {
  if (!state_) return empty_codec();
  return jit::plan_asm(direction == Direction::Serialize ? state_->serialize : state_->deserialize,
                       state_->run);
}

CodecStats DynCodec::stats() const {
  CodecStats s;
  if (!state_) return s;
  s.type = display_name(*state_->type);
  s.format = state_->format;
  s.jit = state_->jit.load();
  // The code that runs, which its installer wrote before publishing it and nobody changes
  // after: its size and what the cache did for it.
  const jit::CompiledCodec* running = state_->compiled.load(std::memory_order_acquire);
  s.tier = running ? Tier::Compiled : Tier::Interpreter;
  s.code = running == &state_->code         ? CompiledCode::Optimized
           : running == &state_->first_code ? CompiledCode::FirstTier
                                            : CompiledCode::None;
  if (running) {
    s.cache = running->cache;
    s.code_bytes = running->code_bytes;
  }
  s.interpreter_calls = state_->interpreter_calls.load(std::memory_order_relaxed);
  s.compiled_calls = state_->compiled_calls.load(std::memory_order_relaxed);
  s.tier_disagreements = state_->disagreements.load(std::memory_order_relaxed);
  s.declined_calls = state_->declined.load(std::memory_order_relaxed);
  if (auto kernel = format_entry(s.format).reader_kernel) s.reader_kernel = kernel();
  if (s.jit == JitState::Compiled || s.jit == JitState::Failed) {
    // The compiling thread wrote these before publishing the state; the lock orders the reads.
    std::lock_guard lock(state_->compile_mutex);
    s.first_compile_ms = state_->first_compile_ms;
    s.first_ready_ms = state_->first_ready_ms;
    s.compile_ms = state_->compile_ms;
    s.ready_ms = state_->ready_ms;
    s.failure = state_->failure;
  } else if (!format_compiles(s.format)) {
    s.failure = state_->failure;  // set when the codec was made, and never again
  }
  return s;
}

}  // namespace jitser
