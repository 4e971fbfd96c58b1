#include "server/arbiter_service.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "core/io/byte_source.h"
#include "core/pgn/pgn_reader.h"
#include "proto/convert.h"

namespace arbiter::coordinator {
namespace {

// How long a failed stream waits for its reader to end on its own.
constexpr auto kReaderGrace = std::chrono::seconds(2);

grpc::Status ToGrpc(const absl::Status& s) {
  return s.ok() ? grpc::Status::OK
                : grpc::Status(grpc::StatusCode(int(s.code())), std::string(s.message()));
}

// A record sent by a client must stay within the limits the PGN reader
// enforces on files (core/pgn/pgn_reader.h): the work and memory a game may
// cost do not depend on how it arrived. The message says what; the caller
// says which game (an RPC error names it, an error verdict carries it).
absl::Status CheckRecord(const v1::GameRecord& r) {
  if (const size_t plies = wire::PliesIn(r); plies > PgnReader::kMaxPlies)
    return absl::ResourceExhaustedError(
        absl::StrCat(plies, " plies, more than ", PgnReader::kMaxPlies));
  for (const v1::GameRecord::Tag& t : r.tags())
    if (t.name().size() + t.value().size() > PgnReader::kMaxTagBytes)
      return absl::ResourceExhaustedError(
          absl::StrCat("a tag of more than ", PgnReader::kMaxTagBytes, " bytes"));
  for (const v1::GameRecord::Annotation& a : r.annotations())
    if (a.comment().size() > PgnReader::kMaxCommentBytes)
      return absl::ResourceExhaustedError(
          absl::StrCat("a comment of more than ", PgnReader::kMaxCommentBytes, " bytes"));
  return absl::OkStatus();
}

// In a stream a record over the limits becomes an error verdict, like any
// unreadable game, and the stream goes on: the record the worker gets (its
// bytes as the client sent them when within the limits).
std::string Checked(const v1::GameRecord& r, std::string bytes) {
  if (absl::Status s = CheckRecord(r); !s.ok()) {
    v1::GameRecord refused;
    refused.set_index(r.index());
    refused.set_error_code(int(s.code()));
    refused.set_error_message(std::string(s.message()));
    return refused.SerializeAsString();
  }
  return bytes;
}

// A write the stream guard watches: one the client leaves blocked past the
// stall timeout gets the stream cancelled.
template <typename Writer, typename Message>
bool GuardedWrite(StreamGuard::Slot& slot, Writer& writer, const Message& message) {
  slot.BeginWrite();
  const bool written = writer.Write(message);
  slot.EndWrite();
  return written;
}

}  // namespace

absl::Status CheckOptions(const RequestLimits& limits, const v1::SearchOptions& options) {
  if (absl::Status s = wire::FromProto(options).status(); !s.ok()) return s;
  if (options.budget() > limits.max_budget)
    return absl::ResourceExhaustedError(absl::StrCat("budget ", options.budget(),
                                                     " exceeds this coordinator's ",
                                                     limits.max_budget, " (--max-budget)"));
  return absl::OkStatus();
}

absl::Status CheckAnalyzeRequest(const RequestLimits& limits, const v1::AnalyzeRequest& request) {
  if (absl::Status s = CheckOptions(limits, request.options()); !s.ok()) return s;
  if (request.moves_size() > int(PgnReader::kMaxPlies))
    return absl::ResourceExhaustedError(
        absl::StrCat(request.moves_size(), " moves, more than ", PgnReader::kMaxPlies));
  return absl::OkStatus();
}

grpc::Status ArbiterService::CheckOptions(const v1::SearchOptions& options) const {
  return ToGrpc(coordinator::CheckOptions(limits_, options));
}

absl::StatusOr<common::Caller> ArbiterService::CallerOf(const grpc::ServerContextBase& ctx) const {
  if (!tokens_) return common::Caller{};
  const auto& metadata = ctx.client_metadata();
  auto it = metadata.find("authorization");
  if (it != metadata.end()) {
    std::optional<common::Caller> caller =
        tokens_->CallerOf(std::string_view(it->second.data(), it->second.size()));
    if (caller) return *caller;
  }
  return absl::UnauthenticatedError(std::string(common::kTokenRequired));
}

absl::StatusOr<v1::Job> ArbiterService::VisibleJob(const grpc::ServerContextBase& ctx,
                                                   const std::string& id) const {
  absl::StatusOr<common::Caller> caller = CallerOf(ctx);
  if (!caller.ok()) return caller.status();
  absl::StatusOr<v1::Job> job = jobs_.Get(id);
  if (!job.ok()) return job.status();
  if (caller->role != common::Role::kAdmin && job->owner() != caller->name)
    return absl::NotFoundError(absl::StrCat("no job ", id));  // Jobs::Get's words
  return job;
}

absl::StatusOr<common::Caller> ArbiterService::Submitter(const grpc::ServerContextBase& ctx) const {
  absl::StatusOr<common::Caller> caller = CallerOf(ctx);
  if (!caller.ok()) return caller.status();
  if (caller->role == common::Role::kReader)
    return absl::PermissionDeniedError(
        absl::StrCat("the token of ", caller->name,
                     " is a reader's: jobs need a submitter's or an admin's (docs/security.md)"));
  return caller;
}

grpc::Status ArbiterService::Analyze(grpc::ServerContext* ctx, const v1::AnalyzeRequest* request,
                                     v1::Assessment* out) {
  if (grpc::Status s = ToGrpc(CheckAnalyzeRequest(limits_, *request)); !s.ok()) return s;
  // The client's deadline, when shorter than the coordinator's own.
  return dispatcher_.Analyze(*request, out, ctx->deadline());
}

grpc::Status ArbiterService::VerifyGame(grpc::ServerContext*, const v1::VerifyGameRequest* request,
                                        v1::GameVerdict* out) {
  if (grpc::Status s = CheckOptions(request->options()); !s.ok()) return s;
  if (request->has_record()) {
    if (absl::Status s = CheckRecord(request->record()); !s.ok())
      return ToGrpc(absl::Status(
          s.code(), absl::StrCat("game ", request->record().index(), ": ", s.message())));
  }
  std::shared_ptr<Run> run = dispatcher_.NewRun(request->options());
  v1::BatchGame game;
  game.set_index(1);
  game.set_record(request->has_record()
                      ? request->record().SerializeAsString()
                      : wire::ToProto(ReadFirstGame(request->pgn(), 1,
                                                    wire::ReaderOptionsFor(request->options())))
                            .SerializeAsString());
  run->Add(std::move(game));
  run->Finish();
  std::string verdict;
  if (run->Next(&verdict)) {
    if (out->ParseFromString(verdict)) return grpc::Status::OK;
    return grpc::Status(grpc::StatusCode::DATA_LOSS, "a worker sent a verdict that does not parse");
  }
  if (!run->status().ok()) return ToGrpc(run->status());
  return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the game got no verdict");
}

grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>* ArbiterService::VerifyGames(
    grpc::CallbackServerContext* ctx) {
  return new VerifyGamesStream(ctx, [this](VerifyGamesStream& stream) { return Verify(stream); });
}

grpc::Status ArbiterService::Verify(VerifyGamesStream& stream) {
  grpc::CallbackServerContext* ctx = stream.context();
  absl::StatusOr<std::unique_ptr<StreamGuard::Slot>> slot = streams_.Open(ctx);
  if (!slot.ok()) return ToGrpc(slot.status());
  v1::relay::VerifyGamesRequest request;
  absl::StatusOr<bool> first = stream.Read(&request);
  if (!first.ok()) return ToGrpc(first.status());
  if (!*first) return grpc::Status::OK;  // no games, no verdicts
  if (grpc::Status s = CheckOptions(request.options()); !s.ok()) return s;
  // The first message's options hold for the stream (later ones may omit
  // them), including the rules of untagged PGN games: the workers get them
  // with every batch.
  std::shared_ptr<Run> run = dispatcher_.NewRun(request.options());

  // Ids wait here in input order; verdicts come back in the same order.
  std::mutex ids_mu;
  std::condition_variable reader_ended;
  bool reader_done = false;  // guarded by ids_mu
  std::deque<std::string> ids;
  absl::Status bad_message;  // set by the reader before reader_done
  std::thread reader([&] {
    auto done = [&] {
      std::lock_guard<std::mutex> lock(ids_mu);
      reader_done = true;
      reader_ended.notify_all();
    };
    int64_t n = 0;
    // A record is decoded only to be checked (it must parse, as the public
    // message would, and stay within the reader's limits); a PGN text goes to
    // the worker unread, which reads it as this coordinator would.
    v1::GameRecord record;
    for (;;) {
      for (v1::relay::GameInput& input : *request.mutable_games()) {
        v1::BatchGame game;
        game.set_index(++n);
        if (input.has_record()) {
          if (!record.ParseFromString(input.record())) {
            bad_message = absl::InvalidArgumentError(
                absl::StrCat("message ", stream.messages_read(), " of the stream is not a ",
                             v1::VerifyGamesRequest::descriptor()->full_name()));
            run->Cancel();
            return done();
          }
          game.set_record(Checked(record, std::move(*input.mutable_record())));
        } else {
          game.set_pgn(std::move(*input.mutable_pgn()));
        }
        {
          std::lock_guard<std::mutex> lock(ids_mu);
          ids.push_back(std::move(*input.mutable_id()));
        }
        if (!run->Add(std::move(game))) return done();
      }
      absl::StatusOr<bool> more = stream.Read(&request);
      if (!more.ok()) {
        // Not the end of the input: the stream fails, naming the message.
        bad_message = more.status();
        run->Cancel();
        return done();
      }
      if (!*more) break;
    }
    run->Finish();
    done();
  });
  // As many verdicts per message as are ready (the client may send one game
  // at a time and wait: a ready verdict is never held back).
  constexpr size_t kVerdictsPerMessage = 256;
  std::vector<std::string> ready;
  v1::relay::VerifyGamesResponse response;
  bool client_gone = false;
  while (run->NextReady(kVerdictsPerMessage, &ready)) {
    response.Clear();
    {
      std::lock_guard<std::mutex> lock(ids_mu);
      for (std::string& v : ready) {
        v1::relay::IdentifiedVerdict* item = response.add_verdicts();
        item->set_id(std::move(ids.front()));
        ids.pop_front();
        item->set_verdict(std::move(v));
      }
    }
    ready.clear();
    if (!GuardedWrite(**slot, stream, response)) {
      client_gone = true;
      break;
    }
  }
  // A client that went away, or a cancelled call, stops the reader too.
  if (client_gone || ctx->IsCancelled()) run->Cancel();
  // A refused or stopped run: the reader ends at its next game. Only a
  // reader waiting for a message the client does not send is cut off, by
  // cancelling the call, which the client then sees as CANCELLED instead of
  // the run's status (a worker's refusal, UNAVAILABLE at shutdown).
  if (!run->status().ok()) {
    std::unique_lock<std::mutex> lock(ids_mu);
    if (!reader_ended.wait_for(lock, kReaderGrace, [&] { return reader_done; })) ctx->TryCancel();
  }
  reader.join();
  if (!bad_message.ok()) return ToGrpc(bad_message);
  if (!run->status().ok()) return ToGrpc(run->status());
  if ((*slot)->reaped())
    return grpc::Status(grpc::StatusCode::CANCELLED,
                        "the client did not read its verdicts (--stream-stall-timeout)");
  if (client_gone) return grpc::Status(grpc::StatusCode::CANCELLED, "the client went away");
  return grpc::Status::OK;
}

grpc::Status ArbiterService::UploadJob(grpc::ServerContext* ctx,
                                       grpc::ServerReader<v1::UploadJobRequest>* reader,
                                       v1::Job* out) {
  absl::StatusOr<common::Caller> owner = Submitter(*ctx);
  if (!owner.ok()) return ToGrpc(owner.status());
  absl::StatusOr<std::unique_ptr<StreamGuard::Slot>> slot = streams_.Open(ctx);
  if (!slot.ok()) return ToGrpc(slot.status());
  v1::UploadJobRequest first;
  if (!reader->Read(&first))
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "an upload with no message");
  if (grpc::Status s = CheckOptions(first.options()); !s.ok()) return s;
  v1::UploadJobRequest request;
  absl::StatusOr<v1::Job> job =
      jobs_.Upload(first.name(), first.options(), owner->name, first.data(),
                   [&](std::string* data) -> absl::StatusOr<bool> {
                     if (reader->Read(&request)) {
                       data->swap(*request.mutable_data());
                       return true;
                     }
                     // A stream that ends because the call was cancelled is not a whole file.
                     if (ctx->IsCancelled()) return absl::CancelledError("the upload was cut off");
                     return false;
                   });
  if (!job.ok()) return ToGrpc(job.status());
  *out = *std::move(job);
  return grpc::Status::OK;
}

