// One client connection: reads requests, runs each where its route's kind
// says, writes the answers in order (pipelined requests wait their turn in
// the connection's buffer). docs/http.md lists the limits it enforces.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <memory>

#include "http/server_state.h"

namespace arbiter::http {

// Serves `socket` on the io thread it belongs to, over TLS when `tls` is
// set; its place in state's connection counts (by `address`) is released
// when it closes.
void ServeConnection(std::shared_ptr<ServerState> state, boost::asio::ip::tcp::socket socket,
                     boost::asio::ip::address address, boost::asio::ssl::context* tls);

}  // namespace arbiter::http
