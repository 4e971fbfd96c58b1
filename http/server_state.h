// What the listener and every connection share. Held by shared_ptr: a
// connection's handlers may still be queued on the io_context when the
// server stops, and must find this alive when they are destroyed.
#pragma once

#include <atomic>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/thread_pool.hpp>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "http/http_server.h"
#include "http/routes.h"
#include "prometheus/counter.h"

namespace arbiter::http {

// A connection, as the listener knows it: closed when the server stops.
class ConnectionBase {
 public:
  virtual ~ConnectionBase() = default;
  virtual void Close() = 0;
};

struct ServerState {
  ServerState(HttpOptions o, Backend& backend)
      : options(std::move(o)),
        routes(options, backend),
        pool(size_t(std::max(1, options.threads))),
        analyze_pool(size_t(
            std::max(1, options.analyze_threads ? options.analyze_threads : options.threads))) {}

  const HttpOptions options;
  Routes routes;
  // The blocking backend calls of short routes: positions on one pool,
  // the rest on the other (HttpOptions::analyze_threads says why).
  boost::asio::thread_pool pool;
  boost::asio::thread_pool analyze_pool;
  prometheus::Family<prometheus::Counter>* requests = nullptr;

  // io thread only: connections held, in all and by client address, and
  // the live ones (to close them when the server stops).
  int connections = 0;
  std::map<boost::asio::ip::address, int> by_address;
  std::unordered_map<ConnectionBase*, std::weak_ptr<ConnectionBase>> live;
  bool stopping = false;

  // Stream threads running (any thread); Stop() waits for none.
  std::mutex streams_mu;
  std::condition_variable streams_done;
  int streams = 0;

  // A stream thread may start (false: max_streams are running).
  bool TakeStream() {
    std::lock_guard<std::mutex> lock(streams_mu);
    if (streams >= options.limits.max_streams) return false;
    ++streams;
    return true;
  }
  void EndStream() {
    std::lock_guard<std::mutex> lock(streams_mu);
    --streams;
    streams_done.notify_all();
  }

  void Count(const std::string& route, int status) {
    if (requests) requests->Add({{"route", route}, {"code", std::to_string(status)}}).Increment();
  }
};

}  // namespace arbiter::http
