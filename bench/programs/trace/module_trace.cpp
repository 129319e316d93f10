// module_trace: a CUPTI injection library (CUDA_INJECTION64_PATH=<this .so>;
// the CUDA driver loads it at cuInit and calls InitializeInjection) that shows
// whether a program loads a module or an image inside its timed region.
//
// It records, with CUPTI timestamps (ns): every module the driver loads
// (resource callback CUPTI_CBID_RESOURCE_MODULE_LOADED), every call of the
// driver's load entry points (cuModuleLoad*, cuLibraryLoad*: what cudart or a
// launch shim asks for) and every cuEventRecord / cuEventRecordWithFlags
// (and _ptsz) call. The benchmark programs of bench/programs record exactly
// two events, around their GPU part, so the time between the first and the
// last record is the timed region. At exit it prints each record and a
// summary line:
//
//   module_trace: summary modules_loaded=N loads_in_timed_region=N
//                 api_loads_in_timed_region=N event_records=N
//
// (on one line; also timed_region_us and page_faults_in_timed_region, the
// process's minor and major page faults between the first and the last
// event record) to the file named by MODULE_TRACE_OUT, else to stderr.
// "NA" where fewer than two event records were seen. MODULE_TRACE_ALL=1
// also records the entry and exit of every other driver call (what a
// launch costs the host, call by call; the callbacks slow every call).
// MODULE_TRACE_KERNELS=1 also records every kernel's start and end on the
// GPU (CUPTI activity records, on the same clock as the calls): the lines
// "kernel start_us=.. end_us=.. name" and, in the summary, gpu_idle_us (the
// timed region's time with no kernel running: the launches' host cost where
// it shows) and first_kernel_us (from the first event record to the first
// kernel's start).
#include <cupti.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace {

enum class Kind { ModuleLoaded, ApiLoad, EventRecord, ApiEnter, ApiExit, Kernel };

struct Record {
  uint64_t t;
  Kind kind;
  uint32_t moduleId;
  size_t cubinSize;
  const char *name;  // a CUPTI global constant, or a literal (a kernel's: CUPTI's, kept until exit)
  uint64_t end = 0;  // a kernel's end
  long faults = 0;   // an event record's: the process's page faults (minor and major) so far
};

std::mutex mu;
std::vector<Record> records;
CUpti_SubscriberHandle subscriber;
bool failed = false;  // a CUPTI call failed: the counts are not to be trusted

const CUpti_CallbackId kEventRecords[] = {
    CUPTI_DRIVER_TRACE_CBID_cuEventRecord, CUPTI_DRIVER_TRACE_CBID_cuEventRecord_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags, CUPTI_DRIVER_TRACE_CBID_cuEventRecordWithFlags_ptsz};
const CUpti_CallbackId kLoads[] = {
    CUPTI_DRIVER_TRACE_CBID_cuModuleLoad,          CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData,
    CUPTI_DRIVER_TRACE_CBID_cuModuleLoadDataEx,    CUPTI_DRIVER_TRACE_CBID_cuModuleLoadFatBinary,
    CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData,     CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadFromFile};

bool isEventRecord(CUpti_CallbackId cbid) {
  for (CUpti_CallbackId id : kEventRecords)
    if (id == cbid) return true;
  return false;
}

void add(const Record &r) {
  std::lock_guard<std::mutex> lock(mu);
  records.push_back(r);
}

void CUPTIAPI onCallback(void *, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void *data) {
  uint64_t t = 0;
  cuptiGetTimestamp(&t);
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
    const auto *rd = static_cast<const CUpti_ResourceData *>(data);
    const auto *md = rd ? static_cast<const CUpti_ModuleResourceData *>(rd->resourceDescriptor) : nullptr;
    add({t, Kind::ModuleLoaded, md ? md->moduleId : 0u, md ? md->cubinSize : size_t(0), "module_loaded"});
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    const auto *cd = static_cast<const CUpti_CallbackData *>(data);
    if (!cd) return;
    bool known = isEventRecord(cbid);
    for (CUpti_CallbackId id : kLoads) known |= id == cbid;
    if (!known) {  // MODULE_TRACE_ALL: any other call, entry and exit
      add({t, cd->callbackSite == CUPTI_API_ENTER ? Kind::ApiEnter : Kind::ApiExit, 0u, size_t(0), cd->functionName});
      return;
    }
    if (cd->callbackSite != CUPTI_API_ENTER) return;
    Record r{t, isEventRecord(cbid) ? Kind::EventRecord : Kind::ApiLoad, 0u, size_t(0), cd->functionName};
    if (r.kind == Kind::EventRecord) {
      rusage ru{};
      getrusage(RUSAGE_SELF, &ru);
      r.faults = ru.ru_minflt + ru.ru_majflt;
    }
    add(r);
  }
}

// CUPTI activity buffers (MODULE_TRACE_KERNELS): kernel records only.
void CUPTIAPI bufferRequested(uint8_t **buffer, size_t *size, size_t *maxRecords) {
  constexpr size_t kBytes = 1 << 20;
  *buffer = static_cast<uint8_t *>(std::aligned_alloc(8, kBytes));
  *size = *buffer ? kBytes : 0;
  *maxRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *buffer, size_t, size_t validSize) {
  CUpti_Activity *a = nullptr;
  while (cuptiActivityGetNextRecord(buffer, validSize, &a) == CUPTI_SUCCESS)
    if (a->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || a->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto *k = reinterpret_cast<const CUpti_ActivityKernel10 *>(a);
      Record r{k->start, Kind::Kernel, 0u, size_t(0), k->name};
      r.end = k->end;
      add(r);
    }
  std::free(buffer);
}

