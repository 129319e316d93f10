// The _ptxopt extension (pybind11): ptx-opt's pipeline in-process
// (optimize), libptxopt's modules and kernels (the JIT loader: a variant is
// chosen per launch), NVRTC, and the device memory and events the Python
// package (ptxopt/__init__.py) builds RawKernel and DeviceArray on.
// docs/PYTHON.md describes the Python API; this file is its thin C++ layer.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "device.h"
#include "nvrtc.h"
#include "ptxopt/runtime/ptxopt_runtime.h"
#include "ptxopt/transforms/PassManager.h"

namespace py = pybind11;

namespace ptxopt::py_binding {

/// An error of ptx-opt itself (a PTX it cannot parse: file:line:col), of
/// libptxopt, NVRTC or CUDA: raised as ptxopt.Error.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char *remarkKind(Remark::Kind k) {
  return k == Remark::Kind::Applied ? "applied" : k == Remark::Kind::Missed ? "missed" : "note";
}

/// ptx-opt's pipeline: (optimized PTX, remarks as ptx-opt --remarks prints
/// them). Options are the command line's long options without "--".
py::tuple optimize(const std::string &ptx, const std::string &passes, const std::map<std::string, std::string> &options,
                   const std::string &name) {
  PipelineOptions po;
  po.passes = passes;
  for (const auto &[key, value] : options) {  // the registry's options (PassOptions.h): a bad one is an error
    std::string error;
    if (!setPassOption(po.options, key, value, error)) throw Error(error);
  }
  std::string out;
  OptimizeResult result;
  bool ok;
  {
    py::gil_scoped_release release;
    ok = optimizePtx(ptx, name, po, out, result) && result.ok;
  }
  if (!ok) {
    std::string why = result.error.empty() ? "unknown error" : result.error;
    while (!why.empty() && why.back() == '\n') why.pop_back();
    throw Error(why);
  }
  std::vector<std::string> remarks;
  for (const auto &r : result.remarks)
    remarks.push_back((r.location.empty() ? name : r.location) + ": remark: [" + r.pass + "] " + r.function + ": " +
                      remarkKind(r.kind) + ": " + r.message);
  return py::make_tuple(out, remarks);
}

void check(ptxopt_status s) {
  if (s != PTXOPT_SUCCESS) throw Error(std::string(ptxopt_status_name(s)) + ": " + ptxopt_last_error());
}

/// A loaded libptxopt module; unloaded when collected (or by close()).
class Module {
public:
  Module(const std::string &ptx, const std::string &passes, bool disable, const std::string &name) {
    ptxopt_options o{passes.c_str(), disable ? 1 : 0, name.empty() ? nullptr : name.c_str()};
    check(ptxopt_module_load_ptx(&m_, ptx.data(), ptx.size(), &o));
  }
  ~Module() { close(); }
  void close() {
    if (m_) ptxopt_module_unload(m_);
    m_ = nullptr;
  }
  ptxopt_kernel kernel(const std::string &name) const {
    if (!m_) throw Error("the module was closed");
    ptxopt_kernel k = nullptr;
    check(ptxopt_module_get_kernel(&k, m_, name.c_str()));
    return k;
  }

private:
  ptxopt_module m_ = nullptr;
};

/// A kernel of a Module (the Python object keeps its Module alive).
class Kernel {
public:
  explicit Kernel(ptxopt_kernel k) : k_(k) {}
  /// `args`: each argument's bytes, exactly the parameter's size.
  void launch(std::array<unsigned, 3> grid, std::array<unsigned, 3> block, unsigned shared, uintptr_t stream,
              const std::vector<std::string> &args) const {
    std::vector<void *> params;
    for (const auto &a : args) params.push_back(const_cast<char *>(a.data()));
    params.push_back(nullptr);
    check(ptxopt_launch(k_, grid[0], grid[1], grid[2], block[0], block[1], block[2], shared,
                        reinterpret_cast<CUstream>(stream), params.data()));
  }
  std::string lastVariant() const { return ptxopt_kernel_last_variant(k_); }
  std::string lastVariantKind() const { return ptxopt_kernel_last_variant_kind(k_); }
  int variantCount() const { return ptxopt_kernel_variant_count(k_); }

private:
  ptxopt_kernel k_;
};

