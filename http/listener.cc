#include "http/listener.h"

#include <boost/asio/write.hpp>
#include <vector>

#include "http/connection.h"

namespace arbiter::http {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

void Listener::Accept() {
  acceptor_.async_accept(
      [self = shared_from_this()](boost::system::error_code ec, tcp::socket socket) {
        if (self->state_->stopping || !self->acceptor_.is_open()) return;
        if (ec) {
          // Out of descriptors, say: try again rather than stop serving.
          if (ec != asio::error::operation_aborted) self->Accept();
          return;
        }
        boost::system::error_code e;
        const asio::ip::address address = socket.remote_endpoint(e).address();
        ServerState& s = *self->state_;
        const HttpLimits& limits = s.options.limits;
        auto held = s.by_address.find(address);
        if (e || s.connections >= limits.max_connections ||
            (held != s.by_address.end() && held->second >= limits.max_per_address)) {
          // Small enough for a new socket's buffer: written without waiting.
          // Over TLS there is no handshake to write it in, so only the close.
          static constexpr std::string_view kBusy =
              "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
              "Content-Length: 136\r\nConnection: close\r\nRetry-After: 1\r\n\r\n"
              "{\"type\": \"failure\", \"error\": {\"code\": 503, \"status\": \"UNAVAILABLE\", "
              "\"message\": \"too many connections to this server; try again later\"}}\n";
          if (!self->tls_) {
            socket.non_blocking(true, e);
            asio::write(socket, asio::buffer(kBusy.data(), kBusy.size()), e);
          }
          s.Count("other", 503);
          socket.shutdown(tcp::socket::shutdown_both, e);
          socket.close(e);
        } else {
          ServeConnection(self->state_, std::move(socket), address, self->tls_);
        }
        self->Accept();
      });
}

void Listener::Stop() {
  state_->stopping = true;
  boost::system::error_code e;
  acceptor_.close(e);
  std::vector<std::shared_ptr<ConnectionBase>> live;
  for (auto& [raw, weak] : state_->live)
    if (auto c = weak.lock()) live.push_back(std::move(c));
  for (auto& c : live) c->Close();
}

}  // namespace arbiter::http
