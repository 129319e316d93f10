// Autotuning of one launch shape (PTXOPT_AUTOTUNE=1, docs/RUNTIME.md): the
// first 2*N launches alternate the original and the selected clone, each
// launch running exactly one kernel and being timed; once N timings of each
// are in, the faster (by median) is kept for the shape. Pure bookkeeping, no
// driver: the runtime does the timing and reports it here. Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace ptxopt::rt {

class Autotuner {
public:
  enum class Decision { Undecided, Original, Clone };
  struct Step {
    bool runClone = true;  // launch the selected clone (else the original)
    bool timed = false;    // time this launch and report it with record()
  };

  explicit Autotuner(uint32_t samples = 5) : samples_(samples ? samples : 1) {}

  /// What the next launch of this shape runs. Slots 0, 2, 4... run the
  /// original, 1, 3, 5... the clone; after 2*N slots, untimed launches run
  /// the clone until the decision is made, then the winner.
  Step next();
  /// Reports the time of a launch that next() asked to time. Returns true
  /// when this report completed the decision.
  bool record(bool clone, float ms);
  /// Stops tuning (a timing failed): the clone is kept.
  void abandon();
  Decision decision() const;
  /// "clone 1.234 ms vs original 2.345 ms (median of 5 each)".
  std::string summary() const;

private:
  static float median(std::vector<float> v);
  mutable std::mutex mu_;
  uint32_t samples_;
  uint32_t issued_ = 0;
  std::vector<float> original_, clone_;
  Decision decision_ = Decision::Undecided;
};

}  // namespace ptxopt::rt
