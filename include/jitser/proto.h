// .proto files as jitser types, read with libprotobuf's own compiler, so that what protoc
// accepts jitser reads the same way: imports resolved against search paths, and the
// well-known types (`google/protobuf/*.proto`) found without being asked.
//
//   jitser::Engine engine;
//   jitser::Status s = jitser::load_proto(engine, "shop/v1/order.proto", {"protos/"});
//   auto codec = engine.codec("shop.v1.Order", jitser::Format::Json);
//
// The messages and enums of a file become jitser schema text (docs/schema.md), which the Engine
// loads like any other; docs/proto.md says what each Protobuf construct becomes. This header is
// a library of its own, libjitser_proto (CMake: `find_package(jitser COMPONENTS proto)`, target
// jitser::proto; pkg-config: jitser-proto), so that programs without .proto files do not load
// libprotoc.
#pragma once

#include <string>
#include <vector>

#include <jitser/engine.h>
#include <jitser/export.h>
#include <jitser/status.h>

namespace jitser {

/// The schema text of the messages and enums that `file` declares and of every type they use,
/// each named by its full name (`shop.v1.Order`). `file` is found in the import paths, in
/// order, or else as a path of its own, whose directory then serves its imports too. Errors,
/// protoc's and jitser's (a group, an extension, a map with bool keys), name the file, line and
/// column.
JITSER_API Result<std::string> proto_schema_text(const std::string& file,
                                                 const std::vector<std::string>& import_paths = {});

/// Loads the types of `file`, as proto_schema_text translates them, into `engine`: all or none.
JITSER_API Status load_proto(Engine& engine, const std::string& file,
                             const std::vector<std::string>& import_paths = {});

}  // namespace jitser
