// `arbiter`: the command line. Without --coordinator every subcommand runs the
// engine embedded, in this process.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "client/commands.h"
#include "client/connection.h"
#include "common/command_line.h"
#include "common/exit_code.h"

namespace {

constexpr char kUsage[] =
    "arbiter - rules, with evidence, on how chess games end\n"
    "\n"
    "Usage: arbiter [--coordinator HOST:PORT] <command> [options]\n"
    "\n"
    "Commands:\n"
    "  perft --fen FEN --depth N [--divide] [--json] [--chess960]\n"
    "        Count the leaf nodes of the legal move tree (move generator check).\n"
    "        --divide prints the count below each legal root move (UCI).\n"
    "        --json prints {\"nodes\": N, \"seconds\": S} (with --divide, \"moves\" too).\n"
    "        --chess960 writes castling as king-takes-rook; FENs with Shredder or\n"
    "        X-FEN castling letters switch to Chess960 by themselves.\n"
    "\n"
    "  analyze --fen FEN [--moves UCI...] [--json] [--chess960] [--budget N] [--table-mb M]\n"
    "          [--syzygy DIR]...\n"
    "  analyze FILE|- [--jobs N] [--chess960] [--timing] [--budget N] [--table-mb M]\n"
    "          [--syzygy DIR]...\n"
    "        How the position stands under the FIDE Laws: checkmate, stalemate,\n"
    "        dead position, fivefold, 75 moves; whether each side can still mate\n"
    "        (yes/no/unknown, with proof); threefold and fifty-move claims now\n"
    "        and by which moves. --moves are played from FEN first (they are the\n"
    "        history for repetitions). With FILE, one FEN per line in, one JSON\n"
    "        line per position out, in input order; a FEN may have 6, 4 or 2\n"
    "        fields, and a line \"FEN white\" (or black) asks about that side only,\n"
    "        as CHA does (FILE may be zstd data). --jobs answers N lines at once\n"
    "        (default: every core for a file, named or redirected to stdin; 1 for\n"
    "        a pipe, answered line by line).\n"
    "        --timing adds each record's \"microseconds\".\n"
    "        --budget bounds the search per side (positions, default 200000;\n"
    "        the guided dive gets 20 nodes per unit); --table-mb its table\n"
    "        (default 16).\n"
    "        --syzygy adds \"tablebase\": the Syzygy value under the 50-move rule\n"
    "        (category, dtz, win_within_50) and every move, best first; null when\n"
    "        the tables do not cover the position.\n"
    "\n"
    "  verify PATH|- [--format text|jsonl|csv] [--jobs N] [--budget N] [--table-mb M]\n"
    "         [--shard I/N | --part I/N] [--output FILE] [--syzygy DIR]...\n"
    "         [--fail-on disagree|error] [--report FILE.html] [--annotate-pgn FILE.pgn]\n"
    "        Rule on every game of a PGN file (.pgn or .pgn.zst; - reads stdin):\n"
    "        the correct result under the FIDE Laws, the rule and article that\n"
    "        decide it, and whether the declared result agrees. One record per\n"
    "        game in input order, then a summary. --jobs defaults to all cores;\n"
    "        --budget (default 200000) bounds each mate search. --syzygy adds the\n"
    "        final position's tablebase value and flags declared results that\n"
    "        contradict it (tablebase_contradiction). --shard I/N rules only on\n"
    "        the games numbered g with (g - 1) % N == I (records keep their global\n"
    "        numbers; the summary counts the shard); every shard reads the whole\n"
    "        file. --part I/N reads only part I of the file (a plain .pgn, or a\n"
    "        .pgn.zst of several frames), cut between games near byte I/N; its\n"
    "        records are numbered within the part. --output FILE writes records\n"
    "        and summary to FILE instead of stdout, atomically: a temporary file\n"
    "        beside it is renamed into place only when the run completes.\n"
    "        --fail-on disagree|error (repeatable, or a comma list) exits 1 when a\n"
    "        game's declared result disagrees with the ruling, or a record is an\n"
    "        error; records and summary are written first. Without it, bad games\n"
    "        are records, not failures. When the input ended early (exit 3) the\n"
    "        records of the games read are printed and --output is not written.\n"
    "        --report FILE.html also writes the disputed rulings (disagreements,\n"
    "        uncertain rulings, tablebase contradictions, errors) as one\n"
    "        self-contained HTML page: totals and rulings by rule, then per game\n"
    "        the board where it was ruled, the ruling, its evidence (the mating\n"
    "        line in SAN, the proof of \"cannot mate\", the tablebase's value),\n"
    "        the record's tags and a link to a Lichess or Chess.com game; the\n"
    "        first 2000 such games, and how many more there were.\n"
    "        --annotate-pgn FILE.pgn writes the disputed games back as PGN: their\n"
    "        tags plus [Annotator \"Arbiter\"], their moves as written, and at the\n"
    "        ruled ply a comment {Arbiter: ...} with the ruling and evidence; the\n"
    "        result is the one the record declared. Both files, like --output,\n"
    "        are written atomically when the run completes.\n"
    "\n"
    "  tables build DIR [--signatures SIG,SIG...]\n"
    "        Write the exact retrograde tables (3-4 men; default all 36, else the\n"
    "        signatures given, e.g. KQvK,KRvKP, with their sub-tables) into DIR,\n"
    "        one DIR/SIG.arbt file each, for --tables. Tables already there are\n"
    "        loaded and checked. One line per table: positions, bytes, seconds,\n"
    "        loaded or generated.\n"
    "\n"
    "  job submit FILE [--budget N] [--table-mb M] [--syzygy DIR]\n"
    "  job submit --server-path PATH [...]\n"
    "  job watch ID | job list [--limit N] | job cancel ID | job delete ID\n"
    "  job results ID [--format text|jsonl|csv] [--from N]\n"
    "        (with --coordinator) Rule on every game of a PGN file in the\n"
    "        background: submit uploads FILE (.pgn or .pgn.zst, - for stdin)\n"
    "        and prints the job's id once the coordinator has stored it;\n"
    "        --server-path names a file under the coordinator's --job-input-dir\n"
    "        instead. watch prints its progress until it ends (exit 0 when\n"
    "        done); results prints its records (from game N) and summary as\n"
    "        verify does; list shows jobs newest first (id, state, created,\n"
    "        finished, games, file); cancel stops a running job (its verdicts\n"
    "        stay); delete removes an ended job and its upload.\n"
    "\n"
    "  serve [--http ADDR] [--port-file FILE] [--tls-cert FILE --tls-key FILE]\n"
    "        [--tokens FILE] [--jobs N] [--syzygy DIR]... [--tables DIR]\n"
    "        Serve the HTTP/JSON API and the web page (docs/http.md) with the\n"
    "        engine in this process, on 127.0.0.1:8080 unless --http says\n"
    "        otherwise; open the printed address in a browser. Jobs live in\n"
    "        memory and end with the process (a coordinator's --http keeps them).\n"
    "\n"
    "  --rules fide|uscf|iccf|chess99   (analyze, verify, job submit) The rule\n"
    "                 system; default fide (the FIDE Laws; \"chess\" too). uscf: US\n"
    "                 Chess (flag falls under 14E, claims under 14H). iccf:\n"
    "                 correspondence: tablebase claims (up to 7 men) are judged\n"
    "                 without the 50-move rule; with more men it stands.\n"
    "                 chess99: Chess 99 (9x9):\n"
    "                 analyze takes a FEN-9 position and moves in Chess 99\n"
    "                 notation and says whether each side can still win (with a\n"
    "                 line), the king captures now (win or draw) and the D5/D6\n"
    "                 claims; verify judges games without a [Variant] tag as\n"
    "                 Chess 99 games (a [Variant \"Chess 99\"] game always is).\n"
    "\n"
    "  --claim KIND   (analyze) Judge a claim at the position: quickplay_finish\n"
    "                 (FIDE Guidelines III.5), insufficient_losing_chances (US\n"
    "                 Chess 14H) or tablebase_claim (ICCF); --rules follows the\n"
    "                 claim. --claimant white|black (default: the side to move),\n"
    "                 --claimed win|draw (tablebase claims; default draw).\n"
    "                 Answers upheld, rejected or arbiter_judgment, with evidence.\n"
    "                 verify judges claims a record makes: {[%claim KIND]} after\n"
    "                 a move, or a [Termination] naming one.\n"
    "\n"
    "  --syzygy DIR   Syzygy tables (repeatable, or DIR:DIR...); default\n"
    "                 $ARBITER_SYZYGY. Without either, no tablebase fields.\n"
    "\n"
    "  --tables DIR   (analyze, verify) Load the retrograde tables from DIR; save\n"
    "                 the ones generated there. Default $ARBITER_TABLES, else the\n"
    "                 per-user cache $XDG_CACHE_HOME/arbiter/tables (or\n"
    "                 ~/.cache/arbiter/tables). --tables '' keeps them in memory.\n"
    "\n"
    "  --coordinator HOST:PORT   (analyze, verify) Send the work to an\n"
    "                 arbiter-coordinator instead of running the engine in this\n"
    "                 process; the output is the same. Default $ARBITER_COORDINATOR.\n"
    "                 --syzygy then asks the workers to probe their own tables.\n"
    "  --tls-ca FILE    (with --coordinator) TLS, trusting the CA in FILE; default\n"
    "                 $ARBITER_TLS_CA. Without it the connection is plain text.\n"
    "  --token-file FILE  (with --coordinator) send the bearer token in FILE with\n"
    "                 every call (needs TLS); default $ARBITER_TOKEN_FILE. Tokens\n"
    "                 are never taken from the command line, where ps shows them.\n"
    "\n"
    "  help, --help   Show this text. Every command takes --help too\n"
    "                 (arbiter verify --help, arbiter job submit --help).\n"
    "  --version      Print the version and commit.\n"
    "  --             Ends the options: every word after it is an operand\n"
    "                 (arbiter verify -- --odd.pgn).\n"
    "\n"
    "Exit codes:\n"
    "  0  success\n"
    "  1  findings: verify --fail-on asked and the run found such records;\n"
    "     also a line analyze FILE could not analyse, a table tables build\n"
    "     could not build or save, a job job watch saw end other than done\n"
    "  2  bad usage: an unknown option, a bad value, a missing operand (and\n"
    "     errors the coordinator answers)\n"
    "  3  the input cannot be opened or read, or it ended early (a truncated\n"
    "     or corrupt .zst, an I/O error)\n";

// `arbiter --help`: the overview above; each command's --help is CLI11's
// list of its options.
class Overview : public CLI::Formatter {
 public:
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    if (app->get_parent() == nullptr) return kUsage;
    return CLI::Formatter::make_help(app, std::move(name), mode);
  }
};

}  // namespace

