// Engine and codecs: the public entry point of jitser.
//
//   jitser::Engine engine;
//   engine.add(jitser::Struct<Image>("Image").field("uri", &Image::uri) ...);   // -> Status
//   auto codec = engine.codec<Image>(jitser::Format::Binary);                    // -> Result
//   jitser::Buffer out;
//   codec->serialize(image, out);                                                // -> Status
//   codec->deserialize(out.bytes(), image);                                      // -> Status
//
// An Engine is safe to use from many threads. Codecs are cheap handles that stay valid while
// their Engine lives; a codec's methods may be called concurrently. A process may fork while
// its Engines compile in the background: fork() waits for the compiles under way, and the
// child's Engines compile on threads of their own (docs/jit.md).
//
// Tiering: a codec works from its first call through the interpreter while LLVM compiles a
// serializer and deserializer specialized to its type in the background; one atomic pointer
// swap then moves every later call to the compiled code. Both tiers give identical bytes and
// identical errors. EngineOptions::jit picks when compilation happens; the environment variable
// JITSER_JIT=off|sync|async|lazy overrides it for every Engine of the process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <typeindex>
#include <utility>
#include <vector>

#include <jitser/buffer.h>
#include <jitser/builder.h>
#include <jitser/export.h>
#include <jitser/format.h>
#include <jitser/object.h>
#include <jitser/options.h>
#include <jitser/status.h>
#include <jitser/type_desc.h>

namespace jitser {

/// Which code a codec runs now.
enum class Tier : std::uint8_t { Interpreter, Compiled };

/// The compiled code a codec runs (EngineOptions::tiers).
enum class CompiledCode : std::uint8_t { None, FirstTier, Optimized };

/// Where a codec's compilation stands.
enum class JitState : std::uint8_t {
  Off,        // the Engine does not compile
  Waiting,    // lazy: not enough calls yet
  Queued,     // waiting for a compile thread
  Compiling,  // LLVM at work
  Compiled,   // machine code installed
  Failed,     // LLVM failed; the codec stays on the interpreter (see `failure`)
};

struct CodecStats {
  std::string type;
  Format format = Format::Binary;
  Tier tier = Tier::Interpreter;
  JitState jit = JitState::Off;
  CompiledCode code = CompiledCode::None;  // which compiled code runs, when Tier::Compiled
  double first_compile_ms = 0;             // first-tier code: LLVM's time
  double first_ready_ms = 0;   // from the codec's creation until first-tier code was installed
  double compile_ms = 0;       // optimized code: IR, optimization, machine code, linking
  double ready_ms = 0;         // from the codec's creation until optimized code was installed
  std::size_t code_bytes = 0;  // machine code of both directions, of the code that runs
  std::uint64_t interpreter_calls = 0;  // approximate under concurrency: counted without locks
  std::uint64_t compiled_calls = 0;
  /// Calls where compiled code failed and the interpreter, rerun for the error, did not. Always
  /// zero unless the JIT has a bug; the tests and the fuzzer check it.
  std::uint64_t tier_disagreements = 0;
  /// Compiled calls that left their input to the interpreter, as it took a path compiled code
  /// does not take (Protobuf: a message field that appears twice, whose appearances merge).
  std::uint64_t declined_calls = 0;
  std::string failure;  // why compilation failed, or why the codec's format is not compiled
  /// What the code cache did for this codec: empty without one; "hit" when both directions
  /// were linked from it; else, per direction, why not ("no file", "ignored a file: ...") and
  /// whether the compiled code was stored; "off: ..." when the directory was refused.
  std::string cache;
  /// The machinery the format reads with, where it has a choice; empty for the others. JSON:
  /// the simdjson kernels, e.g. "stage 1 icelake, On-Demand fallback". Stage 1 (finding the
  /// structure) runs simdjson's kernel for this CPU; the On-Demand code is compiled into jitser
  /// and its compiled readers as simdjson's portable kernel.
  std::string reader_kernel;
};

namespace detail {
struct CodecState;
}

/// A codec for a type known only by its descriptor: objects are passed as pointers.
///
/// A default-constructed codec is empty: every call fails with Errc::empty_codec.
class JITSER_API DynCodec {
 public:
  DynCodec() = default;
  /// Whether no Engine made this codec.
  bool empty() const { return state_ == nullptr; }

  /// Replaces the content of `out` with the object's encoding.
  Status serialize(const void* object, Buffer& out) const;
  /// Reads `input` into the live object, reusing the storage of its strings, containers and
  /// optional or unique_ptr values. On failure the object is valid but unspecified. Input is
  /// never modified, nor read past its end.
  Status deserialize(std::span<const std::uint8_t> input, void* object) const;
  Status deserialize(std::span<const std::byte> input, void* object) const {
    return deserialize({reinterpret_cast<const std::uint8_t*>(input.data()), input.size()}, object);
  }
  /// Text, as from a `std::string`.
  Status deserialize(std::string_view input, void* object) const {
    return deserialize({reinterpret_cast<const std::uint8_t*>(input.data()), input.size()}, object);
  }
  /// From input with readable padding after it, a PaddedString for one: JSON reads it in place.
  Status deserialize(const PaddedInput& input, void* object) const;