grpc::Status ArbiterService::SubmitJob(grpc::ServerContext* ctx,
                                       const v1::SubmitJobRequest* request, v1::Job* out) {
  absl::StatusOr<common::Caller> owner = Submitter(*ctx);
  if (!owner.ok()) return ToGrpc(owner.status());
  if (grpc::Status s = CheckOptions(request->options()); !s.ok()) return s;
  absl::StatusOr<v1::Job> job = jobs_.Submit(*request, owner->name);
  if (!job.ok()) return ToGrpc(job.status());
  *out = *std::move(job);
  return grpc::Status::OK;
}

grpc::Status ArbiterService::GetJob(grpc::ServerContext* ctx, const v1::GetJobRequest* request,
                                    v1::Job* out) {
  absl::StatusOr<v1::Job> job = VisibleJob(*ctx, request->id());
  if (!job.ok()) return ToGrpc(job.status());
  *out = *std::move(job);
  return grpc::Status::OK;
}

grpc::Status ArbiterService::ListJobs(grpc::ServerContext* ctx, const v1::ListJobsRequest* request,
                                      v1::ListJobsResponse* out) {
  constexpr int kDefaultLimit = 100;
  absl::StatusOr<common::Caller> caller = CallerOf(*ctx);
  if (!caller.ok()) return ToGrpc(caller.status());
  if (request->limit() < 0)
    return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "limit must not be negative");
  // An admin sees every job; anyone else its own.
  std::optional<std::string> owner;
  if (caller->role != common::Role::kAdmin) owner = caller->name;
  for (v1::Job& job :
       jobs_.List(size_t(request->limit() ? request->limit() : kDefaultLimit), owner))
    *out->add_jobs() = std::move(job);
  return grpc::Status::OK;
}

