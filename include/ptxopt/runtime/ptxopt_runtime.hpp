// libptxopt's C++ API: RAII wrappers over the C API (ptxopt_runtime.h).
//
// Errors are exceptions: every failing call throws ptxopt::rt::Error, whose
// what() is ptxopt_last_error()'s text and status() the C status code.
//
//   auto mod = ptxopt::rt::Module::fromFile("matadd.ptx");
//   auto k = mod.kernel("_Z10matadd_intPKiS0_Pi");
//   k.launch({512}, {512}, 0, stream, a, b, c);   // a, b, c: device pointers
//   std::puts(k.lastVariant());
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "ptxopt/runtime/ptxopt_runtime.h"

namespace ptxopt::rt {

class Error : public std::runtime_error {
public:
  Error(ptxopt_status s, const std::string &what) : std::runtime_error(what), status_(s) {}
  ptxopt_status status() const { return status_; }

private:
  ptxopt_status status_;
};

/// Throws Error for a failed status.
inline void check(ptxopt_status s) {
  if (s != PTXOPT_SUCCESS) throw Error(s, std::string(ptxopt_status_name(s)) + ": " + ptxopt_last_error());
}

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  Dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

struct Options {
  std::string passes = "-O2";  // optimizer pipeline
  bool disable = false;        // originals only
  std::string name;            // module name in messages ("" = default)
};

/// A kernel of a Module (a non-owning handle, valid while its Module lives).
class Kernel {
public:
  Kernel() = default;
  explicit Kernel(ptxopt_kernel k) : k_(k) {}

  /// cuLaunchKernel style: params[i] points to argument i.
  void launch(Dim3 grid, Dim3 block, unsigned sharedBytes, CUstream stream, void **params) const {
    check(ptxopt_launch(k_, grid.x, grid.y, grid.z, block.x, block.y, block.z, sharedBytes, stream, params));
  }
  /// The arguments themselves; each must have the kernel parameter's exact
  /// type and size (a 32-bit int for an .s32 parameter, a pointer for .u64).
  template <class... Args>
  void launch(Dim3 grid, Dim3 block, unsigned sharedBytes, CUstream stream, Args &...args) const {
    void *params[] = {static_cast<void *>(&args)..., nullptr};
    launch(grid, block, sharedBytes, stream, params);
  }

  /// The kernel the calling thread's last launch ran (clone or original).
  const char *lastVariant() const { return ptxopt_kernel_last_variant(k_); }
  /// Its kind: "original", "remap", "swap", "group", ...
  const char *lastVariantKind() const { return ptxopt_kernel_last_variant_kind(k_); }
  int variantCount() const { return ptxopt_kernel_variant_count(k_); }
  ptxopt_kernel handle() const { return k_; }

private:
  ptxopt_kernel k_ = nullptr;
};

/// A loaded module; unloaded by the destructor. Movable, not copyable.
class Module {
public:
  Module() = default;
  explicit Module(ptxopt_module m) : m_(m) {}
  Module(Module &&o) noexcept : m_(std::exchange(o.m_, nullptr)) {}
  Module &operator=(Module &&o) noexcept {
    if (this != &o) {
      reset();
      m_ = std::exchange(o.m_, nullptr);
    }
    return *this;
  }
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module() { reset(); }

  /// Optimizes PTX text in-process and loads it.
  static Module fromPtx(std::string_view ptx, const Options &o = {}) {
    ptxopt_options c = toC(o);
    ptxopt_module m = nullptr;
    check(ptxopt_module_load_ptx(&m, ptx.data(), ptx.size(), &c));
    return Module(m);
  }
  static Module fromFile(const std::string &path, const Options &o = {}) {
    ptxopt_options c = toC(o);
    ptxopt_module m = nullptr;
    check(ptxopt_module_load_file(&m, path.c_str(), &c));
    return Module(m);
  }
  /// A cubin, a fatbin or NUL-terminated PTX, loaded as is.
  static Module fromImage(const void *image, const Options &o = {}) {
    ptxopt_options c = toC(o);
    ptxopt_module m = nullptr;
    check(ptxopt_module_load_image(&m, image, &c));
    return Module(m);
  }

  /// The kernel of the original (.entry) name; throws if it is not there.
  Kernel kernel(const std::string &name) const {
    ptxopt_kernel k = nullptr;
    check(ptxopt_module_get_kernel(&k, m_, name.c_str()));
    return Kernel(k);
  }
  ptxopt_module handle() const { return m_; }
  void reset() {
    if (m_) ptxopt_module_unload(std::exchange(m_, nullptr));
  }

private:
  static ptxopt_options toC(const Options &o) {
    return ptxopt_options{o.passes.c_str(), o.disable ? 1 : 0, o.name.empty() ? nullptr : o.name.c_str()};
  }
  ptxopt_module m_ = nullptr;
};

}  // namespace ptxopt::rt
