// HandleMap: a pointer -> value map the launch path of ptx-nvcc builds
// reads without a lock (runtime/NvccShim.cpp: a cudaKernel_t or a host
// function's address -> its kernel with clones). Every launch of the
// program looks its kernel up here, so a lookup is a few loads: open
// addressing over a power-of-two table of atomic slots, no lock, no
// allocation. An insertion (once per hooked kernel) writes the value before
// the key; a full table is replaced by one twice as large, and the old one
// is kept (a reader may still be in it: tables are never freed, like the
// shim's registry).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

// A program's first launches find the shim cold: its code pages out of the
// TLB, its lines out of the caches. The functions every first launch runs
// are marked hot, which GCC and Clang place in .text.hot, together in one
// or two pages (docs/NVCC.md, "The launch path").
#define PTXOPT_HOT __attribute__((hot))

namespace ptxopt::rt {

template <typename V>
class HandleMap {
public:
  // The first table is the map's own (the shim's registry holds the map: one page; NvccShim.cpp registry()).
  HandleMap() { table_.store(&first_, std::memory_order_release); }

  PTXOPT_HOT V *find(const void *key) const {
    const Table *t = table_.load(std::memory_order_acquire);
    for (size_t i = hashOf(key) & t->mask;; i = (i + 1) & t->mask) {
      const void *k = t->slots[i].key.load(std::memory_order_acquire);
      if (k == key) return t->slots[i].kernel.load(std::memory_order_relaxed);
      if (!k) return nullptr;
    }
  }

  /// Writers take the map's own mutex (a plain one: a kernel's first
  /// launch adds its handle, and pthread_mutex_lock is code every program
  /// already ran, unlike the registry's reader-writer lock).
  PTXOPT_HOT void insert(const void *key, V *k) {
    std::lock_guard<std::mutex> lock(writeMu_);
    Table *t = table_.load(std::memory_order_relaxed);
    if ((count_ + 1) * 2 > t->mask + 1) {
      Table *bigger = newTable((t->mask + 1) * 2);
      for (size_t i = 0; i <= t->mask; ++i)
        if (const void *old = t->slots[i].key.load(std::memory_order_relaxed))
          put(*bigger, old, t->slots[i].kernel.load(std::memory_order_relaxed));
      table_.store(bigger, std::memory_order_release);
      t = bigger;
    }
    if (put(*t, key, k)) ++count_;
  }

private:
  struct Slot {
    std::atomic<const void *> key{nullptr};
    std::atomic<V *> kernel{nullptr};
  };
  struct Table {
    size_t mask;
    Slot *slots;
  };
  static constexpr size_t kFirstSlots = 64;
  static size_t hashOf(const void *p) {
    uint64_t x = reinterpret_cast<uintptr_t>(p);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    return static_cast<size_t>(x ^ (x >> 33));
  }
  Table *newTable(size_t n) {
    slots_.push_back(std::make_unique<Slot[]>(n));
    tables_.push_back(std::make_unique<Table>(Table{n - 1, slots_.back().get()}));
    return tables_.back().get();
  }
  /// True when `key` is new.
  static bool put(Table &t, const void *key, V *k) {
    for (size_t i = hashOf(key) & t.mask;; i = (i + 1) & t.mask) {
      const void *old = t.slots[i].key.load(std::memory_order_relaxed);
      if (old == key) {
        t.slots[i].kernel.store(k, std::memory_order_release);
        return false;
      }
      if (!old) {
        t.slots[i].kernel.store(k, std::memory_order_relaxed);
        t.slots[i].key.store(key, std::memory_order_release);
        return true;
      }
    }
  }
  std::atomic<Table *> table_{nullptr};
  Slot firstSlots_[kFirstSlots];
  Table first_{kFirstSlots - 1, firstSlots_};
  std::mutex writeMu_;
  std::vector<std::unique_ptr<Slot[]>> slots_;  // the larger tables' slots, under writeMu_
  std::vector<std::unique_ptr<Table>> tables_;  // under writeMu_
  size_t count_ = 0;                             // under writeMu_
};

}  // namespace ptxopt::rt