bool kernelsTraced = false;

void report() {
  if (kernelsTraced) cuptiActivityFlushAll(1);
  std::lock_guard<std::mutex> lock(mu);
  const char *path = std::getenv("MODULE_TRACE_OUT");
  FILE *f = path && *path ? std::fopen(path, "w") : nullptr;
  if (!f) f = stderr;
  std::stable_sort(records.begin(), records.end(), [](const Record &a, const Record &b) { return a.t < b.t; });
  uint64_t t0 = records.empty() ? 0 : records.front().t, first = 0, last = 0;
  size_t events = 0, loads = 0, inLoads = 0, inApi = 0;
  long faults = 0;
  for (const Record &r : records)
    if (r.kind == Kind::EventRecord) {
      if (!events++) {
        first = r.t;
        faults = -r.faults;
      }
      last = r.t;
    }
  for (const Record &r : records)
    if (r.kind == Kind::EventRecord && r.t == last) faults += r.faults;
  uint64_t busyUntil = first, idle = 0, firstKernel = 0;
  for (const Record &r : records) {
    const bool inside = events >= 2 && r.t > first && r.t < last;
    if (r.kind == Kind::Kernel) {
      if (events < 2 || r.t < first) continue;
      std::fprintf(f, "module_trace: t_us=%.3f kernel start_us=%.3f end_us=%.3f %s\n", double(r.t - t0) / 1e3,
                   double(r.t - first) / 1e3, double(r.end - first) / 1e3, r.name ? r.name : "?");
      if (!firstKernel) firstKernel = r.t;
      if (r.t > busyUntil) idle += r.t - busyUntil;
      busyUntil = std::max(busyUntil, r.end);
      continue;
    }
    if (r.kind == Kind::ModuleLoaded) {
      ++loads;
      inLoads += inside;
      std::fprintf(f, "module_trace: t_us=%.3f module_loaded id=%u cubin_bytes=%zu%s\n", double(r.t - t0) / 1e3,
                   r.moduleId, r.cubinSize, inside ? " IN_TIMED_REGION" : "");
    } else if (r.kind == Kind::ApiEnter || r.kind == Kind::ApiExit) {
      if (inside)
        std::fprintf(f, "module_trace: t_us=%.3f %s %s\n", double(r.t - t0) / 1e3,
                     r.kind == Kind::ApiEnter ? "enter" : "exit", r.name ? r.name : "?");
    } else {
      inApi += inside && r.kind == Kind::ApiLoad;
      std::fprintf(f, "module_trace: t_us=%.3f %s%s\n", double(r.t - t0) / 1e3, r.name ? r.name : "?",
                   inside && r.kind == Kind::ApiLoad ? " IN_TIMED_REGION" : "");
    }
  }
  if (failed)
    std::fprintf(f, "module_trace: summary CUPTI failed loads_in_timed_region=NA api_loads_in_timed_region=NA\n");
  else if (events >= 2)
    std::fprintf(f,
                 "module_trace: summary modules_loaded=%zu loads_in_timed_region=%zu api_loads_in_timed_region=%zu "
                 "event_records=%zu timed_region_us=%.3f page_faults_in_timed_region=%ld%s\n",
                 loads, inLoads, inApi, events, double(last - first) / 1e3, faults,
                 kernelsTraced && firstKernel
                     ? (" gpu_idle_us=" + std::to_string(double(idle) / 1e3) +
                        " first_kernel_us=" + std::to_string(double(firstKernel - first) / 1e3))
                           .c_str()
                     : "");
  else
    std::fprintf(f,
                 "module_trace: summary modules_loaded=%zu loads_in_timed_region=NA api_loads_in_timed_region=NA "
                 "event_records=%zu\n",
                 loads, events);
  if (f != stderr) std::fclose(f);
}

bool ok(CUptiResult r, const char *what) {
  if (r == CUPTI_SUCCESS) return true;
  const char *s = nullptr;
  cuptiGetResultString(r, &s);
  std::fprintf(stderr, "module_trace: %s failed: %s\n", what, s ? s : "?");
  return false;
}

}  // namespace

// Returns 1 even where CUPTI refuses (another subscriber, an old driver):
// the program runs as without the library, and the summary says NA.
extern "C" int InitializeInjection(void) {
  if (!ok(cuptiSubscribe(&subscriber, (CUpti_CallbackFunc)onCallback, nullptr), "cuptiSubscribe")) {
    failed = true;
    std::atexit(report);
    return 1;
  }
  bool good = ok(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED),
                 "cuptiEnableCallback(MODULE_LOADED)");
  for (CUpti_CallbackId id : kEventRecords)
    good = ok(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id), "cuptiEnableCallback(cuEventRecord*)") && good;
  for (CUpti_CallbackId id : kLoads)
    good = ok(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id), "cuptiEnableCallback(load)") && good;
  if (const char *all = std::getenv("MODULE_TRACE_ALL"); all && *all == '1')
    good = ok(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API), "cuptiEnableDomain(driver API)") && good;
  if (const char *k = std::getenv("MODULE_TRACE_KERNELS"); k && *k == '1') {
    good = ok(cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted), "cuptiActivityRegisterCallbacks") &&
           ok(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "cuptiActivityEnable(kernels)") && good;
    kernelsTraced = true;
  }
  failed = !good;
  std::atexit(report);
  return 1;
}