/// A writable or readable contiguous buffer's pointer and size.
py::buffer_info contiguous(const py::buffer &b, bool writable) {
  py::buffer_info info = b.request(writable);
  ssize_t expect = info.itemsize;
  for (ssize_t d = info.ndim - 1; d >= 0; --d) {
    if (info.strides[d] != expect) throw std::invalid_argument("the host buffer must be C-contiguous");
    expect *= info.shape[d];
  }
  return info;
}

void bindDevice(py::module_ &m) {
  m.def("mem_alloc", &pyext::memAlloc, py::arg("nbytes"), "cudaMalloc; the device address");
  m.def("mem_free", &pyext::memFree, py::arg("ptr"));
  m.def("memcpy_htod", [](uintptr_t dst, const py::buffer &src) {
    py::buffer_info info = contiguous(src, false);
    py::gil_scoped_release release;
    pyext::memcpyHtoD(dst, info.ptr, info.size * info.itemsize);
  }, py::arg("dst"), py::arg("src"));
  m.def("memcpy_dtoh", [](const py::buffer &dst, uintptr_t src) {
    py::buffer_info info = contiguous(dst, true);
    py::gil_scoped_release release;
    pyext::memcpyDtoH(info.ptr, src, info.size * info.itemsize);
  }, py::arg("dst"), py::arg("src"));
  m.def("memset", &pyext::memset, py::arg("ptr"), py::arg("value"), py::arg("nbytes"));
  m.def("synchronize", &pyext::synchronize, py::call_guard<py::gil_scoped_release>(), "cudaDeviceSynchronize");
  m.def("device_count", &pyext::deviceCount, "CUDA devices (0 without a driver or device)");
  m.def("compute_capability", &pyext::computeCapability, "the current device's (major, minor)");
  py::class_<pyext::Event>(m, "Event", "a CUDA event, for timing")
      .def(py::init<>())
      .def("record", &pyext::Event::record, py::arg("stream") = 0)
      .def("synchronize", &pyext::Event::synchronize, py::call_guard<py::gil_scoped_release>())
      .def("elapsed_since", &pyext::Event::elapsedSince, py::arg("start"), "milliseconds from start to this event");
}

}  // namespace ptxopt::py_binding

PYBIND11_MODULE(_ptxopt, m) {
  using namespace ptxopt::py_binding;
  m.doc() = "ptx-opt's C++ layer; use the ptxopt package";
  // Never destroyed: a decref after the interpreter's finalization would be
  // undefined behaviour (pybind11's documentation).
  static auto *error = new py::exception<Error>(m, "Error", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const std::invalid_argument &e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const std::runtime_error &e) {  // Error (ptx-opt, libptxopt), NVRTC, CUDA
      PyErr_SetString(error->ptr(), e.what());
    }
  });
  m.def("optimize", &optimize, py::arg("ptx"), py::arg("passes") = "-O2",
        py::arg("options") = std::map<std::string, std::string>{}, py::arg("name") = "<input>");
  m.def("nvrtc_compile",
        [](const std::string &source, const std::string &name, const std::string &arch,
           const std::vector<std::string> &options, const std::string &programName) {
          ptxopt::pyext::NvrtcResult r;
          {
            py::gil_scoped_release release;
            r = ptxopt::pyext::nvrtcCompile(source, name, arch, options, programName);
          }
          return py::make_tuple(r.ptx, r.log, r.loweredName);
        },
        py::arg("source"), py::arg("name"), py::arg("arch"), py::arg("options") = std::vector<std::string>{},
        py::arg("program_name") = "kernel.cu");
  m.def("nvrtc_version", &ptxopt::pyext::nvrtcVersion);
  py::class_<Kernel>(m, "Kernel")
      .def("launch", &Kernel::launch, py::arg("grid"), py::arg("block"), py::arg("shared_mem"), py::arg("stream"),
           py::arg("args"))
      .def_property_readonly("last_variant", &Kernel::lastVariant)
      .def_property_readonly("last_variant_kind", &Kernel::lastVariantKind)
      .def_property_readonly("variant_count", &Kernel::variantCount);
  py::class_<Module>(m, "Module")
      .def(py::init<const std::string &, const std::string &, bool, const std::string &>(), py::arg("ptx"),
           py::arg("passes") = "-O2", py::arg("disable") = false, py::arg("name") = "")
      .def("close", &Module::close)
      .def("kernel", [](const Module &mod, const std::string &name) { return Kernel(mod.kernel(name)); },
           py::keep_alive<0, 1>());
  bindDevice(m);
}
