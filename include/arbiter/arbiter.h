/*
 * Arbiter's C API: the whole library in one header.
 *
 * Arbiter rules, with evidence, on how chess games end under the FIDE Laws
 * (and the US Chess, ICCF and Chess 99 rule sets): whether a side can still
 * checkmate by any series of legal moves (the question of a flag fall,
 * 6.9, and of a dead position, 5.2.2), how a position stands, and what the
 * correct result of each game of a PGN file is.
 *
 *   arbiter_options options = {0};            // zero is every default
 *   arbiter_error error;
 *   arbiter_engine* engine = arbiter_engine_new(&options, &error);
 *   arbiter_mate mate = {0};
 *   if (arbiter_can_mate(engine, fen, ARBITER_WHITE, &mate, &error) == ARBITER_OK &&
 *       mate.answer == ARBITER_NO) { ... a flag fall by Black is a draw ... }
 *   arbiter_mate_clear(&mate);
 *   arbiter_engine_free(engine);
 *
 * Answers are yes, no or unknown. "yes" comes with a line of legal moves
 * that ends in checkmate by that side, repeats no position and stays inside
 * the 75-move rule; "no" names its proof; "unknown" means the search budget
 * ran out before either was shown, and is never a guess. docs/embedding.md
 * shows how a tournament manager rules a flag fall with it.
 *
 * Conventions:
 *   - Every function that can fail returns an arbiter_status and, when
 *     `error` is not NULL, fills it with the same status and a message that
 *     says what and where ("FEN field 2: ..."). No C++ exception leaves the
 *     library.
 *   - Strings are UTF-8 and NUL-terminated. Strings in result structs are
 *     the library's; release them with the struct's *_clear function,
 *     which also accepts a zero-initialised struct and leaves the struct
 *     zeroed. Moves are in UCI ("e7e8q"), lines space-separated.
 *   - Thread safety: one engine may be shared by any number of threads at
 *     once; every call on it is independent. Results and errors belong to
 *     the caller.
 *   - ABI: ARBITER_API_VERSION changes, with the library's SONAME, whenever
 *     a struct or a signature here changes; arbiter_api_version() tells
 *     which the loaded library implements.
 */
#ifndef ARBITER_ARBITER_H_
#define ARBITER_ARBITER_H_

#include <stddef.h>
#include <stdint.h>

#define ARBITER_API_VERSION 1

#if defined(ARBITER_BUILDING_LIBRARY)
#define ARBITER_EXPORT __attribute__((visibility("default")))
#else
#define ARBITER_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ARBITER_API_VERSION of the loaded library. */
ARBITER_EXPORT int arbiter_api_version(void);
/* The library's release and commit, e.g. "0.1.0 (99e4e23a1b2c)". */
ARBITER_EXPORT const char* arbiter_version(void);

/* ------------------------------------------------------------------ */
/* Errors                                                               */

typedef enum arbiter_status {
  ARBITER_OK = 0,
  ARBITER_INVALID_ARGUMENT = 1,    /* a bad FEN, move, option or pointer */
  ARBITER_NOT_FOUND = 2,           /* a file or directory that is not there */
  ARBITER_IO_ERROR = 3,            /* a file that cannot be read or is damaged */
  ARBITER_FAILED_PRECONDITION = 4, /* e.g. other Syzygy paths than the process's */
  ARBITER_CANCELLED = 5,           /* a verdict callback stopped the run */
  ARBITER_OUT_OF_MEMORY = 6,
  ARBITER_INTERNAL = 7 /* a bug: please report it */
} arbiter_status;

typedef struct arbiter_error {
  arbiter_status status;
  char message[512]; /* truncated to fit, always NUL-terminated */
} arbiter_error;

/* "ok", "invalid_argument", ... */
ARBITER_EXPORT const char* arbiter_status_name(arbiter_status status);

/* ------------------------------------------------------------------ */
/* The engine                                                           */

typedef enum arbiter_rules {
  ARBITER_RULES_FIDE = 0,   /* the FIDE Laws of Chess */
  ARBITER_RULES_USCF = 1,   /* US Chess: fivefold and 75 moves are claims, not automatic */
  ARBITER_RULES_ICCF = 2,   /* correspondence chess */
  ARBITER_RULES_CHESS99 = 3 /* Chess 99: for arbiter_verify_* only (untagged games) */
} arbiter_rules;