grpc::Status ArbiterService::CancelJob(grpc::ServerContext* ctx,
                                       const v1::CancelJobRequest* request, v1::Job* out) {
  if (absl::StatusOr<v1::Job> seen = VisibleJob(*ctx, request->id()); !seen.ok())
    return ToGrpc(seen.status());
  absl::StatusOr<v1::Job> job = jobs_.Cancel(request->id());
  if (!job.ok()) return ToGrpc(job.status());
  *out = *std::move(job);
  return grpc::Status::OK;
}

grpc::Status ArbiterService::DeleteJob(grpc::ServerContext* ctx,
                                       const v1::DeleteJobRequest* request,
                                       v1::DeleteJobResponse*) {
  if (absl::StatusOr<v1::Job> seen = VisibleJob(*ctx, request->id()); !seen.ok())
    return ToGrpc(seen.status());
  return ToGrpc(jobs_.Delete(request->id()));
}

grpc::Status ArbiterService::WatchJob(grpc::ServerContext* ctx, const v1::WatchJobRequest* request,
                                      grpc::ServerWriter<v1::Job>* writer) {
  if (absl::StatusOr<v1::Job> seen = VisibleJob(*ctx, request->id()); !seen.ok())
    return ToGrpc(seen.status());
  absl::StatusOr<std::unique_ptr<StreamGuard::Slot>> slot = streams_.Open(ctx);
  if (!slot.ok()) return ToGrpc(slot.status());
  return ToGrpc(jobs_.Watch(
      request->id(), [&](const v1::Job& job) { return GuardedWrite(**slot, *writer, job); },
      [&] { return ctx->IsCancelled(); }));
}

grpc::Status ArbiterService::GetJobResults(grpc::ServerContext* ctx,
                                           const v1::GetJobResultsRequest* request,
                                           grpc::ServerWriter<v1::GameVerdict>* writer) {
  if (absl::StatusOr<v1::Job> seen = VisibleJob(*ctx, request->id()); !seen.ok())
    return ToGrpc(seen.status());
  absl::StatusOr<std::unique_ptr<StreamGuard::Slot>> slot = streams_.Open(ctx);
  if (!slot.ok()) return ToGrpc(slot.status());
  return ToGrpc(jobs_.Results(
      request->id(), request->first_game(), request->follow(),
      [&](const v1::GameVerdict& v) { return GuardedWrite(**slot, *writer, v); },
      [&] { return ctx->IsCancelled(); }));
}

}  // namespace arbiter::coordinator
