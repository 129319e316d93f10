// Helpers of ptx-nvcc-cicc (src/driver/nvcc_cicc.cpp) that its clone-image
// steps (src/driver/nvcc_images.cpp) share: environment, the compile's state
// directory, files, processes.
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ptxnvcc {

std::string env(const char *name);
void warn(const std::string &msg);
/// FNV-1a, as hex: names of marker and record files.
std::string shortHash(const std::string &text);
/// The directory shared by the cicc, ptxas and fatbinary steps of one
/// tools/ptx-nvcc run (PTXOPT_NVCC_STATE).
std::string stateDir();
/// One warning per reason and compile.
void warnOnce(const std::string &key, const std::string &msg);
/// Records that ptx-nvcc changed something (tools/ptx-nvcc retries with
/// plain nvcc when a build fails after a change).
void note(const std::string &what);
std::optional<std::string> readFile(const std::string &path);
/// Through a temporary file and a rename.
void writeFile(const std::string &path, const std::string &text);
bool isFile(const std::string &p);
/// Runs argv[0] (a path) with stdout and stderr to `log` (empty: inherited).
/// The exit status; 128 + signal; 127 when it cannot be started.
int spawn(const std::vector<std::string> &argv, const std::string &log = "");
/// spawn in two halves: start gives the process (-1 when it cannot be
/// started), finish waits for it and gives spawn's status.
pid_t start(const std::vector<std::string> &argv, const std::string &log = "");
int finish(pid_t pid);
std::optional<std::string> argValue(const std::vector<std::string> &args, const std::string &name);
std::string absPath(const std::string &p);

// The clone images (ptx-nvcc's default, --ptxopt-no-clone-images turns them off; nvcc_images.cpp).

/// Whether the clone images are asked for (PTXOPT_NVCC_CLONE_IMAGES=1).
bool cloneImagesOn();
/// After ptx-opt gave `optimized` (clones and a manifest) for nvcc's
/// `original` at `ptxPath`: writes one PTX module per clone into the state
/// directory, for the ptxas step. False (nothing written) when the module
/// cannot be split: module-scope data (.global, .const, textures) would be
/// two copies in two images.
bool splitClones(const std::string &ptxPath, const std::string &optimized, const std::string &manifestJson);
/// The header the fatbinary step writes for the translation unit whose host
/// stub includes `fatbinC` (cicc's --include_file_name): the clones' images.
std::string imagesHeader(const std::string &fatbinC);
/// Late images (PTXOPT_NVCC_LATE_IMAGES=1, set by tools/ptx-nvcc where it
/// can add objects to the build): the clones are compiled beside nvcc's later
/// steps, into an object linked in afterwards, not included by the host code.
bool lateImagesOn();
/// Late images: the symbol of the translation unit's block of images (unique
/// to the unit's compile: `moduleIdFile` is cicc's --module_id_file_name),
/// recorded for the fatbinary step.
std::string imagesSymbol(const std::string &fatbinC, const std::string &moduleIdFile);
/// Whether the PTX module can be split into clone images (no module-scope
/// data: .global, .const, textures, ...).
bool splittable(const std::string &ptx);
/// Late images: the lock file a job holds while it runs (kind: its step;
/// key: the file it makes), starting one (false when it could not be
/// started: the caller does the work itself), waiting for one (at once when
/// there is none).
std::string jobLock(const std::string &kind, const std::string &key);
bool startJob(const std::string &lock, const std::function<void()> &work);
void waitJob(const std::string &lock);
/// Late images, the fatbinary step of the translation unit whose host code
/// includes `fatbinC`: when its ptx-opt runs were jobs (nvcc_cicc.cpp),
/// waits for them and installs the hook block in its host stubs.
void hookDeferred(const std::string &fatbinC);
/// Every late images symbol starts with this.
inline constexpr const char *kImagesSymbolPrefix = "__ptxopt_nvcc_imgs_";
/// ptx-nvcc-cicc invoked as ptxas / fatbinary.
int ptxasMain(const std::vector<std::string> &args);
int fatbinaryMain(const std::vector<std::string> &args);

}  // namespace ptxnvcc