/* Zero-initialised, every field is its default. */
typedef struct arbiter_options {
  /* The directory of Arbiter's retrograde tables (the exact answers for at
   * most 4 men): read from there, and what is generated (0.5-2 s a table,
   * on first need) saved there. NULL: $ARBITER_TABLES, else
   * $XDG_CACHE_HOME/arbiter/tables (or ~/.cache/arbiter/tables); "": in
   * memory only. */
  const char* tables_dir;
  /* Syzygy directories, ':'-separated; NULL or "": none. Fathom holds one
   * set of tables per process: every engine of a process must name the
   * same directories (another set fails with ARBITER_FAILED_PRECONDITION). */
  const char* syzygy_path;
  /* Positions each mate search may visit before it answers "unknown";
   * 0: 200000, as the arbiter command. */
  uint64_t budget;
  /* The mate search's table in MB; 0: 16. */
  int table_mb;
  /* Threads for arbiter_verify_*; 0: 1. Other calls use the caller's
   * thread. */
  int threads;
  arbiter_rules rules;
  /* Non-zero: FENs and lines write castling as king-takes-rook (Chess960);
   * Shredder- and X-FEN castling letters turn it on by themselves. */
  int chess960;
} arbiter_options;

typedef struct arbiter_engine arbiter_engine;

/* NULL on failure (a tables_dir that is not a directory, Syzygy paths that
 * hold no table, ...), with `error` filled. */
ARBITER_EXPORT arbiter_engine* arbiter_engine_new(const arbiter_options* options,
                                                  arbiter_error* error);
/* NULL is accepted. No call on the engine may be running. */
ARBITER_EXPORT void arbiter_engine_free(arbiter_engine* engine);

/* ------------------------------------------------------------------ */
/* Can this side still checkmate?                                       */

typedef enum arbiter_color { ARBITER_WHITE = 0, ARBITER_BLACK = 1 } arbiter_color;

typedef enum arbiter_answer {
  ARBITER_UNKNOWN = 0, /* the budget ran out: neither shown */
  ARBITER_YES = 1,
  ARBITER_NO = 2
} arbiter_answer;

/* How a "no" was proven (docs/can-mate.md). */
typedef enum arbiter_proof {
  ARBITER_PROOF_NONE = 0,              /* not a "no" */
  ARBITER_PROOF_MATERIAL = 1,          /* the material cannot mate */
  ARBITER_PROOF_SEVENTY_FIVE_MOVE = 2, /* every line reaches the automatic draw first */
  ARBITER_PROOF_FORTRESS = 3,          /* blocked pawns no piece can pass */
  ARBITER_PROOF_FORCED_LINE = 4,       /* only moves, followed to the end */
  ARBITER_PROOF_EXHAUSTIVE_SEARCH = 5, /* every reachable position explored */
  ARBITER_PROOF_RETROGRADE = 6,        /* the exact tables (at most 4 men) */
  ARBITER_PROOF_BARE_KINGS = 7,        /* Chess 99: only the two kings */
  ARBITER_PROOF_LONE_KING = 8          /* Chess 99: a lone king cannot win */
} arbiter_proof;

/* "material", "seventy_five_move_rule", ... as in the JSON records; "" for
 * ARBITER_PROOF_NONE. */
ARBITER_EXPORT const char* arbiter_proof_name(arbiter_proof proof);

typedef struct arbiter_mate {
  arbiter_answer answer;
  arbiter_proof proof; /* for ARBITER_NO */
  /* For ARBITER_YES: the moves from the position to checkmate by the side
   * asked about (both sides' moves, as a referee replays them), in UCI and
   * in SAN; NULL otherwise. */
  char* line_uci;
  char* line_san;
  int line_plies;
} arbiter_mate;

/* Can `side` still checkmate from `fen` by some series of legal moves?
 * Under FIDE 6.9, a player whose flag falls loses unless the opponent
 * cannot: ask about the opponent. `out` is overwritten (clear it first if
 * it holds a result). */
ARBITER_EXPORT arbiter_status arbiter_can_mate(arbiter_engine* engine, const char* fen,
                                               arbiter_color side, arbiter_mate* out,
                                               arbiter_error* error);
ARBITER_EXPORT void arbiter_mate_clear(arbiter_mate* mate);

/* ------------------------------------------------------------------ */
/* How a position stands                                                */