int main(int argc, char** argv) {
  using arbiter::common::ExitCode;
  namespace cli = arbiter::cli;
  namespace common = arbiter::common;
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return int(ExitCode::kUsage);
  }
  if (!std::strcmp(argv[1], "help")) {
    std::fputs(kUsage, stdout);
    return int(ExitCode::kSuccess);
  }
  CLI::App app("", "arbiter");
  app.formatter(std::make_shared<Overview>());  // before the commands, which inherit it
  app.get_formatter()->column_width(32);
  common::AddVersionFlag(app);
  // One command: after it, a word that names another is an operand (a file
  // called "verify").
  app.require_subcommand(0, 1);
  // The connection options may come before the command; the commands that
  // take them add them too, with the same storage.
  cli::ConnectionOptions connection;
  cli::AddConnectionOptions(app, &connection);
  const std::vector<cli::Command> commands = {
      cli::AddPerft(app),  cli::AddAnalyze(app, &connection), cli::AddVerify(app, &connection),
      cli::AddTables(app), cli::AddJob(app, &connection),     cli::AddServe(app),
  };
  // A word before any command names none, which deserves its own message.
  // (After the commands, which would inherit it.)
  app.allow_extras();
  if (std::optional<ExitCode> done = common::ParseCommandLine(app, argc, argv)) return int(*done);
  const std::vector<std::string> unplaced = app.remaining();
  if (app.get_subcommands().empty() && !unplaced.empty() && !unplaced[0].starts_with("-")) {
    std::fprintf(stderr, "arbiter: unknown command \"%s\" (see arbiter --help)\n",
                 unplaced[0].c_str());
    return int(ExitCode::kUsage);
  }
  if (std::optional<std::string> error = common::UnexpectedWords(unplaced))
    return int(arbiter::common::Fail(common::ProgramName(app), absl::InvalidArgumentError(*error)));
  for (const cli::Command& command : commands) {
    if (!command.app->parsed()) continue;
    if (!command.takes_connection) {
      for (const char* name : {"--coordinator", "--tls-ca", "--token-file"}) {
        if (app.get_option(name)->count() > 0)
          return int(arbiter::common::Fail(
              common::ProgramName(app),
              absl::InvalidArgumentError(std::string("unknown option ") + name)));
      }
    }
    return int(command.run());
  }
  std::fputs(kUsage, stderr);  // options, but no command
  return int(ExitCode::kUsage);
}
