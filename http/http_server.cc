// The server's life: binds, starts the io thread (which owns every socket:
// the listener and the connections) and the handler pool, and stops them.
// Why Boost.Beast and how a request flows: docs/http.md.
#include "http/http_server.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/context.hpp>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/serving.h"
#include "common/small_file.h"
#include "http/listener.h"
#include "http/server_state.h"

namespace arbiter::http {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// "host:port" or "[v6]:port".
absl::Status SplitAddress(const std::string& address, std::string* host, int* port) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || !absl::SimpleAtoi(address.substr(colon + 1), port) ||
      *port < 0 || *port > 65535)
    return absl::InvalidArgumentError(
        absl::StrCat("--http ", address, ": give HOST:PORT (port 0 picks a free one)"));
  *host = address.substr(0, colon);
  if (host->size() >= 2 && host->front() == '[' && host->back() == ']')
    *host = host->substr(1, host->size() - 2);
  if (host->empty()) *host = "0.0.0.0";
  return absl::OkStatus();
}

}  // namespace

struct HttpServer::Impl {
  std::shared_ptr<ServerState> state;
  std::unique_ptr<asio::ssl::context> tls;
  // After `state` and `tls`: destroyed before them, with the handlers still
  // queued on it (which hold connections, and their TLS streams).
  asio::io_context io{1};
  std::shared_ptr<Listener> listener;
  std::thread thread;
  int port = 0;
};

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(HttpOptions options,
                                                              Backend& backend) {
  std::string host;
  int port = 0;
  if (absl::Status s = SplitAddress(options.address, &host, &port); !s.ok()) return s;
  if (options.cert_file.empty() != options.key_file.empty())
    return absl::InvalidArgumentError("HTTPS needs both --tls-cert and --tls-key");
  auto impl = std::make_unique<Impl>();
  if (!options.cert_file.empty()) {
    for (const std::string& file : {options.cert_file, options.key_file})
      if (absl::StatusOr<std::string> data = common::ReadSmallFile(file, "TLS file"); !data.ok())
        return data.status();
    impl->tls = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
    boost::system::error_code ec;
    impl->tls->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                               asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                               asio::ssl::context::no_tlsv1_1,
                           ec);
    impl->tls->use_certificate_chain_file(options.cert_file, ec);
    if (!ec) impl->tls->use_private_key_file(options.key_file, asio::ssl::context::pem, ec);
    if (ec)
      return absl::InvalidArgumentError(absl::StrCat("--tls-cert ", options.cert_file,
                                                     " / --tls-key ", options.key_file,
                                                     ": not a usable certificate and key"));
  }
  const std::string address = options.address;
  impl->state = std::make_shared<ServerState>(std::move(options), backend);
  ServerState& state = *impl->state;
  if (state.options.metrics)
    state.requests = &prometheus::BuildCounter()
                          .Name("arbiter_http_requests_total")
                          .Help("HTTP requests by route and status")
                          .Register(*state.options.metrics);

  boost::system::error_code ec;
  tcp::resolver resolver(impl->io);
  auto endpoints = resolver.resolve(host, std::to_string(port), tcp::resolver::passive, ec);
  if (ec || endpoints.empty())
    return absl::InvalidArgumentError(absl::StrCat("--http ", address, ": no such host"));
  const tcp::endpoint endpoint = endpoints.begin()->endpoint();
  tcp::acceptor acceptor(impl->io);
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    return absl::UnavailableError(
        absl::StrCat("--http ", address, ": cannot listen there (", ec.message(), ")"));
  impl->port = acceptor.local_endpoint().port();
  if (!state.options.port_file.empty())
    if (absl::Status st = common::WritePortFile(state.options.port_file, impl->port); !st.ok())
      return st;
  impl->listener = std::make_shared<Listener>(impl->state, std::move(acceptor), impl->tls.get());
  impl->listener->Accept();
  impl->thread = std::thread([io = &impl->io] { io->run(); });
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HttpServer::~HttpServer() { Stop(); }

int HttpServer::port() const { return impl_->port; }
bool HttpServer::tls() const { return impl_->tls != nullptr; }

void HttpServer::Stop() {
  if (!impl_->thread.joinable()) return;
  // Closing every connection cancels its stream (a run stops at its next
  // line); the threads of running streams are waited for, then the pool's
  // calls, so that none outlives the backend.
  asio::post(impl_->io, [listener = impl_->listener] { listener->Stop(); });
  {
    ServerState& s = *impl_->state;
    std::unique_lock<std::mutex> lock(s.streams_mu);
    s.streams_done.wait(lock, [&] { return s.streams == 0; });
  }
  impl_->state->pool.join();
  impl_->state->analyze_pool.join();
  impl_->io.stop();
  impl_->thread.join();
  impl_->listener.reset();
}

}  // namespace arbiter::http
