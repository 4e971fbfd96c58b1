// Parallel map with results delivered in input order and bounded memory:
// one producer thread reads items in batches, `threads` workers transform
// them, and the calling thread consumes results strictly in input order.
// At most `max_batches` batches exist at once, so memory stays flat however
// long the input is.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace arbiter {

template <typename In, typename Out>
class OrderedParallelMap {
 public:
  struct Options {
    int threads = 1;
    size_t batch_size = 64;
    size_t max_batches = 16;
  };
  // `produce(In*)` fills the next item, false at the end of input (called
  // from one thread only). `work(In&, Out*)` may run on any worker.
  // `consume(Out&)` runs on the calling thread, in input order.
  static void Run(const Options& options, const std::function<bool(In*)>& produce,
                  const std::function<void(In&, Out*)>& work,
                  const std::function<void(Out&)>& consume) {
    State s;
    std::thread producer([&] {
      for (size_t seq = 0;; ++seq) {
        Batch batch;
        batch.seq = seq;
        batch.in.resize(options.batch_size);
        size_t n = 0;
        while (n < options.batch_size && produce(&batch.in[n])) ++n;
        batch.in.resize(n);
        std::unique_lock lock(s.mu);
        s.space.wait(lock, [&] { return s.in_flight < options.max_batches; });
        if (n) {
          ++s.in_flight;
          s.todo.push_back(std::move(batch));
          s.work_ready.notify_one();
        }
        if (n < options.batch_size) {
          s.total_batches = n ? seq + 1 : seq;
          s.input_done = true;
          s.work_ready.notify_all();
          s.result_ready.notify_all();
          return;
        }
      }
    });
    std::vector<std::thread> workers;
    for (int i = 0; i < std::max(1, options.threads); ++i) {
      workers.emplace_back([&] {
        for (;;) {
          Batch batch;
          {
            std::unique_lock lock(s.mu);
            s.work_ready.wait(lock, [&] { return !s.todo.empty() || s.input_done; });
            if (s.todo.empty()) return;
            batch = std::move(s.todo.front());
            s.todo.pop_front();
          }
          batch.out.resize(batch.in.size());
          for (size_t k = 0; k < batch.in.size(); ++k) work(batch.in[k], &batch.out[k]);
          batch.in.clear();
          std::lock_guard lock(s.mu);
          s.done.emplace(batch.seq, std::move(batch.out));
          s.result_ready.notify_one();
        }
      });
    }
    for (size_t next = 0;; ++next) {
      std::vector<Out> out;
      {
        std::unique_lock lock(s.mu);
        s.result_ready.wait(
            lock, [&] { return s.done.count(next) || (s.input_done && next >= s.total_batches); });
        if (!s.done.count(next)) break;
        out = std::move(s.done[next]);
        s.done.erase(next);
      }
      for (Out& o : out) consume(o);
      std::lock_guard lock(s.mu);
      --s.in_flight;
      s.space.notify_one();
    }
    producer.join();
    for (std::thread& t : workers) t.join();
  }

 private:
  struct Batch {
    size_t seq = 0;
    std::vector<In> in;
    std::vector<Out> out;
  };
  struct State {
    std::mutex mu;
    std::condition_variable space, work_ready, result_ready;
    std::deque<Batch> todo;
    std::map<size_t, std::vector<Out>> done;
    size_t in_flight = 0;
    size_t total_batches = 0;
    bool input_done = false;
  };
};

}  // namespace arbiter
