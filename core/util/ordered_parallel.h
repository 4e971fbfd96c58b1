// Parallel map with results delivered in input order and bounded memory:
// one producer thread reads items in batches, `threads` workers transform
// them, and the calling thread consumes results strictly in input order.
// At most `max_batches` batches exist at once, so memory stays flat however
// long the input is.
#pragma once

#include <algorithm>
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
  //
  // Items gather in an open batch, closed when it holds `batch_size`, or
  // earlier when a worker is idle: so that items that arrive slowly (games
  // from a network stream) are worked on as they come, not once 64 of them
  // or the end are there, while a fast input still goes in whole batches.
  static void Run(const Options& options, const std::function<bool(In*)>& produce,
                  const std::function<void(In&, Out*)>& work,
                  const std::function<void(Out&)>& consume) {
    State s;
    const size_t max_batches = std::max<size_t>(1, options.max_batches);
    std::thread producer([&] {
      for (;;) {
        In item;
        if (!produce(&item)) break;
        std::unique_lock lock(s.mu);
        s.open.in.push_back(std::move(item));
        if (s.open.in.size() >= options.batch_size) {
          s.space.wait(lock, [&] { return s.in_flight < max_batches; });
          if (!s.open.in.empty()) s.Close();  // unless a worker took it meanwhile
        } else if (s.idle > 0) {
          s.work_ready.notify_one();  // an idle worker takes what there is
        }
      }
      std::lock_guard lock(s.mu);
      if (!s.open.in.empty()) s.Close();  // may exceed max_batches by this one
      s.input_done = true;
      s.work_ready.notify_all();
      s.result_ready.notify_all();
    });
    std::vector<std::thread> workers;
    for (int i = 0; i < std::max(1, options.threads); ++i) {
      workers.emplace_back([&] {
        for (;;) {
          Batch batch;
          {
            std::unique_lock lock(s.mu);
            ++s.idle;
            s.work_ready.wait(lock, [&] {
              return !s.todo.empty() || s.input_done ||
                     (!s.open.in.empty() && s.in_flight < max_batches);
            });
            --s.idle;
            if (s.todo.empty() && !s.open.in.empty()) s.Close();
            if (s.todo.empty()) return;  // the input is done
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
            lock, [&] { return s.done.count(next) || (s.input_done && next >= s.closed); });
        if (!s.done.count(next)) break;
        out = std::move(s.done[next]);
        s.done.erase(next);
      }
      for (Out& o : out) consume(o);
      std::lock_guard lock(s.mu);
      --s.in_flight;
      s.space.notify_one();
      // A worker may wait for room to take the open batch.
      if (s.idle > 0 && !s.open.in.empty()) s.work_ready.notify_one();
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
    Batch open;  // being filled by the producer
    std::deque<Batch> todo;
    std::map<size_t, std::vector<Out>> done;
    size_t in_flight = 0;  // closed batches not yet consumed
    size_t closed = 0;     // batches closed so far: the next one's seq
    int idle = 0;          // workers waiting for work
    bool input_done = false;

    // Under mu: the open batch goes to the workers, in input order.
    void Close() {
      open.seq = closed++;
      ++in_flight;
      todo.push_back(std::move(open));
      open = Batch{};
      work_ready.notify_one();
    }
  };
};

}  // namespace arbiter
