// .proto files as jitser types, read with libprotobuf's own compiler (its Importer), so that
// what protoc accepts jitser reads the same way: imports resolved against search paths, and
// the well-known types (`google/protobuf/*.proto`) found without being asked, from the
// descriptors compiled into libprotobuf.
//
// The importer translates the messages and enums of a file into jitser's schema language
// (docs/schema.md), which the Engine then loads like any schema text; docs/proto.md says how
// each Protobuf construct maps. It is its own library (jitser_proto), so that programs without
// .proto files do not link libprotoc.
#pragma once

#include <string>
#include <vector>

#include <jitser/engine.h>
#include <jitser/status.h>

namespace jitser {

/// The schema text of the messages and enums that `file` declares and of every type they use,
/// each named by its full name (`shop.v1.Order`). Errors, protoc's and jitser's (a group, an
/// extension, a map with bool keys), name the file, line and column.
Result<std::string> proto_schema_text(const std::string& file,
                                      const std::vector<std::string>& import_paths = {});

/// Loads the types of `file` (as proto_schema_text translates them) into `engine`: all or none.
Status load_proto(Engine& engine, const std::string& file,
                  const std::vector<std::string>& import_paths = {});

}  // namespace jitser
