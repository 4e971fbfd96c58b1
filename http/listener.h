// Accepts connections on the io thread and hands each to ServeConnection,
// unless the server holds its limit of connections in all or from that
// client's address: then a fixed 503 is written (nothing is read) and the
// connection closed, so that one client cannot hold every socket.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <memory>

#include "http/server_state.h"

namespace arbiter::http {

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(std::shared_ptr<ServerState> state, boost::asio::ip::tcp::acceptor acceptor,
           boost::asio::ssl::context* tls)
      : state_(std::move(state)), acceptor_(std::move(acceptor)), tls_(tls) {}

  void Accept();
  // io thread: stops accepting and closes every connection.
  void Stop();

 private:
  std::shared_ptr<ServerState> state_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::ssl::context* tls_;
};

}  // namespace arbiter::http