typedef enum arbiter_game_status {
  ARBITER_ONGOING = 0,
  ARBITER_CHECKMATE = 1,         /* 5.1.1 */
  ARBITER_STALEMATE = 2,         /* 5.2.1 */
  ARBITER_DEAD_POSITION = 3,     /* 5.2.2 */
  ARBITER_FIVEFOLD = 4,          /* 9.6.1 */
  ARBITER_SEVENTY_FIVE_MOVES = 5 /* 9.6.2 */
} arbiter_game_status;

/* A tablebase's value for the side to move. */
typedef enum arbiter_tb_category {
  ARBITER_TB_NOT_COVERED = 0, /* no tables given, or they do not cover it */
  ARBITER_TB_LOSS = 1,
  ARBITER_TB_MAYBE_LOSS = 2, /* a loss or a blessed loss: the DTZ is rounded */
  ARBITER_TB_BLESSED_LOSS = 3,
  ARBITER_TB_DRAW = 4,
  ARBITER_TB_CURSED_WIN = 5, /* a win only without the 50-move rule */
  ARBITER_TB_MAYBE_WIN = 6,
  ARBITER_TB_WIN = 7
} arbiter_tb_category;

typedef struct arbiter_tablebase {
  arbiter_tb_category category;
  int dtz; /* plies to a capture or pawn move (Syzygy's DTZ), signed as Syzygy's */
  /* Whether the side to move wins inside the 50-move rule from here, with
   * the position's halfmove clock; ARBITER_UNKNOWN when the rounding of
   * the stored DTZ leaves it open. */
  arbiter_answer win_within_50;
  int retrograde; /* non-zero: Arbiter's own tables answered (at most 4 men) */
} arbiter_tablebase;

typedef struct arbiter_assessment {
  arbiter_game_status status;
  arbiter_answer dead; /* ARBITER_YES: neither side can mate */
  arbiter_mate white, black;
  /* The draw claims open to the side to move (9.2, 9.3) while the game
   * goes on: now, and the moves that would make them so (UCI; NULL when
   * none). */
  int threefold_now;
  char* threefold_moves;
  int fifty_now;
  char* fifty_moves;
  arbiter_tablebase tablebase;
  /* The whole record in the one JSON schema (docs/schema/), as
   * `arbiter analyze --json` prints it. */
  char* json;
} arbiter_assessment;

/* The position `fen` after `moves` (UCI, space-separated; NULL or "": none)
 * are played from it: they are the history that repetitions count. */
ARBITER_EXPORT arbiter_status arbiter_assess(arbiter_engine* engine, const char* fen,
                                             const char* moves, arbiter_assessment* out,
                                             arbiter_error* error);
ARBITER_EXPORT void arbiter_assessment_clear(arbiter_assessment* assessment);

/* ------------------------------------------------------------------ */
/* Game records                                                         */

/* Receives each game's verdict, in input order, on the thread that called
 * arbiter_verify_*: `json` is the record of the one JSON schema
 * (docs/schema/verdict.schema.json; a bad game is an error record and the
 * run goes on), `length` its bytes without the NUL; both are valid only
 * during the call. Return 0 to go on; anything else stops the run. */
typedef int (*arbiter_verdict_callback)(void* user_data, const char* json, size_t length);

typedef struct arbiter_verify_summary {
  int64_t games;
  int64_t errors;        /* records that could not be read or replayed (a game
                            of another variant is skipped, not an error: its
                            record's "type" is "skipped") */
  int64_t disagreements; /* declared results the ruling contradicts */
} arbiter_verify_summary;

/* Rules every game of the PGN text (or zstd-compressed PGN) in `data`.
 * `summary` may be NULL. Returns ARBITER_CANCELLED when the callback
 * stopped the run, ARBITER_IO_ERROR when the data ended inside a
 * compressed frame (the games before were delivered). */
ARBITER_EXPORT arbiter_status arbiter_verify_pgn(arbiter_engine* engine, const char* data,
                                                 size_t size, arbiter_verdict_callback callback,
                                                 void* user_data, arbiter_verify_summary* summary,
                                                 arbiter_error* error);
/* The same for a file (.pgn or .pgn.zst), read as it is ruled; "-" is
 * standard input. */
ARBITER_EXPORT arbiter_status arbiter_verify_file(arbiter_engine* engine, const char* path,
                                                  arbiter_verdict_callback callback,
                                                  void* user_data, arbiter_verify_summary* summary,
                                                  arbiter_error* error);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* ARBITER_ARBITER_H_ */
