// The registry's entries (Registry.cpp): for the pipeline (PassManager.cpp)
// and the option parser; the public view is PassOptions.h and
// registeredPasses().
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "Pass.h"
#include "ptxopt/transforms/PassOptions.h"

namespace ptxopt::transforms {

/// An option's value, parsed by its type.
struct OptionValue {
  bool flag = false;            // Bool
  int64_t integer = 0;          // Int
  std::string text;             // Enum, and the text of any other
  std::vector<unsigned> list;   // List
};

struct OptionDecl {
  OptionInfo info;
  std::optional<std::string> defaultValue;  // applied by defaultPassOptions(); nullopt: the struct's zero
  void (*set)(PassOptions &, const OptionValue &);
};

struct Registered {
  PassInfo info;
  void (*run)(PassContext &);
  std::vector<OptionDecl> options;
};

/// The passes, in the order --list-passes prints them.
const std::vector<Registered> &registry();
/// -O0, -O1, -O2.
const std::vector<PipelineInfo> &pipelines();
const OptionDecl *findOption(const std::string &name);

}  // namespace ptxopt::transforms