  /// The same, for an Object, which must be of this codec's type (else Errc::type_mismatch).
  Status serialize(const Object& object, Buffer& out) const;
  Status deserialize(std::span<const std::uint8_t> input, Object& object) const {
    return holds(object) ? deserialize(input, object.get()) : holds(object);
  }
  Status deserialize(std::span<const std::byte> input, Object& object) const {
    return holds(object) ? deserialize(input, object.get()) : holds(object);
  }
  Status deserialize(std::string_view input, Object& object) const {
    return holds(object) ? deserialize(input, object.get()) : holds(object);
  }
  Status deserialize(const PaddedInput& input, Object& object) const {
    return holds(object) ? deserialize(input, object.get()) : holds(object);
  }

  /// The type it serves; an empty codec names none.
  const TypeDesc& type() const;
  Format format() const;
  /// The Plan the codec runs, as text (see formats/plan.h).
  std::string dump_plan(Direction direction) const;
  /// The LLVM IR the JIT builds for one direction, before or after optimization.
  Result<std::string> dump_ir(Direction direction, bool optimized) const;
  /// The machine code the JIT runs for one direction, as assembly.
  Result<std::string> dump_asm(Direction direction) const;
  CodecStats stats() const;

 private:
  friend class Engine;
  explicit DynCodec(detail::CodecState* state) : state_(state) {}
  Status holds(const Object& object) const;
  detail::CodecState* state_ = nullptr;
};

/// What a codec reads from: bytes (`std::span` of `std::uint8_t` or `std::byte`, or what
/// converts to one, as `std::vector<std::uint8_t>`), text (`std::string_view`, `std::string`),
/// or padded input (PaddedString, PaddedInput).
template <class Input>
concept CodecInput = requires(const DynCodec& codec, const Input& input, void* object) {
  codec.deserialize(input, object);
};

/// A codec for the registered C++ type T. A default-constructed one is empty (see DynCodec).
template <class T>
class Codec {
 public:
  Codec() = default;
  explicit Codec(DynCodec dyn) : dyn_(dyn) {}
  bool empty() const { return dyn_.empty(); }

  Status serialize(const T& value, Buffer& out) const { return dyn_.serialize(&value, out); }
  Result<std::vector<std::uint8_t>> serialize(const T& value) const {
    Buffer out;
    if (Status s = dyn_.serialize(&value, out); !s) return s;
    return out.to_vector();
  }
  /// Reads into a live value, reusing its storage (see DynCodec::deserialize).
  template <CodecInput Input>
  Status deserialize(const Input& input, T& value) const {
    return dyn_.deserialize(input, &value);
  }
  /// Reads into a new value.
  template <CodecInput Input>
  Result<T> deserialize(const Input& input) const {
    T value{};
    if (Status s = dyn_.deserialize(input, &value); !s) return s;
    return value;
  }
  const DynCodec& dyn() const { return dyn_; }

 private:
  DynCodec dyn_;
};

/// Which codecs Engine::compile_all compiles.
struct CompileScope {
  /// Registered types, whose codecs are made if they are not yet; none: the codecs made so far.
  std::vector<std::string> types;
  /// The formats of those codecs; none: every format.
  std::vector<Format> formats;
};

class JITSER_API Engine {
 public:
  explicit Engine(EngineOptions options = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  /// Registers a struct or enum. References to other types are checked when a codec is made,
  /// so types may be added in any order.
  Status add(TypeDesc desc);
  template <class T>
  Status add(const Struct<T>& builder) {
    return add(TypeDesc(builder.desc()));
  }
  template <class E>
  Status add(const Enum<E>& builder) {
    return add(TypeDesc(builder.desc()));
  }

  /// Registers the structs and enums of a schema text (docs/schema.md), all or none. No C++
  /// type stands behind them: jitser lays them out as C++ would lay out the same struct of
  /// standard types, and their codecs, by name, read into and write from a jitser::Object of
  /// the codec's type(), which must be destroyed before the Engine. Errors name the line and
  /// column.
  Status load_schema(std::string_view text);
  /// Loads the schema file at `path` as load_schema loads text; errors start with the path
  /// (`order.jitser, line 3, column 7: ...`), and a file that cannot be read is cannot_read.
  /// A `.proto` file is for jitser::load_proto (<jitser/proto.h>): here it is unsupported.
  Status load_schema_file(const std::string& path);

  /// The codec for a registered type and format; made once, then shared.
  Result<DynCodec> codec(std::string_view type_name, Format format);
  template <class T>
  Result<Codec<T>> codec(Format format) {
    Result<DynCodec> dyn = codec(std::type_index(typeid(T)), format);
    if (!dyn) return dyn.status();
    return Codec<T>(*dyn);
  }

  /// Compiles now, waiting for any compilation already under way, the codecs `scope` names:
  /// by default every codec made so far. A codec's compiled code covers every type its type
  /// reaches, so nested types need no codec of their own. Returns the first failure; failed
  /// codecs keep working on the interpreter. Does nothing when the policy is Off.
  Status compile_all(const CompileScope& scope = {});
  /// The policy in force, after JITSER_JIT.
  JitPolicy jit_policy() const;
  /// Statistics of every codec made so far.
  std::vector<CodecStats> stats() const;

  /// Registered types, in registration order.
  std::vector<const TypeDesc*> types() const;
  /// The schema fingerprint of a registered type: xxHash64 of its schema_text.
  Result<std::uint64_t> fingerprint(std::string_view type_name);
  /// The canonical schema text of a registered type and the types it reaches; comparing two
  /// programs' texts shows why their fingerprints differ.
  Result<std::string> schema_text(std::string_view type_name);

 private:
  Result<DynCodec> codec(std::type_index cpp_type, Format format);

  friend struct detail::CodecState;  // calls back for lazy compilation
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace jitser
